#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Property test (issue 12, item 8): no configuration text, however
//! mangled, panics configuration loading or `check` (and so neither the
//! CLI nor the TUI's check thread). Valid TOML, JSON and YAML layers full
//! of multi-byte characters are cut, spliced and sprinkled with quotes,
//! brackets, multi-byte characters, byte order marks and line breaks; each
//! goes through `config::load` and `check::check`, whose findings must
//! point inside the file at whole characters.

use std::path::Path;

use jp_kb_core::internal::check::{Thresholds, check};
use jp_kb_core::internal::config::{Environment, LoadOptions, load};
use proptest::prelude::*;

const TOML: &str = "# ünïcödé 日本\n[kb.topic.\"é日\"]\ntitle = \"Tïtle 😀\"\nintroduction = '''\nmulti ñ\n'''\nsubjects = \"kb\"\nlearned = [\"a\", \"é/ü\", { x = 1 }]\n[kb.topic.b]\ndisabled = { value = [\"日本\"], strategy = \"append\" }\nextends = [\"nope-é.toml\"]\n";
const JSON: &str = "{\"kb\": {\"topic\": {\"é日\": {\"title\": \"Tïtle 😀\", \"subjects\": \"kb\", \"learned\": [\"a\", \"é/ü\"]}, \"b\": {\"disabled\": {\"value\": [\"日本\"]}}}}}\n";
const YAML: &str = "# ünïcödé\nkb:\n  topic:\n    \"é日\":\n      title: \"Tïtle 😀\"\n      subjects: kb\n      learned: [a, \"é/ü\"]\n    b: {disabled: {value: [日本]}, enable: ñ}\n";

/// One edit of a text, at a position taken modulo its length (moved back
/// to a character boundary).
#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, String),
    Delete(usize, usize),
    Truncate(usize),
}

fn noise() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("é".to_owned()),
        Just("日本".to_owned()),
        Just("😀".to_owned()),
        Just("\u{feff}".to_owned()),
        Just("\"".to_owned()),
        Just("'''".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(":".to_owned()),
        Just("=".to_owned()),
        Just(",".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("\t".to_owned()),
        Just(" x".to_owned()),
        "\\PC{1,4}",
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), noise()).prop_map(|(at, s)| Edit::Insert(at, s)),
        2 => (any::<usize>(), 1usize..6).prop_map(|(at, n)| Edit::Delete(at, n)),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_owned();
    for edit in edits {
        match edit {
            Edit::Insert(at, s) => {
                let at = boundary(&text, *at);
                text.insert_str(at, s);
            }
            Edit::Delete(at, n) => {
                let at = boundary(&text, *at);
                let end = text[at..]
                    .char_indices()
                    .nth(*n)
                    .map_or(text.len(), |(i, _)| at + i);
                text.replace_range(at..end, "");
            }
            Edit::Truncate(at) => {
                let at = boundary(&text, *at);
                text.truncate(at);
            }
        }
    }
    text
}

fn load_and_check(root: &Path, name: &str, text: &str) {
    let jp = root.join(".jp");
    for old in ["config.toml", "config.json", "config.yaml"] {
        let _ = std::fs::remove_file(jp.join(old));
    }
    std::fs::write(jp.join(name), text).unwrap();
    let env = Environment::workspace_only(root);
    let options = LoadOptions::default();
    let _ = load(&env, &options);
    let report = check(&env, &options, &Thresholds::default());
    for finding in &report.findings {
        let Some(span) = &finding.span else { continue };
        let source = finding
            .file
            .as_ref()
            .and_then(|f| report.sources.get(f))
            .expect("a span comes with its source");
        assert!(span.end <= source.len(), "{finding:?}");
        assert!(source.is_char_boundary(span.start), "{finding:?}");
        assert!(source.is_char_boundary(span.end), "{finding:?}");
    }
    // Rendering must not panic either.
    let _ = jp_kb_core::internal::check::report::render_human(
        &report,
        jp_kb_core::internal::check::report::HumanStyle::default(),
    );
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".jp")).unwrap();
    std::fs::create_dir_all(dir.path().join("kb/é")).unwrap();
    std::fs::write(dir.path().join("kb/a.md"), "A").unwrap();
    std::fs::write(dir.path().join("kb/é/ü.md"), "Ü").unwrap();
    dir
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn mangled_configs_never_panic(
        format in 0usize..3,
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let (name, seed) = [("config.toml", TOML), ("config.json", JSON), ("config.yaml", YAML)][format];
        let dir = workspace();
        let root = dir.path().canonicalize().unwrap();
        load_and_check(&root, name, &apply(seed, &edits));
    }

    #[test]
    fn arbitrary_text_never_panics(format in 0usize..3, text in "\\PC{0,60}") {
        let name = ["config.toml", "config.json", "config.yaml"][format];
        let dir = workspace();
        let root = dir.path().canonicalize().unwrap();
        load_and_check(&root, name, &text);
    }
}

#[test]
fn the_seeds_and_the_known_crash_do_not_panic() {
    let dir = workspace();
    let root = dir.path().canonicalize().unwrap();
    for (name, seed) in [
        ("config.toml", TOML),
        ("config.json", JSON),
        ("config.yaml", YAML),
    ] {
        load_and_check(&root, name, seed);
    }
    load_and_check(&root, "config.yaml", "kb: {topic: \"ééé\" x}\n");
}
