//! `jp-kb usage --stale` on the Facts tree (`tests/facts/valid`) with a
//! ledger written through the core's API: exactly the expired, never
//! loaded and (with `--since`) idle subjects are listed; `--disable`
//! changes the `<knowledge>` section by the cost it showed before, and
//! the undo it prints restores every file byte for byte. Judged as of
//! `JP_KB_TODAY=2026-07-15` (the pre-loaded `notes/release-freeze`
//! expires 2026-06-30), never the wall clock.

use super::common;

use std::collections::BTreeMap;
use std::path::Path;

use common::Sandbox;
use jp_kb_core::usage::{Entry, Kind, Ledger, ledger_path, time};
use serde_json::Value;

const TODAY: &str = "2026-07-15";

fn valid() -> Sandbox {
    Sandbox::with_fixture(&common::fixtures().join("facts").join("valid"))
}

/// Records that `topic`'s `slugs` were loaded at `t`.
fn load(sb: &Sandbox, t: u64, topic: &str, slugs: &[&str]) {
    let root = sb.ws().canonicalize().unwrap();
    let ledger = Ledger::new(ledger_path(&sb.path().join("data"), &root));
    let mut e = Entry::record(
        t,
        Kind::Learn,
        topic.into(),
        "s1".into(),
        ("jp".into(), "1.0".into()),
    );
    e.slugs = slugs.iter().map(|s| (*s).to_owned().into()).collect();
    e.tokens = 10;
    ledger.append(&e, t).unwrap();
}

fn run(sb: &Sandbox, args: &[&str]) -> (String, String, i32) {
    let out = sb
        .cmd()
        .env("JP_KB_TODAY", TODAY)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// `topic/slug` → its reasons, from `usage --stale --json`.
fn stale(sb: &Sandbox, extra: &[&str]) -> BTreeMap<String, Vec<String>> {
    let mut args = vec!["usage", "--stale", "--json"];
    args.extend_from_slice(extra);
    let (out, err, status) = run(sb, &args);
    assert_eq!(status, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    rows.iter()
        .map(|r| {
            (
                format!(
                    "{}/{}",
                    r["topic"].as_str().unwrap(),
                    r["slug"].as_str().unwrap()
                ),
                r["reasons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

/// The section's tokens, as `prompt --stats` counts them.
fn prompt_tokens(sb: &Sandbox) -> u64 {
    let (_, err, status) = run(sb, &["prompt", "--stats"]);
    assert_eq!(status, 0, "{err}");
    let words: Vec<&str> = err.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "tokens").unwrap();
    words[i - 1].parse().unwrap()
}

fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).unwrap().display().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn names(list: &BTreeMap<String, Vec<String>>) -> Vec<&str> {
    list.keys().map(String::as_str).collect()
}

#[test]
fn facts_usage_stale_lists_exactly_the_expired_never_loaded_and_idle() {
    let sb = valid();
    // An empty ledger says nothing of loads: only the expired note.
    let empty = stale(&sb, &[]);
    assert_eq!(names(&empty), ["notes/release-freeze"]);
    assert_eq!(empty["notes/release-freeze"], ["expired"]);
    let now = time::now();
    load(
        &sb,
        now - 60,
        "facts",
        &["global/pitfalls", "global/patterns", "index"],
    );
    load(&sb, now - 60, "facts", &["global/tool-quirks", "SCHEMA"]);
    load(&sb, now - 100 * 86_400, "facts", &["repos/jp-kb"]);
    load(&sb, now - 60, "notes", &["conventions"]);
    let list = stale(&sb, &[]);
    assert_eq!(
        names(&list),
        ["facts/agents/reviewer", "notes/release-freeze"],
        "{list:?}"
    );
    assert_eq!(list["facts/agents/reviewer"], ["never-loaded"]);
    assert_eq!(list["notes/release-freeze"], ["expired", "never-loaded"]);
    // Loaded 100 days ago: idle for --since 90d, not for 120d.
    let idle = stale(&sb, &["--since", "90d"]);
    assert_eq!(
        names(&idle),
        [
            "facts/agents/reviewer",
            "facts/repos/jp-kb",
            "notes/release-freeze"
        ]
    );
    assert_eq!(idle["facts/repos/jp-kb"], ["not-loaded-since"]);
    assert_eq!(names(&stale(&sb, &["--since", "120d"])), names(&list));
    // A topic narrows the list; a day before expiry, nothing is expired.
    assert_eq!(names(&stale(&sb, &["notes"])), ["notes/release-freeze"]);
    let (out, _, _) = run(&sb, &["usage", "--stale"]);
    assert!(out.contains("expired 2026-06-30"), "{out}");
    let before = sb
        .cmd()
        .env("JP_KB_TODAY", "2026-06-30")
        .args(["usage", "--stale", "--json", "notes"])
        .output()
        .unwrap();
    let rows: Vec<Value> = serde_json::from_slice(&before.stdout).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["reasons"], serde_json::json!(["never-loaded"]));
}

#[test]
fn facts_usage_stale_disable_costs_what_it_showed_and_undoes_byte_for_byte() {
    let sb = valid();
    let now = time::now();
    load(
        &sb,
        now - 60,
        "facts",
        &["global/pitfalls", "global/patterns", "index"],
    );
    load(
        &sb,
        now - 60,
        "facts",
        &["global/tool-quirks", "SCHEMA", "repos/jp-kb"],
    );
    load(&sb, now - 60, "notes", &["conventions"]);
    let files = snapshot(&sb.ws());
    let tokens = prompt_tokens(&sb);
    let (shown, err, status) = run(&sb, &["usage", "--stale"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(snapshot(&sb.ws()), files, "listing wrote something");
    let promise = format!("the <knowledge> section from {tokens} to ");
    let at = shown.find(&promise).unwrap_or_else(|| panic!("{shown}"));
    let after: u64 = shown[at + promise.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(after < tokens, "{shown}");
    let (done, err, status) = run(&sb, &["usage", "--stale", "--disable"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(prompt_tokens(&sb), after, "{done}");
    assert!(
        done.contains(&format!(
            "now: the <knowledge> section is {after} tokens (was {tokens})"
        )),
        "{done}"
    );
    // Both subjects disabled, in one write of the one file.
    assert!(stale(&sb, &[]).is_empty());
    let disabled = snapshot(&sb.ws());
    let changed: Vec<&String> = disabled
        .iter()
        .filter(|(k, v)| files.get(*k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    // The undo it prints, run as printed, restores every byte.
    let undo: Vec<&str> = done
        .lines()
        .skip_while(|l| !l.starts_with("To undo:"))
        .skip(1)
        .collect();
    assert_eq!(undo.len(), 2, "{done}");
    for line in undo {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[..3], ["jp-kb", "disabled", "rm"], "{line}");
        let (_, err, status) = run(&sb, &words[1..]);
        assert_eq!(status, 0, "{err}");
    }
    assert_eq!(snapshot(&sb.ws()), files);
    assert_eq!(prompt_tokens(&sb), tokens);
}

#[test]
fn facts_usage_disable_needs_stale() {
    let sb = valid();
    let (_, err, status) = run(&sb, &["usage", "--disable"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("--stale"), "{err}");
}

#[test]
fn facts_list_and_search_json_carry_the_age_keys() {
    let sb = valid();
    let (out, err, status) = run(&sb, &["list", "notes", "--frontmatter", "--json"]);
    assert_eq!(status, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let freeze = rows.iter().find(|r| r["slug"] == "release-freeze").unwrap();
    assert_eq!(freeze["expires"], "2026-06-30");
    assert_eq!(freeze["expired"], true);
    assert_eq!(freeze["last_confirmed"], "2026-04-20");
    assert_eq!(freeze["confidence"], 0.9);
    let conventions = rows.iter().find(|r| r["slug"] == "conventions").unwrap();
    assert!(conventions.get("expires").is_none(), "{conventions}");
    assert_eq!(conventions["confidence"], 0.95);
    // Without --frontmatter nothing is read: no age keys.
    let (out, _, _) = run(&sb, &["list", "notes", "--json"]);
    assert!(!out.contains("expired"), "{out}");
    // A Facts file's counts.
    let (out, _, _) = run(&sb, &["list", "facts", "--frontmatter", "--json"]);
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let index = rows.iter().find(|r| r["slug"] == "index").unwrap();
    assert_eq!(index["facts"]["count"], 7, "{index}");
    let (out, err, status) = run(&sb, &["search", "freeze", "--mode", "lexical", "--json"]);
    assert_eq!(status, 0, "{err}");
    let hits: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(hits[0]["slug"], "release-freeze");
    assert_eq!(hits[0]["expired"], true);
    assert_eq!(hits[0]["expires"], "2026-06-30");
}
