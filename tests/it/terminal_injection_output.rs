#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Hostile names never drive the terminal through `search` or the
//! `--dry-run` diffs of `connect` and `sync` (issue 24, item 9): a topic
//! id, a title and slugs holding ESC sequences, BEL, a bidi override and
//! a zero-width space, and a query holding them too. No raw control,
//! bidi or zero-width character reaches stdout or stderr; `--json` stays
//! JSON with the same values. (`tests/it/terminal_injection.rs` covers
//! `list`, `check`, edits and errors.)

use super::common;

use common::Sandbox;

const ID_TOML: &str = "ev\\u001b[2Jil\\u202e\\u200bx";
const ID: &str = "ev\u{1b}[2Jil\u{202e}\u{200b}x";
const TITLE_TOML: &str = "T\\u001b]52;c;aGk=\\u0007 \\u202eRTL";
const SLUG: &str = "a\u{1b}]8;;x\u{7}b\u{202e}c\u{200b}";

/// What must never reach a terminal raw (an independent list).
fn is_hostile(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}' | '\u{feff}'
        )
}

fn assert_clean(what: &str, text: &str) {
    let bad: Vec<String> = text
        .chars()
        .filter(|c| is_hostile(*c))
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    assert!(bad.is_empty(), "{what}: raw {bad:?} in:\n{text:?}");
}

fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/kb.toml",
        format!("[kb.topic.\"{ID_TOML}\"]\ntitle = \"{TITLE_TOML}\"\nintroduction = \"Things.\"\nsubjects = \".jp/kb/ev\"\n"),
    );
    sb.write(
        &format!("ws/.jp/kb/ev/{SLUG}.md"),
        "# Zebra\n\nzebra words\n",
    );
    sb.write("ws/.jp/kb/ev/plain.md", "# Plain\n\nzebra too\n");
    sb
}

/// Runs `args`; both streams are checked clean.
fn run(sb: &Sandbox, args: &[&str]) -> (Option<i32>, String) {
    let out = sb.cmd().args(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_clean(&format!("{args:?} stdout"), &stdout);
    assert_clean(&format!("{args:?} stderr"), &stderr);
    (out.status.code(), stdout)
}

#[test]
fn search_escapes_ids_slugs_and_the_query() {
    let sb = sandbox();
    let (code, table) = run(&sb, &["search", "zebra"]);
    assert_eq!(code, Some(0));
    assert!(table.contains("ev^[[2Jil<U+202E><U+200B>x"), "{table}");
    assert!(table.contains("a^[]8;;x^Gb<U+202E>c<U+200B>"), "{table}");
    let (code, none) = run(&sb, &["search", "nothing\u{1b}[2J\u{202e}here"]);
    assert_eq!(code, Some(0));
    assert!(none.contains("nothing^[[2J<U+202E>here"), "{none}");
}

#[test]
fn search_json_stays_json_with_the_same_values() {
    let sb = sandbox();
    let (code, json) = run(&sb, &["search", "zebra", "--json"]);
    assert_eq!(code, Some(0));
    let hits: serde_json::Value = serde_json::from_str(&json).unwrap();
    let hits = hits.as_array().unwrap();
    assert!(hits.iter().all(|h| h["topic"] == ID), "{json}");
    assert!(hits.iter().any(|h| h["slug"] == SLUG), "{json}");
}

#[test]
fn dry_run_diffs_are_escaped() {
    let sb = sandbox();
    let (code, diff) = run(&sb, &["connect", "claude-code", "--dry-run"]);
    assert_eq!(code, Some(0));
    assert!(diff.contains("T^[]52;c;aGk=^G <U+202E>RTL"), "{diff}");
    // Connected for real, then changed behind jp-kb's back: `sync
    // --dry-run` shows the rewrite as a diff.
    let (code, _) = run(&sb, &["connect", "claude-code"]);
    assert_eq!(code, Some(0));
    std::fs::write(sb.ws().join(".claude/rules/jp-kb.md"), "old\u{1b}[2J\n").unwrap();
    let (code, diff) = run(&sb, &["sync", "--dry-run"]);
    assert_eq!(code, Some(0));
    assert!(diff.contains("-old^[[2J"), "{diff}");
    assert!(diff.contains("T^[]52;c;aGk=^G <U+202E>RTL"), "{diff}");
}
