#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The four decisions the CLI and the TUI once took differently, now
//! taken once by the curation planner (`docs/editing.md`, "One planner",
//! issue 13 item 2), seen from the CLI.

use super::common;

use common::Sandbox;
use predicates::prelude::*;

const CONFIG: &str =
    "[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\"style\"]\ndisabled = [\"drafts/*\"]\n";

fn ws() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", CONFIG);
    sb.write("ws/kb/style.md", "Style");
    sb.write("ws/kb/drafts/a.md", "A");
    sb.write("ws/kb/drafts/b.md", "B");
    sb
}

fn config(sb: &Sandbox) -> String {
    std::fs::read_to_string(sb.ws().join(".jp/config.toml")).unwrap()
}

/// Decision 1: enabling one subject that a disabled glob covers asks
/// (remove the glob, or replace it), as un-learning through a glob does;
/// it never silently enables the glob's other subjects.
#[test]
fn un_disabling_through_a_glob_asks_and_expand_keeps_the_others_disabled() {
    let sb = ws();
    sb.cmd()
        .args(["disabled", "rm", "project", "drafts/a"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "`drafts/a` is disabled through the glob `drafts/*` (.jp/config.toml:4)",
        ))
        .stderr(predicate::str::contains(
            "jp-kb disabled rm project 'drafts/*'",
        ))
        .stderr(predicate::str::contains("--expand"));
    assert_eq!(config(&sb), CONFIG, "a question writes nothing");
    sb.cmd()
        .args(["disabled", "rm", "project", "drafts/a", "--expand"])
        .assert()
        .success();
    assert_eq!(
        config(&sb),
        CONFIG.replace("disabled = [\"drafts/*\"]", "disabled = [\"drafts/b\"]")
    );
    // Naming the glob itself removes it.
    sb.cmd()
        .args(["disabled", "rm", "project", "drafts/b"])
        .assert()
        .success();
    assert!(!config(&sb).contains("disabled"), "{}", config(&sb));
}

/// Decision 2: an entry held by a file and by `--cfg` is removed from the
/// file, and the command says the `--cfg` copy still applies.
#[test]
fn an_entry_also_given_by_cfg_is_removed_from_the_file_with_a_note() {
    let sb = ws();
    sb.cmd()
        .args([
            "--cfg",
            "kb.topic.project.learned+=style",
            "learned",
            "rm",
            "project",
            "style",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("`style` also comes from --cfg"));
    assert!(!config(&sb).contains("learned"), "{}", config(&sb));
    // Only from --cfg: refused, nothing written.
    let before = config(&sb);
    sb.cmd()
        .args([
            "--cfg",
            "kb.topic.project.learned+=style",
            "learned",
            "rm",
            "project",
            "style",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "not from a TOML file jp-kb can edit",
        ));
    assert_eq!(config(&sb), before);
}

/// Decision 3: a new topic's id is 1–64 ASCII letters, digits, `-`, `_`,
/// in `topic add` as in the TUI's form.
#[test]
fn topic_add_refuses_an_id_the_assistant_could_not_pass_back() {
    let sb = ws();
    for bad in ["my topic", "a/b", "x.y", "ünï"] {
        sb.cmd()
            .args(["topic", "add", bad, "--subjects", "kb"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("ASCII letters, digits"));
    }
    assert_eq!(config(&sb), CONFIG);
    sb.cmd()
        .args(["topic", "add", "my-topic_2", "--subjects", "kb"])
        .assert()
        .success();
    assert!(config(&sb).contains("[kb.topic.my-topic_2]"));
}

/// Decision 4: a subjects directory that does not exist yet is accepted
/// with a warning; one outside the workspace is refused.
#[test]
fn topic_add_warns_about_a_missing_directory_and_refuses_an_escaping_one() {
    let sb = ws();
    sb.cmd()
        .args(["topic", "add", "later", "--subjects", "later"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "the subjects directory `later` does not exist yet",
        ));
    assert!(config(&sb).contains("[kb.topic.later]"));
    let before = config(&sb);
    for bad in ["../outside", "/etc"] {
        sb.cmd()
            .args(["topic", "add", "out", "--subjects", bad])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("subjects"));
    }
    assert_eq!(config(&sb), before);
}

/// A set of subjects is one intent: one write, one summary line.
#[test]
fn several_entries_are_one_write() {
    let sb = ws();
    sb.cmd()
        .args(["learned", "add", "project", "drafts/a", "style"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("disabled beats learned"));
    assert_eq!(config(&sb), CONFIG, "refused as a whole");
    sb.write("ws/kb/x.md", "X");
    sb.write("ws/kb/y.md", "Y");
    sb.cmd()
        .args(["learned", "add", "project", "x", "y"])
        .assert()
        .success()
        .stdout(predicate::str::contains(".jp/config.toml: ").count(1));
    assert!(config(&sb).contains("learned = [\"style\", \"x\", \"y\"]"));
}

/// Issue 14 item 2 and contract §2: `--file` on a file JP loads that has
/// no `kb` table yet declares the topic there, as asked, and says on
/// stderr that today's JP refuses to start with it and how to move it;
/// a file that JP never loads (`.jp/kb.toml`) gets no such warning.
#[test]
fn writing_the_first_kb_table_into_a_file_jp_loads_warns() {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", CONFIG);
    sb.write("ws/.jp/config.toml", "# JP's own settings\n");
    sb.write("ws/kb/style.md", "Style");
    sb.write("ws/kb/guide.md", "Guide");
    sb.cmd()
        .args([
            "learned",
            "add",
            "project",
            "guide",
            "--file",
            ".jp/config.toml",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "puts a `kb` table into .jp/config.toml, which JP loads: today's JP refuses to start with it (`jp-kb migrate` moves it to a kb.toml)",
        ));
    assert_eq!(
        config(&sb),
        "# JP's own settings\n\n[kb.topic.project]\nlearned = [\"guide\"]\n"
    );
    sb.cmd()
        .args([
            "learned",
            "add",
            "project",
            "guide",
            "--file",
            ".jp/kb.toml",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("JP loads").not());
}

/// Issue 26 item 8: enabling every subject a disabled glob covers offers
/// only the glob's removal, never an `--expand` that would replace it by
/// nothing; `--expand` changes nothing then.
#[test]
fn a_glob_selecting_only_the_named_subjects_offers_no_expand() {
    let sb = ws();
    sb.cmd()
        .args(["disabled", "rm", "project", "drafts/a", "drafts/b"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("The pattern selects nothing else"))
        .stderr(predicate::str::contains(
            "jp-kb disabled rm project 'drafts/*'",
        ))
        .stderr(predicate::str::contains("--expand").not());
    sb.cmd()
        .args([
            "disabled", "rm", "project", "drafts/a", "drafts/b", "--expand",
        ])
        .assert()
        .code(1);
    assert_eq!(config(&sb), CONFIG, "nothing written");
}
