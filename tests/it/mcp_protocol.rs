#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb mcp` as a process, spoken to in raw JSON-RPC lines: malformed
//! input, unknown methods and tools, huge arguments and disconnects give a
//! JSON-RPC error or a clean exit, never a panic; stdout carries only
//! protocol messages; nothing is written.

use super::common;

use super::raw_client;

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};

use common::{Sandbox, fixtures};
use raw_client::{Server, WAIT};

fn workspace() -> Sandbox {
    Sandbox::with_fixture(&fixtures().join("golden").join("rfd-exact"))
}

/// Every path under the sandbox but the user data directory, where the
/// server keeps its usage ledger (contract §9; `tests/mcp_usage.rs`).
fn snapshot(dir: &Path) -> Vec<(String, u64, SystemTime)> {
    let data = dir.join("data");
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| e.path() != data)
        .map(|e| {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            (
                e.path().display().to_string(),
                meta.len(),
                meta.modified().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn bad_input_gets_errors_and_the_server_stays_up() {
    let sandbox = workspace();
    let before = snapshot(sandbox.path());
    let mut server = Server::start(&sandbox);
    let init = server.initialize();
    assert_eq!(init["result"]["serverInfo"]["name"], "jp-kb");

    // Not JSON: ignored, as the official SDKs do (no id to answer).
    server.send_raw(b"garbage{\n\n\xff\xfe\n");
    // JSON, but not a JSON-RPC message: an Invalid Request error.
    server.send_raw(b"{\"foo\": 1}\n");
    let error = server.response();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    server.send_raw(b"[1, 2]\n");
    assert_eq!(server.response()["error"]["code"], -32600);

    let unknown = server.request(1, "kb/forget", &json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let tool = server.request(2, "tools/call", &json!({"name": "forget", "arguments": {}}));
    assert_eq!(tool["error"]["code"], -32602, "{tool}");
    let prompt = server.request(3, "prompts/get", &json!({"name": "nope"}));
    assert_eq!(prompt["error"]["code"], -32602, "{prompt}");
    let resource = server.request(4, "resources/read", &json!({"uri": "kb://project/../x"}));
    assert_eq!(resource["error"]["code"], -32002, "{resource}");

    // Huge arguments: a tool error naming the limit, never an echo of them.
    let topic = "x".repeat(4 * 1024 * 1024);
    let huge = server.request(
        5,
        "tools/call",
        &json!({"name": "learn", "arguments": {"topic": topic}}),
    );
    assert_eq!(
        huge["result"]["isError"],
        true,
        "{}",
        &huge.to_string()[..200]
    );
    assert!(huge.to_string().len() < 1000);
    let many: Vec<String> = (0..200_000).map(|i| format!("p{i}")).collect();
    let huge = server.request(
        6,
        "tools/call",
        &json!({"name": "learn", "arguments": {"topic": "project", "subjects": many}}),
    );
    assert_eq!(huge["result"]["isError"], true);
    // A line over the transport's 16 MiB limit is dropped; the next works.
    let mut line = vec![b'x'; 17 * 1024 * 1024];
    line.push(b'\n');
    server.send_raw(&line);
    let call = server.request(
        7,
        "tools/call",
        &json!({"name": "learn", "arguments": {"topic": "project"}}),
    );
    assert_eq!(call["result"]["isError"], false, "{call}");

    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        snapshot(sandbox.path()),
        before,
        "jp-kb mcp wrote something"
    );
}

#[test]
fn requests_before_initialize_get_an_error() {
    let sandbox = workspace();
    let mut server = Server::start(&sandbox);
    let early = server.request(1, "tools/list", &json!({}));
    assert!(early.get("error").is_some(), "{early}");
    assert_eq!(server.initialize()["result"]["serverInfo"]["name"], "jp-kb");
    let tools = server.request(2, "tools/list", &json!({}));
    assert_eq!(tools["result"]["tools"][0]["name"], "learn");
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_client_that_disconnects_ends_the_server_cleanly() {
    // Before the handshake.
    let sandbox = workspace();
    let server = Server::start(&sandbox);
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // Mid-session, with a request in flight and nobody reading any more.
    let mut server = Server::start(&sandbox);
    server.initialize();
    server.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "resources/list"}));
    let Server {
        mut child,
        stdin,
        lines,
        ..
    } = server;
    drop(lines);
    drop(stdin);
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "jp-kb mcp did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(status.code(), Some(101), "{stderr}");
}

/// The first fenced block after the heading `heading` of the clients'
/// page (`docs/clients.md`).
fn readme_snippet(heading: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/clients.md"))
            .unwrap();
    let after = readme
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/clients.md has no {heading:?}"))
        .1;
    let fence = after.find("\n```").unwrap();
    let body = &after[fence + 4..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_owned()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// A TOML snippet as JSON, to index it like the JSON one.
fn toml_value(text: &str) -> Value {
    let doc: toml_edit::DocumentMut = text.parse().expect("snippet is valid TOML");
    toml_to_json(doc.as_item())
}

fn toml_to_json(item: &toml_edit::Item) -> Value {
    match item {
        toml_edit::Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), toml_to_json(v)))
                .collect(),
        ),
        toml_edit::Item::Value(v) => toml_value_to_json(v),
        _ => Value::Null,
    }
}

fn toml_value_to_json(v: &toml_edit::Value) -> Value {
    match v {
        toml_edit::Value::String(s) => json!(s.value()),
        toml_edit::Value::Boolean(b) => json!(b.value()),
        toml_edit::Value::Integer(i) => json!(i.value()),
        toml_edit::Value::Array(a) => Value::Array(a.iter().map(toml_value_to_json).collect()),
        toml_edit::Value::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), toml_value_to_json(v)))
                .collect(),
        ),
        _ => Value::Null,
    }
}

#[test]
fn readme_snippets_start_a_working_server() {
    let jp = toml_value(&readme_snippet("## JP"));
    let server = &jp["providers"]["mcp"]["kb"];
    assert_eq!(server["type"], "stdio");
    let learn = &jp["conversation"]["tools"]["learn"];
    assert_eq!(learn["enable"], true);
    assert_eq!(learn["source"], "mcp.kb.learn");
    let mut launches = vec![(
        "JP",
        server["command"].as_str().unwrap().to_owned(),
        strings(&server["arguments"]),
    )];

    let claude = readme_snippet("## Claude Code");
    let words: Vec<&str> = claude.split_whitespace().collect();
    assert_eq!(&words[..3], ["claude", "mcp", "add"], "{claude}");
    let dashes = words.iter().position(|w| *w == "--").unwrap();
    assert_eq!(words[dashes - 1], "kb");
    launches.push((
        "Claude Code",
        words[dashes + 1].to_owned(),
        words[dashes + 2..]
            .iter()
            .map(ToString::to_string)
            .collect(),
    ));

    let cursor: Value = serde_json::from_str(&readme_snippet("## Cursor")).expect("valid JSON");
    let server = &cursor["mcpServers"]["kb"];
    launches.push((
        "Cursor",
        server["command"].as_str().unwrap().to_owned(),
        strings(&server["args"]),
    ));

    let codex = toml_value(&readme_snippet("## Codex"));
    let server = &codex["mcp_servers"]["kb"];
    launches.push((
        "Codex",
        server["command"].as_str().unwrap().to_owned(),
        strings(&server["args"]),
    ));

    let sandbox = workspace();
    for (client, command, args) in launches {
        assert_eq!(command, "jp-kb", "{client}");
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("${workspaceFolder}", &sandbox.ws().display().to_string()))
            .collect();
        let mut server = Server::start_with(&sandbox, &args);
        let init = server.initialize();
        assert_eq!(init["result"]["serverInfo"]["name"], "jp-kb", "{client}");
        let tools = server.request(1, "tools/list", &json!({}));
        assert_eq!(tools["result"]["tools"][0]["name"], "learn", "{client}");
        let (code, stderr) = server.finish();
        assert_eq!(code, 0, "{client}: {stderr}");
    }
}
