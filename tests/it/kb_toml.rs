#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `kb.toml` beside JP's files (issue 15 part 1, contract §2 and §7): read
//! as part of its directory's layer, where new topics and `init` go, and
//! never a file that hides a JSON/YAML layer (issue 12 item 7).

use super::common;

use common::Sandbox;
use predicates::prelude::*;

fn read(sb: &Sandbox, rel: &str) -> String {
    std::fs::read_to_string(sb.path().join(rel)).unwrap()
}

fn prompt(sb: &Sandbox) -> String {
    String::from_utf8(sb.cmd().arg("prompt").output().unwrap().stdout).unwrap()
}

#[test]
fn kb_toml_is_read_after_the_config_file_of_each_directory() {
    let sb = Sandbox::new();
    sb.write("ws/.jp/.id", "abc\n");
    sb.write("ws/kb/a.md", "A");
    sb.write("ws/kb/b.md", "B");
    // Workspace: config.yaml sets the topic, kb.toml (same layer) wins.
    sb.write(
        "ws/.jp/config.yaml",
        "kb:\n  topic:\n    p:\n      subjects: kb\n      title: From YAML\n",
    );
    sb.write("ws/.jp/kb.toml", "[kb.topic.p]\ntitle = \"From kb.toml\"\n");
    // User-global kb.json and user-workspace kb.toml add their parts.
    sb.write(
        "global/kb.json",
        r#"{"kb": {"topic": {"p": {"introduction": "global intro"}}}}"#,
    );
    sb.write(
        "data/workspace/ws-abc/kb.toml",
        "[kb.topic.p]\nlearned = [\"a\"]\n",
    );
    let out = prompt(&sb);
    assert!(out.contains("<topic \"From kb.toml\">"), "{out}");
    assert!(out.contains("<subject \"a\">\nA\n</subject>"), "{out}");
    assert!(
        out.contains("- p (**From kb.toml**): global intro"),
        "{out}"
    );
    // The user-workspace config.toml still wins over the workspace kb.toml.
    sb.write(
        "data/workspace/ws-abc/config.toml",
        "[kb.topic.p]\ntitle = \"Mine\"\n",
    );
    assert!(prompt(&sb).contains("<topic \"Mine\">"));
}

#[test]
fn a_new_topic_goes_to_kb_toml_unless_the_workspace_keeps_topics_elsewhere() {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", "[conversation]\n");
    sb.cmd()
        .args(["topic", "add", "docs", "--subjects", "docs"])
        .assert()
        .success()
        .stdout(predicate::str::contains(".jp/kb.toml: "));
    assert_eq!(read(&sb, "ws/.jp/config.toml"), "[conversation]\n");
    assert!(read(&sb, "ws/.jp/kb.toml").contains("[kb.topic.docs]"));

    // A workspace whose topics are in .jp.toml keeps them there.
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", "");
    sb.write("ws/.jp.toml", "[kb.topic.a]\nsubjects = \"a\"\n");
    sb.cmd()
        .args(["topic", "add", "b", "--subjects", "b"])
        .assert()
        .success();
    assert!(read(&sb, "ws/.jp.toml").contains("[kb.topic.b]"));
    assert!(!sb.ws().join(".jp/kb.toml").exists());
}

/// Issue 12 item 7: before the fix, `learned add` created
/// `.jp/config.toml`, which hid `.jp/config.yaml`: every topic vanished
/// and the command exited 0.
#[test]
fn a_yaml_workspace_is_never_shadowed() {
    let sb = Sandbox::new();
    let yaml = "kb:\n  topic:\n    p:\n      subjects: kb\n";
    sb.write("ws/.jp/config.yaml", yaml);
    sb.write("ws/kb/a.md", "A");
    sb.write("ws/kb/b.md", "B");
    sb.cmd()
        .args(["learned", "add", "p", "a"])
        .assert()
        .success()
        .stdout(predicate::str::contains(".jp/kb.toml: added `a`"));
    assert!(!sb.ws().join(".jp/config.toml").exists());
    assert_eq!(read(&sb, "ws/.jp/config.yaml"), yaml);
    let out = prompt(&sb);
    assert!(out.contains("<subject \"a\">\nA\n</subject>"), "{out}");
    assert!(out.contains("- p"), "the topic is still there: {out}");

    // Naming the shadowing file explicitly is refused too.
    sb.cmd()
        .args(["disabled", "add", "p", "b", "--file", ".jp/config.toml"])
        .current_dir(sb.ws())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("config.yaml").and(predicate::str::contains("--file")));
    assert!(!sb.ws().join(".jp/config.toml").exists());

    // `init` in a YAML workspace adds .jp/kb.toml beside it: both count.
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.yaml", yaml);
    sb.write("ws/kb/a.md", "A");
    sb.cmd().arg("init").assert().success();
    assert!(!sb.ws().join(".jp/config.toml").exists());
    let out = prompt(&sb);
    assert!(out.contains("- p") && out.contains("- project"), "{out}");
}

#[test]
fn kb_yaml_is_never_hidden_by_a_new_kb_toml() {
    let sb = Sandbox::new();
    let yaml = "kb:\n  topic:\n    p:\n      subjects: kb\n";
    sb.write("ws/.jp/kb.yaml", yaml);
    sb.write("ws/kb/a.md", "A");
    for args in [
        &["learned", "add", "p", "a"][..],
        &["topic", "add", "q", "--subjects", "kb"][..],
        &["init"][..],
    ] {
        sb.cmd()
            .args(args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("kb.yaml").and(predicate::str::contains("--file")));
        assert!(!sb.ws().join(".jp/kb.toml").exists(), "{args:?}");
    }
    assert_eq!(read(&sb, "ws/.jp/kb.yaml"), yaml);
}

/// With a JP that has the knowledge base inside, `init` moves what it
/// wrote into `.jp/config.toml`, and only that: the person's own
/// user-global `kb.toml` (topics and a comment) is not `init`'s to move.
#[test]
fn init_for_a_jp_with_the_knowledge_base_inside_moves_only_its_own_file() {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", "# JP's own settings\n");
    // A comment right above a table moves with it; this one is apart.
    let global = "# my notes, kept\n\n[kb.topic.mine]\nsubjects = \"/nowhere\"\n";
    sb.write("global/kb.toml", global);
    let out = sb
        .cmd()
        .env("JP_KB_JP", "inside")
        .arg("init")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!sb.path().join("ws/.jp/kb.toml").exists(), "{said}");
    let config = read(&sb, "ws/.jp/config.toml");
    assert!(config.starts_with("# JP's own settings\n"), "{config}");
    assert!(config.contains("[kb.topic.project]"), "{config}");
    assert_eq!(read(&sb, "global/kb.toml"), global, "{said}");
    assert!(!sb.path().join("global/config.toml").exists(), "{said}");

    // `migrate` is asked to move everything: the global one too. The
    // comment apart from the table stays, and so does its kb.toml.
    let out = sb
        .cmd()
        .env("JP_KB_JP", "inside")
        .arg("migrate")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let left = read(&sb, "global/kb.toml");
    assert!(left.starts_with("# my notes, kept\n"), "{left}");
    assert!(!left.contains("[kb"), "{left}");
    assert!(read(&sb, "global/config.toml").contains("[kb.topic.mine]"));
}
