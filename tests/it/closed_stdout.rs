#![allow(clippy::expect_used, clippy::unwrap_used)]
//! A closed stdout (`jp-kb … | head`) ends any command quietly, with the
//! exit code it would have had (issue 24, item 10): no panic, no
//! backtrace, no `error:` line, and an edit is still saved and its
//! client files still synced. Each command runs twice in identical
//! sandboxes: once with stdout a pipe whose reader is already closed,
//! once read in full; exit code and stderr must match.

use super::common;

use std::process::Stdio;

use common::Sandbox;

fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/kb.toml",
        "[kb.topic.t]\ntitle = \"T\"\nintroduction = \"Things.\"\nsubjects = \".jp/kb/t\"\n",
    );
    for name in ["alpha", "beta"] {
        sb.write(
            &format!("ws/.jp/kb/t/{name}.md"),
            format!("# {name}\n\nword {name}\n"),
        );
    }
    // Connected, so that edits sync (and print about) client files.
    let out = sb.cmd().args(["connect", "claude-code"]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    sb
}

struct Run {
    code: Option<i32>,
    stderr: String,
}

fn run(sb: &Sandbox, args: &[&str], closed: bool) -> Run {
    let mut cmd = common::jp_kb_std(sb.path(), &sb.ws());
    cmd.args(args)
        .env("RUST_BACKTRACE", "1")
        .stderr(Stdio::piped());
    if closed {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        cmd.stdout(writer);
    } else {
        cmd.stdout(Stdio::piped());
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `args` with a closed stdout ends as it does with an open one.
fn quietly(args: &[&str]) -> Sandbox {
    let (open, closed) = (sandbox(), sandbox());
    let expected = run(&open, args, false);
    let got = run(&closed, args, true);
    assert!(
        !got.stderr.contains("panicked") && !got.stderr.contains("Broken pipe"),
        "{args:?}: {}",
        got.stderr
    );
    assert_eq!(
        (got.code, &got.stderr),
        (expected.code, &expected.stderr),
        "{args:?} with a closed stdout"
    );
    closed
}

#[test]
fn an_edit_is_saved_synced_and_quiet() {
    let sb = quietly(&["learned", "add", "t", "alpha"]);
    let kb = std::fs::read_to_string(sb.ws().join(".jp/kb.toml")).unwrap();
    assert!(kb.contains("learned = [\"alpha\"]"), "{kb}");
    let memory = std::fs::read_to_string(sb.ws().join(".claude/rules/jp-kb.md")).unwrap();
    assert!(memory.contains("word alpha"), "synced: {memory}");
}

#[test]
fn connect_and_sync_are_quiet() {
    let sb = quietly(&["connect", "codex"]);
    assert!(sb.ws().join(".codex/config.toml").is_file());
    quietly(&["connect", "jp", "--dry-run"]);
    quietly(&["sync"]);
    quietly(&["sync", "--dry-run"]);
}

#[test]
fn every_reading_command_is_quiet() {
    for args in [
        &["list"][..],
        &["list", "t", "--all"],
        &["list", "--json"],
        &["prompt"],
        &["prompt", "--client", "claude-code"],
        &["learn", "t"],
        &["schema"],
        &["search", "word"],
        &["check"],
        &["topic", "add", "u", "--subjects", ".jp/kb/t"],
        &["migrate"],
        &["completions", "bash"],
        &["man"],
        &["--help"],
        &["list", "nope"],
    ] {
        quietly(args);
    }
}
