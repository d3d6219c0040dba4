//! Token counting (issue 6): jp-kb's `o200k_base` counter against the
//! `bpe-openai` crate it replaced, on the same texts in the same process:
//! every tldr page when the shared corpus is beside the checkout, else
//! the generated bench corpus. Also the resident memory each adds.
//!
//! `cargo bench --bench tokens`. Prints a Markdown table.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        match e.file_type() {
            Ok(t) if t.is_dir() => files(&e.path(), out),
            Ok(t) if t.is_file() => out.push(e.path()),
            _ => {}
        }
    }
}

fn rss_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tldr = root.join("../shared/corpora/tldr");
    let (name, dir) = if tldr.is_dir() {
        ("tldr pages", tldr)
    } else {
        (
            "generated bench corpus (10k)",
            root.join("target/bench-data/ws-10000/kb"),
        )
    };
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    paths.sort();
    let texts: Vec<String> = paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    assert!(!texts.is_empty(), "no texts under {}", dir.display());
    let bytes: usize = texts.iter().map(String::len).sum();

    // Memory first, each tokenizer loaded once, in this order.
    let (anon0, file0) = (rss_kb("RssAnon:"), rss_kb("RssFile:"));
    let _ = jp_kb_core::internal::tokens::count_tokens("warm up");
    let (anon1, file1) = (rss_kb("RssAnon:"), rss_kb("RssFile:"));
    let _ = bpe_openai::o200k_base().count("warm up");
    let (anon2, file2) = (rss_kb("RssAnon:"), rss_kb("RssFile:"));

    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let a: usize = texts
            .iter()
            .map(|t| jp_kb_core::internal::tokens::count_tokens(t).unwrap())
            .sum();
        ours.push(t.elapsed());
        let t = Instant::now();
        let b: usize = texts
            .iter()
            .map(|t| bpe_openai::o200k_base().count(t.as_str()))
            .sum();
        theirs.push(t.elapsed());
        assert_eq!(a, b, "the counts differ");
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (a, b) = (median(&mut ours), median(&mut theirs));
    let mbs = |d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();
    println!(
        "{} files, {:.1} MB of {name}\n",
        texts.len(),
        bytes as f64 / 1e6
    );
    println!("| counter | median (5 runs) | MB/s | resident memory added (anon + file) |");
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| jp-kb `tokens` | {:.0} ms | {:.1} | {:.1} + {:.1} MB |",
        a.as_secs_f64() * 1e3,
        mbs(a),
        (anon1.saturating_sub(anon0)) as f64 / 1024.0,
        (file1.saturating_sub(file0)) as f64 / 1024.0,
    );
    println!(
        "| `bpe-openai` (baseline) | {:.0} ms | {:.1} | {:.1} + {:.1} MB |",
        b.as_secs_f64() * 1e3,
        mbs(b),
        (anon2.saturating_sub(anon1)) as f64 / 1024.0,
        (file2.saturating_sub(file1)) as f64 / 1024.0,
    );
    println!(
        "\nratio jp-kb / bpe-openai: {:.2}x (same texts, same counts)",
        a.as_secs_f64() / b.as_secs_f64()
    );
}
