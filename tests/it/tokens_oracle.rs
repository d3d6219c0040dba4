#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The token counter against a reference: `bpe-openai`'s `o200k_base`
//! (which its authors check against tiktoken), piece for piece and count
//! for count, on random text and on every real text at hand: the
//! project's own files and, when the shared corpus is beside the
//! checkout, all of tldr's pages.

use super::needs;

use std::path::{Path, PathBuf};

use jp_kb_core::internal::tokens::{count_tokens, pretokenize};
use proptest::prelude::*;

fn reference(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
}

fn reference_pieces(text: &str) -> Vec<&str> {
    bpe_openai::o200k_base().split(text).collect()
}

/// Files under `dir` (recursively), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(t) if t.is_file() => out.push(p),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// Compares every UTF-8 file under `dir`; returns how many were compared.
fn compare_tree(dir: &Path) -> usize {
    let mut compared = 0;
    for path in files(dir) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        assert_eq!(
            count_tokens(&text),
            Some(reference(&text)),
            "{}",
            path.display()
        );
        compared += 1;
    }
    compared
}

#[test]
fn counts_the_projects_own_texts_as_the_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut compared = 0;
    for dir in ["src", "tests", "assets", "docs", "benches"] {
        compared += compare_tree(&root.join(dir));
    }
    assert!(compared > 300, "only {compared} files compared");
}

/// All 38k tldr pages of the shared corpus beside the checkout (the
/// corpora's README: used in place from the project root). Without the
/// corpus it is ignored with the reason; under `CI` it fails.
#[test]
#[cfg_attr(
    lacks = "corpora",
    ignore = "needs the tldr corpus in ../shared/corpora beside the checkout (then touch build.rs)"
)]
fn counts_every_tldr_page_as_the_reference() {
    let corpus = needs::require(needs::Need::Corpora).join("tldr");
    let compared = compare_tree(&corpus);
    assert!(compared > 30_000, "only {compared} pages compared");
}

#[test]
fn long_pieces_and_edge_cases_count_as_the_reference() {
    let cases = [
        String::new(),
        "a".repeat(10_000),
        "ab".repeat(5_000),
        "QmFzZTY0IGJsb2Igd2l0aG91dCBzcGFjZXM".repeat(300),
        " ".repeat(1_000) + "x",
        "\n\n\n  \n\t\r\n".repeat(50),
        "1234567890".repeat(100),
        "日本語のテキストと English mixed 😀😀😀 émoji".repeat(20),
        "don't I'LL we've THEY'RE".to_owned(),
        "\u{0}\u{1}\u{7f}\u{80}\u{ff}\u{fffd}".to_owned(),
    ];
    for text in &cases {
        assert_eq!(count_tokens(text), Some(reference(text)), "{text:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_text_splits_and_counts_as_the_reference(
        text in "([ \\t\\r\\n]{0,3}(\\PC|[a-zA-Z]{1,12}|[0-9]{1,6}|[!-/:-@\\[-`{-~]{1,4}|'s|'LL)){0,40}[ \\n]{0,2}"
    ) {
        let ours: Vec<&str> = pretokenize::pieces(&text).collect();
        prop_assert_eq!(ours, reference_pieces(&text));
        prop_assert_eq!(count_tokens(&text), Some(reference(&text)));
    }
}
