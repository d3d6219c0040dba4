#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb prompt --client` and `check --client` against the facts recorded
//! running JP and Claude Code for real (`crates/jp-kb-core/assets/clients/*.toml`): golden
//! texts for a plain MCP setup and for the files `jp-kb connect` writes.

use super::common;

use serde_json::{Value, json};

use common::{Sandbox, fixtures};

/// The RFD fixture with a 3,000-character subject learned, so the section
/// is longer than Claude Code's 2,048-character cut.
fn workspace() -> Sandbox {
    let sandbox = Sandbox::with_fixture(&fixtures().join("golden").join("rfd-exact"));
    let long = "All about Zed. ".repeat(200);
    sandbox.write("ws/.jp/kb/project/maintainers/zed.md", &long);
    sandbox
}

fn cmd(sandbox: &Sandbox, args: &[&str]) -> std::process::Output {
    sandbox
        .cmd()
        .args(["--cfg", "kb.topic.project.learned+=maintainers/*"])
        .args(args)
        .output()
        .unwrap()
}

fn section(sandbox: &Sandbox) -> String {
    let out = cmd(sandbox, &["prompt"]);
    let text = String::from_utf8(out.stdout).unwrap();
    text.strip_suffix('\n').unwrap().to_owned()
}

fn arrivals(sandbox: &Sandbox, client: &str) -> Vec<Value> {
    let out = cmd(sandbox, &["prompt", "--client", client, "--json"]);
    assert!(out.status.success(), "{out:?}");
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    value.as_array().unwrap().clone()
}

fn channel<'a>(list: &'a [Value], id: &str) -> Option<&'a Value> {
    list.iter().find(|a| a["channel"] == id)
}

fn kb120(sandbox: &Sandbox, client: &str) -> Vec<Value> {
    let out = cmd(sandbox, &["check", "--json", "--client", client]);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|f| f["code"] == "KB122")
        .collect()
}

const DESCRIPTION: &str = "Learn about knowledge base topics and subjects.\n\nTopics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)";

#[test]
fn claude_code_plain_cuts_the_instructions_at_2048_characters() {
    let sandbox = workspace();
    let full = section(&sandbox);
    assert!(full.chars().count() > 2048);
    let list = arrivals(&sandbox, "claude-code");
    let cut: String = full.chars().take(2048).collect();
    assert_eq!(
        channel(&list, "mcp-instructions"),
        Some(
            &json!({"channel": "mcp-instructions", "text": format!("{cut}… [truncated]"), "cut": true})
        )
    );
    assert_eq!(
        channel(&list, "tool-description"),
        Some(&json!({"channel": "tool-description", "text": DESCRIPTION, "cut": false}))
    );
    let findings = kb120(&sandbox, "claude-code");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        message.contains("topic `skills` in the topic menu"),
        "{message}"
    );
    assert!(message.contains("project/maintainers/zed"), "{message}");
    assert!(!message.contains("project/maintainers/jean"), "{message}");
}

#[test]
fn claude_code_connected_gets_the_section_whole_from_project_memory() {
    let sandbox = workspace();
    let full = section(&sandbox);
    sandbox.write(
        "ws/.mcp.json",
        r#"{"mcpServers": {"kb": {"command": "jp-kb", "args": ["mcp", "--instructions", "none"]}}}"#,
    );
    sandbox.write("ws/.claude/rules/jp-kb.md", format!("{full}\n"));
    let list = arrivals(&sandbox, "claude-code");
    assert_eq!(
        list,
        vec![
            json!({"channel": "project-memory", "text": format!("{full}\n"), "cut": false}),
            json!({"channel": "tool-description", "text": DESCRIPTION, "cut": false}),
        ]
    );
    assert_eq!(kb120(&sandbox, "claude-code"), Vec::<Value>::new());

    // A leading `---` block is stripped as front-matter.
    sandbox.write(
        "ws/.claude/rules/jp-kb.md",
        format!("---\nx: 1\n---\n{full}\n"),
    );
    let list = arrivals(&sandbox, "claude-code");
    assert_eq!(list[0]["cut"], true);
    assert_eq!(list[0]["text"], format!("{full}\n"));

    sandbox.write("ws/.mcp.json", "{\"mcpServers\": {\n");
    let out = cmd(&sandbox, &["prompt", "--client", "claude-code"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(".mcp.json: invalid JSON"), "{stderr}");
    assert!(stderr.contains("line 2"), "{stderr}");
}

#[test]
fn jp_plain_drops_the_instructions_and_cuts_the_description() {
    let sandbox = workspace();
    let list = arrivals(&sandbox, "jp");
    assert_eq!(
        list,
        vec![
            json!({"channel": "mcp-instructions", "text": "", "cut": true}),
            json!({"channel": "tool-description", "text": "Learn about knowledge base topics and subjects.", "cut": true}),
        ]
    );
    let findings = kb120(&sandbox, "jp");
    assert_eq!(findings.len(), 2, "{findings:?}");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("JP drops it")
    );
    assert!(
        findings[1]["message"]
            .as_str()
            .unwrap()
            .contains("tool's topic list")
    );
}

#[test]
fn jp_connected_gets_the_section_as_a_system_prompt_section() {
    let sandbox = workspace();
    let full = section(&sandbox);
    let string = |t: &str| toml_edit::Value::from(t).to_string().trim().to_owned();
    let text = format!(
        "# generated by `jp-kb connect jp`\n[providers.mcp.kb]\ntype = \"stdio\"\ncommand = \"jp-kb\"\narguments = [\"mcp\"]\n\n[conversation.tools.learn]\nsummary = {}\n\n[[assistant.system_prompt_sections]]\ncontent = {}\n",
        string(DESCRIPTION),
        string(&full)
    );
    sandbox.write("ws/.jp/config.d/jp-kb.toml", &text);

    // Not reached by `extends`: JP never loads it.
    let list = arrivals(&sandbox, "jp");
    assert_eq!(list, Vec::<Value>::new());
    let findings = kb120(&sandbox, "jp");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("does not reach it"),
        "{findings:?}"
    );

    let config = sandbox.ws().join(".jp/config.toml");
    let old = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("extends = [\"config.d/**/*\"]\n{old}")).unwrap();
    let list = arrivals(&sandbox, "jp");
    assert_eq!(
        list,
        vec![
            json!({"channel": "system-prompt-section", "text": full, "cut": false}),
            json!({"channel": "mcp-instructions", "text": "", "cut": true}),
            json!({"channel": "tool-description", "text": DESCRIPTION, "cut": false}),
        ]
    );
    assert_eq!(kb120(&sandbox, "jp"), Vec::<Value>::new());
}

#[test]
fn codex_carries_the_instructions_whole_and_menu_mode_is_read() {
    let sandbox = workspace();
    let full = section(&sandbox);
    let list = arrivals(&sandbox, "codex");
    assert_eq!(channel(&list, "mcp-instructions").unwrap()["text"], full);
    sandbox.write(
        "ws/.codex/config.toml",
        "[mcp_servers.kb]\ncommand = \"jp-kb\"\nargs = [\"mcp\", \"--instructions\", \"menu\"]\n",
    );
    let list = arrivals(&sandbox, "codex");
    let menu = channel(&list, "mcp-instructions").unwrap()["text"]
        .as_str()
        .unwrap();
    assert!(menu.starts_with("<knowledge>\nThe following knowledge topics are available"));
    let findings = kb120(&sandbox, "codex");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("pre-loaded subject project/maintainers/jean")
    );
}

#[test]
fn an_unknown_client_is_a_usage_error() {
    let sandbox = workspace();
    let out = cmd(&sandbox, &["prompt", "--client", "cursor"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("claude-code"));
}

#[test]
fn the_text_form_heads_each_channel_with_how_it_arrives() {
    let sandbox = workspace();
    let out = cmd(&sandbox, &["prompt", "--client", "jp"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "==> MCP server instructions (JP main@4c1c39f1): JP drops it: nothing arrives <==\n\
         ==> `learn` tool description (JP main@4c1c39f1): JP sends only the first sentence (47 of 132 characters) <==\n\
         Learn about knowledge base topics and subjects.\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("jp-kb connect jp"), "{stderr}");
    let json_alone = sandbox.cmd().args(["prompt", "--json"]).output().unwrap();
    assert_eq!(json_alone.status.code(), Some(2));
}
