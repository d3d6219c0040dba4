#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb connect`, `jp-kb sync`, `jp-kb migrate` and the check findings
//! about client files (issue 15 parts 1 and 2, contract §2 and §8). The
//! generated files are compared with `tests/golden/clients/`.

use super::common;

use common::{Sandbox, fixtures};
use predicates::prelude::*;

const KB: &str = "[kb.topic.project]\ntitle = \"Project\"\nintroduction = \"Conventions and people.\"\nsubjects = \"kb\"\nlearned = [\"people/*\"]\n";
const JP_CONFIG: &str = "# JP configuration\n[style]\ncode_blocks = true\n";
const MCP: &str =
    "{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\", \"args\": []}\n  }\n}\n";
const CODEX: &str = "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";

fn ws() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", KB);
    sb.write("ws/kb/people/jean.md", "# Jean\n");
    sb.write("ws/kb/style.md", "Use rustfmt.\n");
    sb.write("ws/kb/.notes.md", "hidden\n");
    sb.write("ws/.jp/config.toml", JP_CONFIG);
    sb.write("ws/.mcp.json", MCP);
    sb.write("ws/.codex/config.toml", CODEX);
    sb
}

fn read(sb: &Sandbox, rel: &str) -> String {
    std::fs::read_to_string(sb.ws().join(rel)).unwrap()
}

fn golden(name: &str, sb: &Sandbox) -> String {
    let text = std::fs::read_to_string(fixtures().join("golden/clients").join(name)).unwrap();
    let root = sb.ws().canonicalize().unwrap();
    text.replace("{ROOT}", &root.display().to_string())
}

fn stdout(sb: &Sandbox, args: &[&str]) -> String {
    let out = sb.cmd().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn connect(sb: &Sandbox, client: &str) {
    sb.cmd().args(["connect", client]).assert().success();
}

#[test]
fn each_client_gets_its_golden_files_and_a_second_connect_changes_nothing() {
    let sb = ws();
    for client in ["jp", "claude-code", "codex"] {
        connect(&sb, client);
    }
    assert_eq!(
        read(&sb, ".jp/config.d/jp-kb.toml"),
        golden("jp-kb.toml", &sb)
    );
    assert_eq!(read(&sb, ".jp/config.toml"), golden("jp-config.toml", &sb));
    assert_eq!(
        read(&sb, ".claude/rules/jp-kb.md"),
        golden("claude-rules-jp-kb.md", &sb)
    );
    assert_eq!(read(&sb, ".mcp.json"), golden("mcp.json", &sb));
    assert_eq!(
        read(&sb, ".codex/config.toml"),
        golden("codex-config.toml", &sb)
    );
    // The person's files keep every byte they had.
    assert!(read(&sb, ".jp/config.toml").ends_with(JP_CONFIG));
    assert!(read(&sb, ".codex/config.toml").starts_with(CODEX));

    // What the clients receive equals jp-kb's own texts exactly.
    let prompt = stdout(&sb, &["prompt"]);
    assert_eq!(read(&sb, ".claude/rules/jp-kb.md"), prompt);
    let layer: toml_edit::DocumentMut = read(&sb, ".jp/config.d/jp-kb.toml").parse().unwrap();
    let section = layer["assistant"]["system_prompt_sections"][0]["content"]
        .as_str()
        .unwrap();
    assert_eq!(format!("{section}\n"), prompt);
    let schema: serde_json::Value = serde_json::from_str(&stdout(&sb, &["schema"])).unwrap();
    assert_eq!(
        layer["conversation"]["tools"]["learn"]["summary"].as_str(),
        schema["description"].as_str()
    );

    for client in ["jp", "claude-code", "codex"] {
        sb.cmd()
            .args(["connect", client])
            .assert()
            .success()
            .stdout(predicate::str::contains("up to date"))
            .stdout(predicate::str::contains("created").not())
            .stdout(predicate::str::contains("updated").not());
    }
    assert_eq!(read(&sb, ".mcp.json"), golden("mcp.json", &sb));
    sb.cmd().args(["sync"]).assert().success();
    assert_eq!(
        read(&sb, ".jp/config.d/jp-kb.toml"),
        golden("jp-kb.toml", &sb)
    );
}

#[test]
fn dry_run_shows_the_diff_and_writes_nothing() {
    let sb = ws();
    sb.cmd()
        .args(["connect", "claude-code", "--dry-run"])
        .assert()
        .success()
        .stdout(predicate::str::contains("+++ b/.claude/rules/jp-kb.md"))
        .stdout(predicate::str::contains("+    \"kb\": {"))
        .stdout(predicate::str::contains("dry run: nothing written"));
    assert!(!sb.ws().join(".claude").exists());
    assert_eq!(read(&sb, ".mcp.json"), MCP);
}

#[test]
fn every_edit_keeps_generated_files_current_but_never_overwrites_a_hand_edit() {
    let sb = ws();
    connect(&sb, "jp");
    connect(&sb, "claude-code");
    sb.cmd()
        .args(["learned", "add", "project", "style"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "synced .jp/config.d/jp-kb.toml (jp)",
        ))
        .stdout(predicate::str::contains(
            "synced .claude/rules/jp-kb.md (claude-code)",
        ));
    let prompt = stdout(&sb, &["prompt"]);
    assert!(prompt.contains("<subject \"style\">"));
    assert_eq!(read(&sb, ".claude/rules/jp-kb.md"), prompt);
    assert!(read(&sb, ".jp/config.d/jp-kb.toml").contains("<subject \"style\">"));
    sb.cmd()
        .args(["check"])
        .assert()
        .stdout(predicate::str::contains("KB121").not());
    // The generated files hold the workspace's configuration: -k does not
    // make them stale.
    sb.cmd()
        .args(["-k", "project/notes", "check"])
        .assert()
        .stdout(predicate::str::contains("KB121").not());

    // A hand edit: the next edit leaves it, check reports it, sync fixes it.
    sb.write("ws/.claude/rules/jp-kb.md", "mine\n");
    sb.cmd()
        .args(["learned", "rm", "project", "style"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            ".claude/rules/jp-kb.md differs from what jp-kb generated",
        ))
        .stdout(predicate::str::contains("synced .jp/config.d/jp-kb.toml"));
    assert_eq!(read(&sb, ".claude/rules/jp-kb.md"), "mine\n");
    sb.cmd().args(["check", "--json"]).assert().stdout(
        predicate::str::contains("\"KB121\"")
            .and(predicate::str::contains(".claude/rules/jp-kb.md")),
    );
    // `connect` does not overwrite it either; only `sync` does.
    sb.cmd()
        .args(["connect", "claude-code"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "left as it is: `jp-kb sync` overwrites it",
        ));
    assert_eq!(read(&sb, ".claude/rules/jp-kb.md"), "mine\n");
    // A subject changed outside jp-kb makes the JP layer stale too.
    sb.write("ws/kb/people/jean.md", "# Jean, maintainer\n");
    sb.cmd()
        .args(["sync"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            ".claude/rules/jp-kb.md: differed from what jp-kb generates",
        ))
        .stdout(predicate::str::contains(
            ".jp/config.d/jp-kb.toml: differed",
        ));
    let prompt = stdout(&sb, &["prompt"]);
    assert_eq!(read(&sb, ".claude/rules/jp-kb.md"), prompt);
    sb.cmd()
        .args(["check"])
        .assert()
        .stdout(predicate::str::contains("KB121").not());
}

#[test]
fn nothing_is_written_from_a_broken_config_or_into_an_invalid_client_file() {
    let sb = ws();
    sb.write("ws/.mcp.json", "{\n  \"mcpServers\": {,\n}\n");
    sb.cmd()
        .args(["connect", "claude-code"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(".mcp.json: line 2")
                .and(predicate::str::contains("not written")),
        );
    assert!(
        !sb.ws().join(".claude").exists(),
        "nothing at all is written"
    );
    assert_eq!(read(&sb, ".mcp.json"), "{\n  \"mcpServers\": {,\n}\n");

    sb.write("ws/.codex/config.toml", "[mcp_servers\n");
    sb.cmd().args(["connect", "codex"]).assert().code(1).stderr(
        predicate::str::contains(".codex/config.toml").and(predicate::str::contains("line 1")),
    );
    assert_eq!(read(&sb, ".codex/config.toml"), "[mcp_servers\n");

    sb.write("ws/.jp/kb.toml", "[kb.topic.project\n");
    sb.cmd().args(["connect", "jp"]).assert().code(1).stderr(
        predicate::str::contains("does not load").and(predicate::str::contains(".jp/kb.toml")),
    );
    assert!(!sb.ws().join(".jp/config.d").exists());
}

#[test]
fn a_yaml_jp_config_is_never_edited_nor_shadowed() {
    let sb = ws();
    std::fs::remove_file(sb.ws().join(".jp/config.toml")).unwrap();
    sb.write("ws/.jp/config.yaml", "style:\n  code_blocks: true\n");
    sb.cmd().args(["connect", "jp"]).assert().code(1).stderr(
        predicate::str::contains("config.yaml")
            .and(predicate::str::contains("config.d/jp-kb.toml")),
    );
    assert!(!sb.ws().join(".jp/config.toml").exists());
    assert!(!sb.ws().join(".jp/config.d").exists());
    sb.write("ws/.jp/config.yaml", "extends: ['config.d/**/*']\n");
    connect(&sb, "jp");
    assert!(!sb.ws().join(".jp/config.toml").exists());
    assert_eq!(
        read(&sb, ".jp/config.d/jp-kb.toml"),
        golden("jp-kb.toml", &sb)
    );
}

#[test]
fn migrate_moves_the_kb_table_byte_for_byte_and_check_stops_warning() {
    let sb = Sandbox::new();
    let table =
        "# the team's topic\n[kb.topic.project]\ntitle = \"Project\" # shown\nsubjects = \"kb\"\n";
    let jp = format!("# JP\n[style]\ncode_blocks = true\n\n{table}");
    sb.write("ws/.jp/config.toml", &jp);
    sb.write("ws/kb/a.md", "A\n");
    let prompt_before = stdout(&sb, &["prompt"]);
    sb.cmd().args(["check", "--json"]).assert().stdout(
        predicate::str::contains("\"KB120\"").and(predicate::str::contains("jp-kb migrate")),
    );
    sb.cmd()
        .args(["migrate", "--dry-run"])
        .assert()
        .success()
        .stdout(predicate::str::contains("+++ b/.jp/kb.toml"));
    assert_eq!(read(&sb, ".jp/config.toml"), jp);
    sb.cmd()
        .args(["migrate"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "from .jp/config.toml to .jp/kb.toml, byte for byte",
        ));
    assert_eq!(
        read(&sb, ".jp/config.toml"),
        "# JP\n[style]\ncode_blocks = true\n\n"
    );
    assert_eq!(read(&sb, ".jp/kb.toml"), table);
    assert_eq!(stdout(&sb, &["prompt"]), prompt_before);
    sb.cmd()
        .args(["check"])
        .assert()
        .stdout(predicate::str::contains("KB120").not());
    sb.cmd()
        .args(["migrate"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing to move"));
}
