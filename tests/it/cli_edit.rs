#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The editing commands end to end (issue 3): each edit changes the file
//! exactly, and `list --json` / `prompt` reflect it at once.

use super::common;

use common::Sandbox;
use predicates::prelude::*;
use serde_json::Value;

const CONFIG: &str = "# Team knowledge\n[kb.topic.project]\ntitle = \"Project\" # shown to the assistant\nsubjects = \"kb\"\nlearned = [\n  # people\n  \"maintainers/*\",\n]\n";

fn ws() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", CONFIG);
    sb.write("ws/kb/maintainers/jean.md", "Jean");
    sb.write("ws/kb/maintainers/ryan.md", "Ryan");
    sb.write("ws/kb/style.md", "Style");
    sb.write("ws/kb/.secret.md", "Secret");
    sb
}

fn config(sb: &Sandbox) -> String {
    std::fs::read_to_string(sb.ws().join(".jp/config.toml")).unwrap()
}

fn prompt(sb: &Sandbox) -> String {
    String::from_utf8(sb.cmd().arg("prompt").output().unwrap().stdout).unwrap()
}

#[test]
fn learned_add_then_prompt_shows_it_and_rm_restores_bytes() {
    let sb = ws();
    assert!(!prompt(&sb).contains("<subject \"style\">"));
    sb.cmd()
        .args(["learned", "add", "project", "style"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            ".jp/config.toml: added `style` to kb.topic.project.learned",
        ))
        .stdout(predicate::str::contains(
            "now: topic `project` (enabled) has 0 available, 3 learned",
        ));
    assert_eq!(
        config(&sb),
        CONFIG.replace(
            "  \"maintainers/*\",\n",
            "  \"maintainers/*\",\n  \"style\",\n"
        )
    );
    assert!(prompt(&sb).contains("<subject \"style\">\nStyle\n</subject>"));
    let json: Value = serde_json::from_slice(
        &sb.cmd()
            .args(["list", "project", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(json[2]["slug"], "style");
    assert_eq!(json[2]["learned"], true);

    // Adding again changes no byte and says so.
    sb.cmd()
        .args(["learned", "add", "project", "style"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing changed"));
    sb.cmd()
        .args(["learned", "rm", "project", "style"])
        .assert()
        .success();
    assert_eq!(config(&sb), CONFIG);
    assert!(!prompt(&sb).contains("<subject \"style\">"));
}

#[test]
fn unlearning_a_glob_selected_subject_offers_both_fixes() {
    let sb = ws();
    sb.cmd()
        .args(["learned", "rm", "project", "maintainers/jean"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "`maintainers/jean` is learned through the glob `maintainers/*` (.jp/config.toml:7)",
        ))
        .stderr(predicate::str::contains(
            "jp-kb learned rm project 'maintainers/*'",
        ))
        .stderr(predicate::str::contains("--expand"))
        // A refusal prints nothing on stdout: a `now: …` line there read
        // as a change made (issue 37 item 5).
        .stdout(predicate::str::is_empty());
    assert_eq!(config(&sb), CONFIG, "a refused edit writes nothing");
    sb.cmd()
        .args([
            "learned",
            "rm",
            "project",
            "maintainers/jean",
            "--expand",
            "--diff",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "-  \"maintainers/*\",\n+  \"maintainers/ryan\",",
        ));
    assert_eq!(
        config(&sb),
        CONFIG.replace("\"maintainers/*\"", "\"maintainers/ryan\"")
    );
    let p = prompt(&sb);
    assert!(p.contains("<subject \"maintainers/ryan\">"));
    assert!(!p.contains("<subject \"maintainers/jean\">"));
}

#[test]
fn file_option_targets_the_user_workspace_layer() {
    let sb = ws();
    sb.write("ws/.jp/.id", "abc\n");
    let personal = sb.path().join("data/workspace/ws-abc/config.toml");
    sb.cmd()
        .args(["learned", "add", "project", "style", "--file"])
        .arg(&personal)
        .assert()
        .success();
    assert_eq!(config(&sb), CONFIG, "the team's file is untouched");
    assert_eq!(
        std::fs::read_to_string(&personal).unwrap(),
        "[kb.topic.project]\nlearned = [\"style\"]\n"
    );
    assert!(prompt(&sb).contains("<subject \"style\">"));
    // Removing goes to the file that holds the entry.
    sb.cmd()
        .args(["learned", "rm", "project", "style"])
        .assert()
        .success();
    assert_eq!(config(&sb), CONFIG);
    assert!(!prompt(&sb).contains("<subject \"style\">"));
}

#[test]
fn disabled_and_topic_commands() {
    let sb = ws();
    sb.cmd()
        .args(["disabled", "add", "project", "maintainers/ryan"])
        .assert()
        .success();
    assert!(!prompt(&sb).contains("<subject \"maintainers/ryan\">"));
    sb.cmd()
        .args(["disabled", "rm", "project", "maintainers/ryan"])
        .assert()
        .success();
    assert_eq!(config(&sb), CONFIG);

    sb.cmd()
        .args(["topic", "set", "project", "introduction", "All about it"])
        .assert()
        .success();
    assert!(prompt(&sb).contains("- project (**Project**): All about it"));
    sb.cmd()
        .args(["topic", "disable", "project"])
        .assert()
        .success();
    assert_eq!(prompt(&sb), "");
    sb.cmd()
        .args(["topic", "unset", "project", "enable"])
        .assert()
        .success();
    sb.cmd()
        .args(["topic", "unset", "project", "introduction"])
        .assert()
        .success();
    assert_eq!(config(&sb), CONFIG);

    sb.write("ws/skills/a.md", "A");
    sb.cmd()
        .args([
            "topic",
            "add",
            "skills",
            "--subjects",
            "skills",
            "--title",
            "Skills",
        ])
        .assert()
        .success();
    assert!(prompt(&sb).contains("- skills (**Skills**)"));
    sb.cmd()
        .args(["topic", "add", "skills", "--subjects", "skills"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "already exists (declared at .jp/config.toml:",
        ));
    sb.cmd().args(["topic", "rm", "skills"]).assert().success();
    assert_eq!(config(&sb), CONFIG);
}

#[test]
fn malformed_or_mistyped_config_is_never_written() {
    let sb = ws();
    let bad = "[kb.topic.project]\nsubjects = \"kb\"\nlearned = \"style\"\n";
    sb.write("ws/.jp/config.toml", bad);
    sb.cmd()
        .args(["learned", "add", "project", "x"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(".jp/config.toml:3"));
    assert_eq!(config(&sb), bad);
    // A file that does not parse cannot be loaded, so nothing is edited.
    let broken = "[kb.topic.project\nsubjects = \"kb\"\n";
    sb.write("ws/.jp/config.toml", broken);
    sb.cmd()
        .args(["learned", "add", "project", "x"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("config.toml:1:"));
    assert_eq!(config(&sb), broken);
}

#[test]
fn arguments_cannot_be_removed_from_files() {
    let sb = ws();
    sb.cmd()
        .args(["-k", "project/style", "learned", "rm", "project", "style"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("comes from -k project/style"))
        .stdout(predicate::str::is_empty());
    assert_eq!(config(&sb), CONFIG);
}

#[test]
fn init_scaffolds_and_never_overwrites() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.ws()).unwrap();
    sb.cmd().arg("init").assert().success();
    // The `kb` tables go to .jp/kb.toml: JP refuses them in its own files.
    assert!(!sb.ws().join(".jp/config.toml").exists());
    let kb_toml = || std::fs::read_to_string(sb.ws().join(".jp/kb.toml")).unwrap();
    let created = kb_toml();
    assert!(created.contains("[kb.topic.project]"));
    sb.cmd()
        .args(["learn", "project", "conventions"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("# Conventions"));
    sb.cmd()
        .arg("init")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("never overwrites"));
    assert_eq!(kb_toml(), created);
}

#[test]
fn topic_enable_removes_the_line_disable_wrote() {
    let sb = ws();
    sb.cmd()
        .args(["topic", "disable", "project"])
        .assert()
        .success();
    assert!(config(&sb).contains("enable = false"));
    assert_eq!(prompt(&sb), "");
    sb.cmd()
        .args(["topic", "enable", "project"])
        .assert()
        .success();
    // Enabled is the default: the file is as it was, no `enable = true`.
    assert_eq!(config(&sb), CONFIG);
    assert!(prompt(&sb).contains("- project (**Project**)"));
}

#[test]
fn topic_enable_writes_true_when_another_file_disables_the_topic() {
    let sb = ws();
    // A user-global layer disables it; the workspace file must say true.
    sb.write("global/config.toml", "[kb.topic.project]\nenable = false\n");
    assert_eq!(prompt(&sb), "");
    sb.cmd()
        .args(["topic", "enable", "project", "--file", ".jp/config.toml"])
        .assert()
        .success();
    assert!(config(&sb).contains("enable = true"), "{}", config(&sb));
    assert!(prompt(&sb).contains("- project (**Project**)"));
}
