#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Contract §1, §3, §4, §5 rules on real temporary trees: symlinks, odd
//! names, collisions, disabled/hidden/learned interplay, topic errors,
//! exit codes.

use super::common;

use std::os::unix::ffi::OsStrExt;

use common::Sandbox;
use predicates::prelude::*;
use serde_json::Value;

fn ws(config: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", config);
    sb
}

fn list(sb: &Sandbox, args: &[&str]) -> Value {
    let out = sb
        .cmd()
        .args(["list"])
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn slugs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s["slug"].as_str().unwrap().to_owned())
        .collect()
}

const T: &str = "[kb.topic.t]\nsubjects = \"kb\"\n";

#[test]
fn symlink_to_a_file_outside_the_workspace_is_never_read() {
    let sb = ws(T);
    sb.write("ws/kb/ok.md", "fine");
    let secret = sb.write("outside/secret.md", "TOP SECRET");
    std::os::unix::fs::symlink(&secret, sb.ws().join("kb/leak.md")).unwrap();
    std::os::unix::fs::symlink(sb.path().join("outside"), sb.ws().join("kb/dir")).unwrap();
    assert_eq!(slugs(&list(&sb, &["t", "--all"])), ["ok"]);
    sb.cmd()
        .args(["learn", "t", "**"])
        .assert()
        .success()
        .stdout(predicate::str::contains("SECRET").not())
        .stderr(predicate::str::contains("leaves the workspace"));
    sb.cmd()
        .args(["learn", "t", "leak"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("SECRET").not());
}

#[test]
fn symlinks_inside_the_workspace_are_followed_and_loops_end() {
    let sb = ws(T);
    sb.write("ws/kb/real.md", "real");
    sb.write("ws/docs/shared.md", "shared");
    std::os::unix::fs::symlink(sb.ws().join("docs"), sb.ws().join("kb/docs")).unwrap();
    std::os::unix::fs::symlink(sb.ws().join("kb"), sb.ws().join("kb/loop")).unwrap();
    assert_eq!(slugs(&list(&sb, &["t", "--all"])), ["docs/shared", "real"]);
    sb.cmd()
        .args(["learn", "t", "docs/shared"])
        .assert()
        .success()
        .stdout("shared\n");
}

#[test]
fn non_utf8_names_are_skipped_with_a_warning() {
    let sb = ws(T);
    sb.write("ws/kb/ok.md", "fine");
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.md");
    std::fs::write(sb.ws().join("kb").join(name), "x").unwrap();
    assert_eq!(slugs(&list(&sb, &["t", "--all"])), ["ok"]);
    sb.cmd()
        .args(["prompt"])
        .assert()
        .success()
        .stderr(predicate::str::contains("not valid UTF-8"));
}

#[test]
fn collisions_prefer_visible_then_smaller_path() {
    let sb = ws(T);
    sb.write("ws/kb/foo.md", "md");
    sb.write("ws/kb/foo.txt", "txt");
    sb.write("ws/kb/.bar.md", "hidden");
    sb.write("ws/kb/bar.md", "visible");
    let v = list(&sb, &["t", "--all"]);
    assert_eq!(slugs(&v), ["bar", "foo"]);
    assert_eq!(v[0]["path"], "bar.md");
    assert_eq!(v[1]["path"], "foo.md");
    sb.cmd()
        .args(["learn", "t", "foo"])
        .assert()
        .stdout("md\n")
        .stderr(predicate::str::contains("both have the slug `foo`"));
}

#[test]
fn disabled_beats_learned_exact_slug_and_globs_hidden_included() {
    let sb = ws(
        "[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"a\", \"**\"]\ndisabled = [\"a\", \"secret/*\"]\n",
    );
    sb.write("ws/kb/a.md", "A");
    sb.write("ws/kb/b.md", "B");
    sb.write("ws/kb/.secret/x.md", "X");
    let v = list(&sb, &["t", "--all"]);
    let by: std::collections::HashMap<_, _> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["slug"].as_str().unwrap().to_owned(), s.clone()))
        .collect();
    assert_eq!(by["a"]["disabled"], true);
    assert_eq!(by["a"]["learned"], false);
    assert_eq!(
        by["secret/x"]["disabled"], true,
        "a disabled glob reaches hidden subjects"
    );
    assert_eq!(by["b"]["learned"], true);
    sb.cmd()
        .args(["learn", "t", "a"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("disabled"));
    sb.cmd().args(["learn", "t", "secret/x"]).assert().code(1);
    sb.cmd()
        .arg("prompt")
        .assert()
        .stdout(predicate::str::contains("<subject \"a\">").not())
        .stdout(predicate::str::contains("<subject \"b\">\nB\n</subject>"));
}

#[test]
fn exact_slug_learns_a_hidden_subject_and_globs_never_do() {
    let sb = ws("[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"*\"]\n");
    sb.write("ws/kb/.h.md", "H");
    sb.write("ws/kb/v.md", "V");
    sb.cmd()
        .arg("prompt")
        .assert()
        .stdout(predicate::str::contains("<subject \"h\">").not());
    sb.cmd()
        .args(["-k", "t/h", "prompt"])
        .assert()
        .stdout(predicate::str::contains("<subject \"h\">\nH\n</subject>"));
}

#[test]
fn disabled_topic_appears_nowhere() {
    let sb = ws(
        "[kb.topic.t]\nsubjects = \"kb\"\nenable = false\nlearned = [\"**\"]\n[kb.topic.u]\nsubjects = \"kb\"\n",
    );
    sb.write("ws/kb/a.md", "A");
    sb.cmd()
        .arg("prompt")
        .assert()
        .stdout(predicate::str::contains("- u"))
        .stdout(predicate::str::contains("- t").not())
        .stdout(predicate::str::contains("<subject").not());
    sb.cmd()
        .arg("schema")
        .assert()
        .stdout(predicate::str::contains("- u"))
        .stdout(predicate::str::contains("- t\\n").not());
    sb.cmd()
        .args(["learn", "t"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "Unknown topic \"t\". Valid topics:\n- u",
        ));
}

#[test]
fn escaping_and_absolute_subjects_are_topic_errors_others_still_work() {
    let sb = ws(
        "[kb.topic.up]\nsubjects = \"../outside\"\n[kb.topic.abs]\nsubjects = \"/etc\"\n[kb.topic.missing]\nsubjects = \"nope\"\n[kb.topic.ok]\nsubjects = \"kb\"\n",
    );
    sb.write("outside/x.md", "X");
    sb.write("ws/kb/a.md", "A");
    std::os::unix::fs::symlink(sb.path().join("outside"), sb.ws().join("link")).unwrap();
    sb.write("ws/.jp.toml", "[kb.topic.link]\nsubjects = \"link\"\n");
    let v = list(&sb, &[]);
    let err = |id: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap()["error"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    assert!(
        err("up").contains("leaves the workspace root"),
        "{}",
        err("up")
    );
    assert!(err("abs").contains("absolute"));
    assert!(err("missing").contains("does not exist"));
    assert!(err("link").contains("outside the workspace root"));
    assert_eq!(err("ok"), "");
    sb.cmd()
        .arg("prompt")
        .assert()
        .success()
        .stdout(predicate::str::contains("- ok"))
        .stderr(predicate::str::contains("topic `up` is skipped"));
    sb.cmd()
        .args(["learn", "link", "**"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
}

#[test]
fn list_hides_hidden_and_disabled_unless_all_and_reads_no_content() {
    let sb = ws("[kb.topic.t]\nsubjects = \"kb\"\ndisabled = [\"d\"]\n");
    sb.write("ws/kb/a.md", "A");
    sb.write("ws/kb/d.md", "D");
    sb.write("ws/kb/.h.md", "H");
    sb.write("ws/kb/bin.png", b"\x89PNG\0\0data");
    assert_eq!(slugs(&list(&sb, &["t"])), ["a", "bin"]);
    assert_eq!(slugs(&list(&sb, &["t", "--all"])), ["a", "bin", "d", "h"]);
    let v = list(&sb, &["t"]);
    assert!(v[0].get("tokens").is_none(), "tokens only with --tokens");
    let v = list(&sb, &["t", "--tokens"]);
    assert_eq!(v[0]["tokens"], 1);
    assert_eq!(v[1]["binary"], true);
    assert_eq!(v[1]["tokens"], Value::Null);
    assert_eq!(v[1]["bytes"], 10);
}

#[test]
fn unreadable_subject_is_reported_not_fatal() {
    // Running as root makes permission bits moot, so the unreadable case
    // here is a subject whose target vanished (a dangling symlink); the
    // "read fails" path itself is unit-tested in `content.rs`.
    let sb = ws("[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"gone\"]\n");
    sb.write("ws/kb/a.md", "A");
    sb.write("ws/kb/gone.md", "soon gone");
    std::fs::remove_file(sb.ws().join("kb/gone.md")).unwrap();
    std::os::unix::fs::symlink(sb.ws().join("kb/never"), sb.ws().join("kb/gone.md")).unwrap();
    sb.cmd()
        .arg("prompt")
        .assert()
        .success()
        .stderr(predicate::str::contains("broken symlink"));
}

#[test]
fn binary_and_invalid_utf8_are_skipped_with_reason() {
    let sb = ws(T);
    sb.write("ws/kb/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0IHDR");
    sb.write("ws/kb/latin.txt", b"caf\xe9\n");
    sb.cmd()
        .args(["learn", "t", "logo"])
        .assert()
        .success()
        .stdout("[skipped subject \"logo\": binary file (NUL byte in the first 8192 bytes)]\n");
    sb.cmd()
        .args(["learn", "t", "**"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "<subject \"latin\">\n[skipped subject \"latin\": not valid UTF-8]\n</subject>",
        ));
}

#[test]
fn exit_codes_and_errors() {
    let sb = ws("[kb.topic.t]\nsubjects = \"kb\"\ntitle = \"Tee\"\n");
    sb.write("ws/kb/a.md", "A");
    sb.cmd()
        .args(["learn", "x"])
        .assert()
        .code(1)
        .stderr("Unknown topic \"x\". Valid topics:\n- t (Tee)\n");
    sb.cmd()
        .args(["learn", "t", "zzz*", "q"])
        .assert()
        .code(1)
        .stderr("No subject of topic \"t\" matches \"zzz*\", \"q\". Available subjects:\n- a\n");
    sb.cmd().args(["learn"]).assert().code(2);
    sb.cmd().args(["frobnicate"]).assert().code(2);
    sb.cmd()
        .args(["list", "nope"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("valid topics: t"));
}

#[test]
fn schema_absent_when_nothing_is_learnable() {
    let sb = ws("[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"**\"]\n");
    sb.write("ws/kb/a.md", "A");
    sb.cmd()
        .arg("schema")
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("not registered"));
    sb.cmd()
        .args(["--cfg", "kb.topic.t.enable=false", "prompt"])
        .assert()
        .success()
        .stdout("");
}
