//! `jp-kb usage` over ledgers written through the core's API (the MCP side
//! is `tests/mcp_usage.rs`): the window, topic selection, never-loaded
//! subjects, what the figures mean, escaping, errors.

use super::common;

use common::Sandbox;
use jp_kb_core::usage::{Entry, Kind, Ledger, ledger_path, time};
use serde_json::Value;

fn sandbox() -> Sandbox {
    Sandbox::with_fixture(&common::fixtures().join("golden").join("rfd-exact"))
}

fn ledger(sb: &Sandbox) -> Ledger {
    let root = sb.ws().canonicalize().unwrap();
    Ledger::new(ledger_path(&sb.path().join("data"), &root))
}

fn load(ledger: &Ledger, t: u64, session: &str, client: &str, slugs: &[&str]) {
    let mut e = Entry::record(
        t,
        Kind::Learn,
        "project".into(),
        session.into(),
        (client.into(), "1.0".into()),
    );
    e.slugs = slugs.iter().map(|s| (*s).to_owned().into()).collect();
    e.tokens = 10 * slugs.len() as u64;
    ledger.append(&e, t).unwrap();
}

fn json(sb: &Sandbox, args: &[&str]) -> Vec<Value> {
    let out = sb
        .cmd()
        .arg("usage")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_empty_ledger_lists_every_subject_as_never_loaded() {
    let sb = sandbox();
    let rows = json(&sb, &[]);
    let slugs: Vec<&str> = rows.iter().map(|r| r["slug"].as_str().unwrap()).collect();
    assert_eq!(
        slugs,
        [
            "code-quality",
            "internal-notes",
            "maintainers/jean",
            "maintainers/ryan",
            "ast-grep",
            "ast-grep/rules"
        ]
    );
    assert!(rows.iter().all(|r| r["loads"] == 0 && r["last"].is_null()));
    assert_eq!(rows[1]["state"], "hidden");
    let out = sb.cmd().arg("usage").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Nothing recorded yet"), "{text}");
    assert!(
        !sb.path().join("data/jp-kb").exists(),
        "reading wrote something"
    );
}

#[test]
fn the_window_and_the_topic_select_what_counts() {
    let sb = sandbox();
    let l = ledger(&sb);
    let now = time::now();
    load(&l, now - 40 * 86_400, "old", "jp", &["code-quality"]);
    load(
        &l,
        now - 60,
        "s1",
        "jp",
        &["code-quality", "maintainers/jean"],
    );
    load(&l, now - 30, "s2", "claude-code", &["code-quality"]);
    let rows = json(&sb, &["project"]);
    assert_eq!(rows.len(), 4, "only the topic asked for");
    assert_eq!(rows[0]["loads"], 2);
    assert_eq!(rows[0]["sessions"], 2);
    assert_eq!(
        rows[0]["clients"],
        serde_json::json!(["claude-code 1.0", "jp 1.0"])
    );
    // 20 tokens shared by two subjects, then 10 alone.
    assert_eq!(rows[0]["tokens"], 20);
    let all = json(&sb, &["project", "--since", "all"]);
    assert_eq!(all[0]["loads"], 3);
    let hour = json(&sb, &["project", "--since", "45s"]);
    assert_eq!(hour[0]["loads"], 1);
}

#[test]
fn the_human_output_says_what_it_means_and_escapes_names() {
    let sb = sandbox();
    let l = ledger(&sb);
    let now = time::now();
    for s in 0..4 {
        load(
            &l,
            now - 10,
            &format!("s{s}"),
            "evil\u{1b}[31m",
            &["code-quality"],
        );
    }
    let out = sb.cmd().arg("usage").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("never loaded in 30 days"), "{text}");
    assert!(text.contains("loaded in most sessions"), "{text}");
    assert!(text.contains("Ledger: "), "{text}");
}

#[test]
fn bad_arguments_are_errors_that_say_what_is_valid() {
    let sb = sandbox();
    let out = sb
        .cmd()
        .args(["usage", "--since", "soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("30d"));
    let out = sb.cmd().args(["usage", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("project"));
}

#[test]
fn check_notes_preloaded_subjects_asked_for_without_failing() {
    let sb = sandbox();
    let out = sb.cmd().arg("check").output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("note:"));
    let code = out.status.code();
    let l = ledger(&sb);
    let now = time::now();
    let mut e = Entry::record(
        now,
        Kind::Learn,
        "project".into(),
        "s".into(),
        ("jp".into(), "1".into()),
    );
    e.preloaded = vec!["maintainers/jean".to_owned().into()];
    l.append(&e, now).unwrap();
    let out = sb
        .cmd()
        .args(["-k", "project/maintainers/*", "check"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("note: `learn` was asked in the last 30 days for pre-loaded subject: project/maintainers/jean"),
        "{stderr}"
    );
    assert_eq!(
        out.status.code(),
        code,
        "the note never changes the outcome"
    );
}
