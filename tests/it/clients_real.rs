#![allow(clippy::expect_used, clippy::unwrap_used)]
//! jp-kb driven by real, open-source clients nobody here wrote: MCP
//! Inspector's CLI, Codex CLI and fast-agent, installed at pinned versions
//! by `tests/clients/setup.sh`, run offline against a fake model API on
//! 127.0.0.1 (`tests/clients/fake_model.py`) that records every request and
//! scripts one `learn` call. What each model receives must equal
//! `jp-kb prompt --client` / `schema` / `learn`.
//!
//! They need the clients installed first (`bash tests/clients/setup.sh`,
//! which `.ci/run` calls before the test command): without them they are
//! ignored with the reason, and under `CI` they fail (`tests/needs/mod.rs`).

use super::common;
use super::needs;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

use common::{Sandbox, fixtures};
use needs::Need;

fn installed(need: Need, rel: &str) -> PathBuf {
    let path = needs::require(need).join(rel);
    assert!(
        path.exists(),
        "{} is missing: {}",
        path.display(),
        need.reason()
    );
    path
}

fn inspector() -> PathBuf {
    installed(Need::ClientsNode, "node_modules/.bin/mcp-inspector")
}

fn codex() -> PathBuf {
    installed(Need::ClientsNode, "node_modules/.bin/codex")
}

fn fast_agent() -> PathBuf {
    installed(Need::ClientsVenv, "bin/fast-agent")
}

/// The RFD fixture with `maintainers/*` learned and a 3,000-character
/// subject among them: a section longer than Claude Code's cut.
fn workspace() -> Sandbox {
    let sandbox = Sandbox::with_fixture(&fixtures().join("golden").join("rfd-exact"));
    sandbox.write(
        "ws/.jp/kb/project/maintainers/zed.md",
        "All about Zed. ".repeat(200),
    );
    let config = sandbox.ws().join(".jp/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replacen("learned = []", "learned = [\"maintainers/*\"]", 1),
    )
    .unwrap();
    std::fs::create_dir_all(sandbox.path().join("home")).unwrap();
    sandbox
}

/// A client command run in the workspace: an isolated HOME, and `jp-kb` on
/// PATH (the client configurations name it as `connect` writes them).
fn client(sandbox: &Sandbox, program: &Path) -> Command {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_jp-kb")).parent().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    // A hung client must fail the test, not hang CI.
    let mut cmd = Command::new("timeout");
    cmd.arg("180")
        .arg(program)
        .current_dir(sandbox.ws())
        .env_clear()
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("HOME", sandbox.path().join("home"))
        .env("NO_COLOR", "1")
        .env("NO_UPDATE_NOTIFIER", "1")
        .stdin(Stdio::null());
    cmd
}

fn jp_kb(sandbox: &Sandbox, args: &[&str]) -> String {
    let out = sandbox.cmd().args(args).output().unwrap();
    assert!(out.status.success(), "jp-kb {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `jp-kb prompt --client NAME --json`: channel id → text.
fn arrivals(sandbox: &Sandbox, client: &str) -> Vec<(String, String)> {
    let json: Value =
        serde_json::from_str(&jp_kb(sandbox, &["prompt", "--client", client, "--json"])).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["channel"].as_str().unwrap().to_owned(),
                a["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn channel(list: &[(String, String)], id: &str) -> String {
    list.iter()
        .find(|(c, _)| c == id)
        .map_or_else(|| panic!("no {id} in {list:?}"), |(_, t)| t.clone())
}

fn learn_output(sandbox: &Sandbox) -> String {
    let text = jp_kb(sandbox, &["learn", "project"]);
    text.strip_suffix('\n').unwrap().to_owned()
}

fn succeed(mut cmd: Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The fake model API (`tests/clients/fake_model.py`), stopped on drop.
struct FakeModel {
    child: Child,
    log: PathBuf,
    port: u16,
}

impl FakeModel {
    fn start(sandbox: &Sandbox) -> Self {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/fake_model.py");
        let log = sandbox.path().join("requests.jsonl");
        let mut child = Command::new("python3")
            .arg(script)
            .arg(&log)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 for the fake model API");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().expect("the fake model's port");
        Self { child, log, port }
    }

    fn requests(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["body"].clone())
            .collect()
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn inspector_call(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut cmd = client(sandbox, &inspector());
    cmd.arg("--cli").arg("jp-kb").arg("mcp").args(args);
    let out = succeed(cmd, "mcp-inspector --cli");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[cfg_attr(
    lacks = "clients-node",
    ignore = "needs MCP Inspector and Codex CLI (run bash tests/clients/setup.sh, or .ci/run)"
)]
fn mcp_inspector_sees_what_the_cli_prints() {
    needs::require(Need::ClientsNode);
    let sandbox = workspace();
    let schema: Value = serde_json::from_str(&jp_kb(&sandbox, &["schema"])).unwrap();
    let tools = inspector_call(&sandbox, &["--method", "tools/list"]);
    let tool = &tools["tools"][0];
    assert_eq!(tool["name"], "learn");
    assert_eq!(tool["title"], "Learn from the knowledge base");
    assert_eq!(tool["description"], schema["description"]);
    assert_eq!(tool["inputSchema"], schema["parameters"]);
    assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");

    let call = inspector_call(
        &sandbox,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "learn",
            "--tool-arg",
            "topic=project",
            "--tool-arg",
            "subjects=[\"maintainers/*\"]",
        ],
    );
    let want = jp_kb(&sandbox, &["learn", "project", "maintainers/*"]);
    assert_eq!(call["content"][0]["text"], want.strip_suffix('\n').unwrap());
    assert_eq!(call["isError"], false);

    let prompt = inspector_call(
        &sandbox,
        &["--method", "prompts/get", "--prompt-name", "knowledge"],
    );
    let want = jp_kb(&sandbox, &["prompt"]);
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        want.strip_suffix('\n').unwrap()
    );

    // No workspace: the server still starts for a real client (it used
    // to exit 1: "Connection closed") and lists `learn`, whose description
    // says what is wrong and how to fix it (contract §8, degraded start).
    std::fs::remove_dir_all(sandbox.ws().join(".jp")).unwrap();
    let tools = inspector_call(&sandbox, &["--method", "tools/list"]);
    let listed = tools["tools"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "{tools}");
    assert_eq!(listed[0]["name"], "learn");
    let description = listed[0]["description"].as_str().unwrap();
    assert!(
        description.contains("unavailable") && description.contains("no JP workspace found"),
        "{description}"
    );
}

#[test]
#[cfg_attr(
    lacks = "clients-node",
    ignore = "needs MCP Inspector and Codex CLI (run bash tests/clients/setup.sh, or .ci/run)"
)]
fn codex_receives_what_prompt_client_codex_says_and_runs_learn() {
    let codex = codex();
    let sandbox = workspace();
    let model = FakeModel::start(&sandbox);
    // What `jp-kb connect codex` writes.
    sandbox.write(
        "ws/.codex/config.toml",
        "[mcp_servers.kb]\ncommand = \"jp-kb\"\nargs = [\"mcp\"]\n",
    );
    let ws = sandbox.ws().canonicalize().unwrap();
    let home = sandbox.path().join("codex-home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "model = \"fake-model\"\nmodel_provider = \"fake\"\n\n[model_providers.fake]\nname = \"fake\"\nbase_url = \"http://127.0.0.1:{}/v1\"\nwire_api = \"responses\"\n\n[projects.{}]\ntrust_level = \"trusted\"\n",
            model.port,
            toml_edit::Value::from(ws.display().to_string())
        ),
    )
    .unwrap();
    let expected = arrivals(&sandbox, "codex");
    let learned = learn_output(&sandbox);

    // `codex exec` with its default approval policy: nothing else set.
    let mut cmd = client(&sandbox, &codex);
    cmd.env("CODEX_HOME", &home)
        .args(["exec", "--skip-git-repo-check", "Learn about the project"]);
    let out = succeed(cmd, "codex exec");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("requires approval"), "{stdout}");

    let requests = model.requests();
    let namespace = requests[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "namespace" && t["name"] == "mcp__kb")
        .unwrap_or_else(|| panic!("no mcp__kb namespace: {}", requests[0]["tools"]))
        .clone();
    let instructions = channel(&expected, "mcp-instructions");
    assert!(instructions.chars().count() > 2048);
    assert_eq!(namespace["description"], instructions.as_str());
    assert_eq!(namespace["tools"][0]["name"], "learn");
    assert_eq!(
        namespace["tools"][0]["description"],
        channel(&expected, "tool-description").as_str()
    );

    // The scripted call ran, and its result is `jp-kb learn project`.
    let outputs: Vec<&Value> = requests
        .iter()
        .filter_map(|r| r["input"].as_array())
        .flatten()
        .filter(|i| i["type"] == "function_call_output")
        .collect();
    assert!(!outputs.is_empty(), "learn never ran: {stdout}");
    let texts: Vec<&str> = outputs[0]["output"].as_array().map_or_else(
        || outputs[0]["output"].as_str().into_iter().collect(),
        |parts| parts.iter().filter_map(|p| p["text"].as_str()).collect(),
    );
    assert!(texts.contains(&learned.as_str()), "{texts:?}");
}

#[test]
#[cfg_attr(
    lacks = "clients-venv",
    ignore = "needs fast-agent (run bash tests/clients/setup.sh, or .ci/run)"
)]
fn fast_agent_offers_the_tool_and_returns_what_the_cli_prints() {
    let fast_agent = fast_agent();
    let sandbox = workspace();
    let model = FakeModel::start(&sandbox);
    sandbox.write(
        "ws/fastagent.config.yaml",
        format!(
            "default_model: generic.fake-model\nlogger:\n  level: error\n  progress_display: false\n  show_chat: false\n  show_tools: false\ngeneric:\n  api_key: \"none\"\n  base_url: \"http://127.0.0.1:{}/v1\"\nmcp:\n  servers:\n    kb:\n      command: \"jp-kb\"\n      args: [\"mcp\"]\n",
            model.port
        ),
    );
    let schema: Value = serde_json::from_str(&jp_kb(&sandbox, &["schema"])).unwrap();
    let learned = learn_output(&sandbox);
    let mut cmd = client(&sandbox, &fast_agent);
    cmd.args([
        "go",
        "--servers",
        "kb",
        "--message",
        "Learn about the project",
    ]);
    succeed(cmd, "fast-agent go");

    let requests = model.requests();
    let function = &requests[0]["tools"][0]["function"];
    assert_eq!(function["name"], "kb-learn", "{}", requests[0]["tools"]);
    assert_eq!(function["description"], schema["description"]);
    assert_eq!(function["parameters"], schema["parameters"]);
    let tool_message = requests
        .iter()
        .filter_map(|r| r["messages"].as_array())
        .flatten()
        .find(|m| m["role"] == "tool")
        .unwrap_or_else(|| panic!("learn never ran: {requests:?}"));
    assert_eq!(tool_message["content"], learned.as_str());
}
