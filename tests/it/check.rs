#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb check`: one small workspace per finding, each asserting the exact
//! code, location and exit status; a clean workspace; `--deny-warnings`;
//! and a snapshot of the human output.

use super::common;

use common::{Sandbox, fixtures};
use serde_json::Value;

/// A workspace with one clean topic: `project`, described, one subject.
const CLEAN: &str = "\
[kb.topic.project]
title = \"Project\"
introduction = \"How this project is built.\"
subjects = \".jp/kb/project\"
";

fn workspace(config: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", config);
    sb.write(
        "ws/.jp/kb/project/guide.md",
        "# Guide\n\nRead `style` first.\n",
    );
    sb
}

/// Runs `jp-kb [pre...] check --json [args...]`: the findings and the exit
/// status.
fn check(sb: &Sandbox, pre: &[&str], args: &[&str]) -> (Vec<Value>, i32) {
    let out = sb
        .cmd()
        .args(pre)
        .arg("check")
        .arg("--json")
        .args(args)
        .output()
        .expect("run jp-kb");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let findings = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (findings, out.status.code().unwrap_or(-1))
}

fn codes(findings: &[Value]) -> Vec<&str> {
    findings
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect()
}

/// Where a finding must point.
enum At<'a> {
    /// `file:line:column`.
    Pos(&'a str, u64, u64),
    /// A file without a line (a subject).
    File(&'a str),
    /// No file (a command-line argument, the whole prompt).
    Nowhere,
}

/// Asserts that the check finds exactly one finding, `code`, at `at`, and
/// exits with `exit`.
#[track_caller]
fn assert_only(sb: &Sandbox, pre: &[&str], code: &str, at: &At<'_>, exit: i32) -> Value {
    let (findings, status) = check(sb, pre, &[]);
    assert_eq!(codes(&findings), [code], "{findings:#?}");
    let f = findings.into_iter().next().unwrap();
    let (file, line, column) = match *at {
        At::Pos(file, line, column) => (Value::from(file), Value::from(line), Value::from(column)),
        At::File(file) => (Value::from(file), Value::Null, Value::Null),
        At::Nowhere => (Value::Null, Value::Null, Value::Null),
    };
    assert_eq!(
        (&f["file"], &f["line"], &f["column"]),
        (&file, &line, &column),
        "{f:#}"
    );
    assert_eq!(status, exit, "{f:#}");
    f
}

const CONFIG: &str = ".jp/kb.toml";

// ---------------------------------------------------------------- clean

#[test]
fn clean_workspace_has_no_finding() {
    let sb = workspace(CLEAN);
    let (findings, status) = check(&sb, &[], &["--deny-warnings"]);
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(status, 0);
    let human = sb.cmd().arg("check").output().expect("run");
    assert_eq!(
        String::from_utf8_lossy(&human.stdout),
        "check: no problems found\n"
    );
    assert_eq!(human.status.code(), Some(0));
}

#[test]
fn clean_fixture_is_clean() {
    let sb = Sandbox::with_fixture(&fixtures().join("check").join("clean"));
    let (findings, status) = check(&sb, &[], &["--deny-warnings"]);
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(status, 0);
}

#[test]
fn deny_warnings_fails_on_warnings_only_when_asked() {
    let sb = workspace(&format!("{CLEAN}learnd = []\n"));
    assert_eq!(check(&sb, &[], &[]).1, 0);
    assert_eq!(check(&sb, &[], &["--deny-warnings"]).1, 1);
}

// ---------------------------------------------------------------- errors

#[test]
fn kb001_config_does_not_parse() {
    let sb = workspace("[kb.topic.project\ntitle = \"x\"\n");
    let f = assert_only(&sb, &[], "KB001", &At::Pos(CONFIG, 1, 18), 1);
    assert_eq!(f["severity"], "error");
    assert!(f["message"].as_str().unwrap().starts_with("invalid TOML"));
}

#[test]
fn kb001_json_layer_does_not_parse() {
    let sb = workspace(CLEAN);
    sb.write("ws/.jp.toml", "extends = [\"extra.json\"]\n");
    sb.write("ws/extra.json", "{\n  \"kb\": ,\n}\n");
    assert_only(&sb, &[], "KB001", &At::Pos("extra.json", 2, 9), 1);
}

#[test]
fn kb002_wrong_type() {
    let sb = workspace(&format!("{CLEAN}enable = \"yes\"\n"));
    let f = assert_only(&sb, &[], "KB002", &At::Pos(CONFIG, 5, 10), 1);
    assert!(f["message"].as_str().unwrap().contains("must be a boolean"));
}

#[test]
fn kb002_wrong_item_type() {
    let sb = workspace(&format!("{CLEAN}learned = [\"guide\", 7]\n"));
    assert_only(&sb, &[], "KB002", &At::Pos(CONFIG, 5, 21), 1);
}

#[test]
fn kb002_invalid_strategy() {
    let sb = workspace(&format!(
        "{CLEAN}learned = {{ value = [\"guide\"], strategy = \"merge\" }}\n"
    ));
    assert_only(&sb, &[], "KB002", &At::Pos(CONFIG, 5, 43), 1);
}

#[test]
fn kb002_wrong_type_from_cfg_names_the_argument() {
    let sb = workspace(CLEAN);
    let f = assert_only(
        &sb,
        &["--cfg", "kb.topic.project.learned:=[1]"],
        "KB002",
        &At::Nowhere,
        1,
    );
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains("--cfg kb.topic.project.learned:=[1]"),
        "{message}"
    );
}

#[test]
fn kb003_subjects_missing() {
    let sb = workspace(&format!("{CLEAN}\n[kb.topic.notes]\ntitle = \"Notes\"\n"));
    let f = assert_only(&sb, &[], "KB003", &At::Pos(CONFIG, 6, 11), 1);
    assert_eq!(f["topic"], "notes");
}

#[test]
fn kb003_not_reported_for_disabled_topic() {
    let sb = workspace(&format!(
        "{CLEAN}\n[kb.topic.notes]\ntitle = \"Notes\"\nenable = false\n"
    ));
    assert_eq!(check(&sb, &[], &[]), (vec![], 0));
}

#[test]
fn kb004_subjects_absolute() {
    let sb = workspace(&CLEAN.replace("\".jp/kb/project\"", "\"/etc\""));
    let f = assert_only(&sb, &[], "KB004", &At::Pos(CONFIG, 4, 12), 1);
    assert_eq!(f["topic"], "project");
}

#[test]
fn kb004_subjects_absolute_from_cfg() {
    let sb = workspace(CLEAN);
    let f = assert_only(
        &sb,
        &["--cfg", "kb.topic.project.subjects=/etc"],
        "KB004",
        &At::Nowhere,
        1,
    );
    assert!(f["message"].as_str().unwrap().contains("--cfg"), "{f:#}");
}

#[test]
fn kb005_subjects_escape() {
    let sb = workspace(&CLEAN.replace("\".jp/kb/project\"", "\"../elsewhere\""));
    assert_only(&sb, &[], "KB005", &At::Pos(CONFIG, 4, 12), 1);
}

#[test]
fn kb005_subjects_escape_through_symlink() {
    let sb = workspace(&CLEAN.replace("\".jp/kb/project\"", "\"linked\""));
    sb.write("outside/a.md", "a");
    std::os::unix::fs::symlink(sb.path().join("outside"), sb.ws().join("linked")).unwrap();
    assert_only(&sb, &[], "KB005", &At::Pos(CONFIG, 4, 12), 1);
}

#[test]
fn kb006_subjects_not_found() {
    let sb = workspace(&CLEAN.replace(".jp/kb/project", ".jp/kb/nothing"));
    assert_only(&sb, &[], "KB006", &At::Pos(CONFIG, 4, 12), 1);
}

#[test]
fn kb007_subjects_not_a_directory() {
    let sb = workspace(&CLEAN.replace(".jp/kb/project\"", ".jp/kb/project/guide.md\""));
    assert_only(&sb, &[], "KB007", &At::Pos(CONFIG, 4, 12), 1);
}

#[test]
fn kb008_extends_cycle() {
    let sb = workspace(&format!("extends = [\"a.toml\"]\n{CLEAN}"));
    sb.write("ws/.jp/a.toml", "# a\nextends = [\"kb.toml\"]\n");
    let f = assert_only(&sb, &[], "KB008", &At::Pos(".jp/a.toml", 2, 12), 1);
    assert_eq!(
        f["message"],
        "`extends` cycle: .jp/kb.toml -> .jp/a.toml -> .jp/kb.toml"
    );
}

#[test]
fn kb009_extends_missing() {
    let sb = workspace(&format!("extends = [\n  \"base.toml\",\n]\n{CLEAN}"));
    assert_only(&sb, &[], "KB009", &At::Pos(CONFIG, 2, 3), 1);
}

#[test]
fn kb010_k_names_unknown_topic() {
    let sb = workspace(CLEAN);
    let f = assert_only(&sb, &["-k", "nope/**"], "KB010", &At::Nowhere, 1);
    assert!(f["hint"].as_str().unwrap().contains("project"), "{f:#}");
}

#[test]
fn kb010_valid_k_still_applies() {
    let sb = workspace(CLEAN);
    // The valid `-k` pre-loads `guide`: the topic then has no available
    // subject but one learned, which is fine; only the bad one is reported.
    let (findings, status) = check(&sb, &["-k", "project/guide", "-k", "x/y"], &[]);
    assert_eq!(codes(&findings), ["KB010"]);
    assert_eq!(status, 1);
}

#[test]
fn kb010_cfg_names_unknown_topic() {
    let sb = workspace(CLEAN);
    let f = assert_only(
        &sb,
        &["--cfg", "kb.topic.projet.learned+=guide"],
        "KB010",
        &At::Nowhere,
        1,
    );
    assert_eq!(f["topic"], "projet");
}

#[test]
fn kb011_malformed_arguments() {
    let sb = workspace(CLEAN);
    assert_only(&sb, &["-k", "project"], "KB011", &At::Nowhere, 1);
    assert_only(&sb, &["--cfg", "no-such-config"], "KB011", &At::Nowhere, 1);
}

#[test]
fn kb012_no_workspace() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.ws()).unwrap();
    let f = assert_only(&sb, &[], "KB012", &At::Nowhere, 1);
    // The core's finding names its remedy; the CLI words it as its commands.
    assert_eq!(
        f["hint"],
        "run `jp-kb check` inside a JP workspace, pass --workspace DIR, or create one with `jp-kb init`"
    );
}

// ---------------------------------------------------------------- warnings

#[test]
fn kb101_unknown_key() {
    let sb = workspace(&format!("{CLEAN}learnd = [\"guide\"]\n"));
    let f = assert_only(&sb, &[], "KB101", &At::Pos(CONFIG, 5, 1), 0);
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["topic"], "project");
    assert!(
        f["hint"]
            .as_str()
            .unwrap()
            .contains("did you mean `learned`?")
    );
}

#[test]
fn kb101_unknown_key_in_user_global_layer() {
    let sb = workspace(CLEAN);
    let global = sb.write("global/config.toml", "[kb]\ntopics = {}\n");
    let global = global.canonicalize().unwrap();
    let (findings, status) = check(&sb, &[], &[]);
    assert_eq!(codes(&findings), ["KB101"]);
    // Outside the workspace: the path is absolute.
    assert_eq!(findings[0]["file"], global.to_str().unwrap());
    assert_eq!((findings[0]["line"].clone(), status), (2.into(), 0));
}

#[test]
fn kb102_learned_selects_nothing() {
    let sb = workspace(&format!("{CLEAN}learned = [\"guide\", \"gide\"]\n"));
    let f = assert_only(&sb, &[], "KB102", &At::Pos(CONFIG, 5, 21), 0);
    assert_eq!(f["hint"], "did you mean `guide`?");
}

#[test]
fn kb102_learned_glob_matching_only_hidden_subjects() {
    let sb = workspace(&format!("{CLEAN}learned = [\"sec*\"]\n"));
    sb.write("ws/.jp/kb/project/.secrets.md", "see guide");
    sb.write("ws/.jp/kb/project/guide.md", "secrets");
    let f = assert_only(&sb, &[], "KB102", &At::Pos(CONFIG, 5, 12), 0);
    assert!(f["hint"].as_str().unwrap().contains("`secrets`"), "{f:#}");
}

#[test]
fn kb102_from_k_has_no_file() {
    let sb = workspace(CLEAN);
    let f = assert_only(&sb, &["-k", "project/nothing*"], "KB102", &At::Nowhere, 0);
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("-k project/nothing*")
    );
}

#[test]
fn kb103_disabled_glob_selects_nothing() {
    let sb = workspace(&format!("{CLEAN}disabled = [\"drafts/**\"]\n"));
    assert_only(&sb, &[], "KB103", &At::Pos(CONFIG, 5, 13), 0);
}

#[test]
fn kb104_disabled_entry_is_not_a_slug() {
    let sb = workspace(&format!("{CLEAN}disabled = [\n  \"guid\",\n]\n"));
    sb.write("ws/.jp/kb/project/other.md", "other");
    let f = assert_only(&sb, &[], "KB104", &At::Pos(CONFIG, 6, 3), 0);
    assert_eq!(f["hint"], "did you mean `guide`?");
}

#[test]
fn kb105_learned_and_disabled() {
    let sb = workspace(&format!(
        "{CLEAN}learned = [\"old\"]\ndisabled = [\"old\"]\n"
    ));
    sb.write("ws/.jp/kb/project/old.md", "old");
    let f = assert_only(&sb, &[], "KB105", &At::Pos(CONFIG, 5, 12), 0);
    assert_eq!(f["subject"], "old");
    assert!(f["message"].as_str().unwrap().contains("disabled wins"));
    assert!(f["hint"].as_str().unwrap().contains(".jp/kb.toml:6"));
}

#[test]
fn kb105_not_reported_for_all_but_glob() {
    let sb = workspace(&format!(
        "{CLEAN}learned = [\"**\"]\ndisabled = [\"old\"]\n"
    ));
    sb.write("ws/.jp/kb/project/old.md", "old");
    assert_eq!(check(&sb, &[], &[]), (vec![], 0));
}

#[test]
fn kb106_slug_collision() {
    let sb = workspace(CLEAN);
    sb.write("ws/.jp/kb/project/guide.txt", "the same slug");
    let f = assert_only(&sb, &[], "KB106", &At::File(".jp/kb/project/guide.txt"), 0);
    assert_eq!(f["subject"], "guide");
}

#[test]
fn kb107_binary_subject() {
    let sb = workspace(CLEAN);
    sb.write("ws/.jp/kb/project/logo.png", b"\x89PNG\0\0data");
    let f = assert_only(&sb, &[], "KB107", &At::File(".jp/kb/project/logo.png"), 0);
    assert_eq!(f["subject"], "logo");
}

#[test]
fn kb108_not_utf8_subject() {
    let sb = workspace(CLEAN);
    sb.write("ws/.jp/kb/project/latin1.txt", b"caf\xe9\n");
    assert_only(&sb, &[], "KB108", &At::File(".jp/kb/project/latin1.txt"), 0);
}

#[test]
fn kb109_unreadable_subject() {
    let sb = workspace(CLEAN);
    std::os::unix::fs::symlink(
        sb.ws().join(".jp/kb/project/gone.md"),
        sb.ws().join(".jp/kb/project/broken.md"),
    )
    .unwrap();
    let f = assert_only(&sb, &[], "KB109", &At::File(".jp/kb/project/broken.md"), 0);
    assert_eq!(f["subject"], "broken");
}

#[test]
fn kb110_symlink_leaves_workspace() {
    let sb = workspace(CLEAN);
    sb.write("home/.ssh/id_rsa", "secret");
    std::os::unix::fs::symlink(
        sb.path().join("home/.ssh/id_rsa"),
        sb.ws().join(".jp/kb/project/key.md"),
    )
    .unwrap();
    assert_only(&sb, &[], "KB110", &At::File(".jp/kb/project/key.md"), 0);
}

#[test]
fn kb111_subject_too_large() {
    let sb = workspace(CLEAN);
    sb.write("ws/.jp/kb/project/big.md", "word ".repeat(200));
    let (findings, status) = check(&sb, &[], &["--max-subject-tokens", "100"]);
    assert_eq!(codes(&findings), ["KB111"]);
    assert_eq!(findings[0]["file"], ".jp/kb/project/big.md");
    assert_eq!(findings[0]["subject"], "big");
    assert_eq!(status, 0);
    // Under the default threshold: nothing.
    assert_eq!(check(&sb, &[], &[]), (vec![], 0));
}

#[test]
fn kb112_prompt_too_large() {
    let sb = workspace(&format!("{CLEAN}learned = [\"big\"]\n"));
    sb.write("ws/.jp/kb/project/big.md", "word ".repeat(300));
    let (findings, status) = check(&sb, &[], &["--max-prompt-tokens", "200"]);
    assert_eq!(codes(&findings), ["KB112"]);
    assert_eq!(findings[0]["file"], Value::Null);
    assert!(
        findings[0]["hint"]
            .as_str()
            .unwrap()
            .contains("project/big")
    );
    assert_eq!(status, 0);
    assert_eq!(check(&sb, &[], &[]), (vec![], 0));
}

#[test]
fn kb113_topic_without_title_or_introduction() {
    let sb = workspace("[kb.topic.project]\nsubjects = \".jp/kb/project\"\n");
    assert_only(&sb, &[], "KB113", &At::Pos(CONFIG, 1, 11), 0);
    // A title alone is enough.
    let sb = workspace("[kb.topic.project]\ntitle = \"P\"\nsubjects = \".jp/kb/project\"\n");
    assert_eq!(check(&sb, &[], &[]), (vec![], 0));
}

#[test]
fn kb114_topic_without_available_subject() {
    let sb = workspace(&format!("{CLEAN}disabled = [\"guide\"]\n"));
    let f = assert_only(&sb, &[], "KB114", &At::Pos(CONFIG, 1, 11), 0);
    assert!(f["hint"].as_str().unwrap().contains("disabled"), "{f:#}");
}

#[test]
fn kb114_dotted_key_topic() {
    let sb = workspace(
        "# dotted\nkb.topic.project.title = \"P\"\nkb.topic.project.subjects = \".jp/kb/empty\"\n",
    );
    std::fs::create_dir_all(sb.ws().join(".jp/kb/empty")).unwrap();
    assert_only(&sb, &[], "KB114", &At::Pos(CONFIG, 2, 10), 0);
}

#[test]
fn kb115_hidden_subject_never_mentioned() {
    let sb = workspace(CLEAN);
    sb.write("ws/.jp/kb/project/.internal.md", "internal notes");
    let f = assert_only(
        &sb,
        &[],
        "KB115",
        &At::File(".jp/kb/project/.internal.md"),
        0,
    );
    assert_eq!(f["subject"], "internal");
}

#[test]
fn kb115_hidden_subject_mentioned_is_fine() {
    let sb = workspace(CLEAN);
    // guide.md says "Read `style` first."
    sb.write("ws/.jp/kb/project/.style.md", "style rules");
    assert_eq!(check(&sb, &[], &[]), (vec![], 0));
}

// ---------------------------------------------------------------- human output

fn human(sb: &Sandbox, args: &[&str]) -> (String, i32) {
    let out = sb.cmd().args(args).output().expect("run jp-kb");
    let root = sb.path().canonicalize().unwrap();
    let text = String::from_utf8(out.stdout)
        .unwrap()
        .replace(root.to_str().unwrap(), "[SANDBOX]");
    (text, out.status.code().unwrap_or(-1))
}

#[test]
fn human_output_snapshot() {
    let sb = workspace(
        "\
# The project's knowledge base.
[kb.topic.project]
title = \"Project\"
introduction = \"How this project is built.\"
subjects = \".jp/kb/project\"
learned = [\"guide\", \"maintainers/*\"]
disabled = [\"guid\"]
learnd = []

[kb.topic.tools]
subjects = \"/usr/share/tools\"
",
    );
    sb.write("ws/.jp/kb/project/logo.png", b"\x89PNG\0");
    sb.write("outside.md", "secret");
    std::os::unix::fs::symlink(
        sb.path().join("outside.md"),
        sb.ws().join(".jp/kb/project/outside.md"),
    )
    .unwrap();
    let (text, status) = human(&sb, &["-k", "docs/**", "check"]);
    assert_eq!(status, 1);
    insta::assert_snapshot!(text);
}

#[test]
fn human_output_of_a_fatal_error() {
    let sb = workspace("[kb.topic.project]\nenable = 1\n");
    let (text, status) = human(&sb, &["check"]);
    assert_eq!(status, 1);
    insta::assert_snapshot!(text);
}

#[test]
fn json_is_one_object_per_line_with_the_documented_keys() {
    let sb = workspace(&format!("{CLEAN}learnd = 1\ndisabled = [\"x\"]\n"));
    let out = sb.cmd().args(["check", "--json"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "code", "severity", "message", "file", "line", "column", "topic", "subject", "hint"
            ]
        );
    }
}

#[test]
fn other_commands_still_stop_on_fatal_config_errors() {
    let sb = workspace("[kb.topic.project\n");
    let out = sb.cmd().arg("list").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}
