#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb mcp --search`: the opt-in `search` tool over real JSON-RPC. Without
//! the flag the tool list is exactly the RFD's (`learn` alone); with it,
//! results name topic and slug for `learn`, and hidden and disabled
//! subjects never appear.

use super::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use common::{Sandbox, jp_kb_std};
use serde_json::{Value, json};

pub(super) struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    pub(super) fn start(sb: &Sandbox, args: &[&str]) -> Self {
        let mut child = jp_kb_std(sb.path(), &sb.ws())
            .env("XDG_CACHE_HOME", sb.path().join("cache"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Self {
            child,
            stdin,
            stdout,
        };
        server.request(
            0,
            "initialize",
            &json!({"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "0"}}),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.stdin.write_all(&line).unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, id: u64, method: &str, params: &Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn tool_names(&mut self) -> Vec<String> {
        let list = self.request(1, "tools/list", &json!({}));
        list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }

    /// `(isError, text)` of a `search` call.
    pub(super) fn search(&mut self, arguments: &Value) -> (bool, String) {
        let r = self.request(
            2,
            "tools/call",
            &json!({"name": "search", "arguments": arguments}),
        );
        let result = &r["result"];
        assert!(result.is_object(), "{r}");
        (
            result["isError"].as_bool().unwrap_or(false),
            result["content"][0]["text"].as_str().unwrap().to_owned(),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.notes]\nsubjects = \"notes\"\ndisabled = [\"secret-rsync\"]\n\n\
         [kb.topic.off]\nsubjects = \"off\"\nenable = false\n",
    );
    sb.write(
        "ws/notes/rsync.md",
        "# rsync\n\nCopy files to a remote host.\n",
    );
    sb.write("ws/notes/.hidden-rsync.md", "rsync internals\n");
    sb.write("ws/notes/secret-rsync.md", "rsync password\n");
    sb.write("ws/off/rsync-off.md", "rsync elsewhere\n");
    sb
}

#[test]
fn tool_list_is_the_rfds_without_the_flag() {
    let sb = workspace();
    let mut plain = Server::start(&sb, &["mcp"]);
    assert_eq!(plain.tool_names(), ["learn"]);
    let r = plain.request(
        2,
        "tools/call",
        &json!({"name": "search", "arguments": {"query": "rsync"}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let mut with = Server::start(&sb, &["mcp", "--search"]);
    assert_eq!(with.tool_names(), ["learn", "search"]);
}

#[test]
fn results_name_topic_and_slug_and_hide_hidden_and_disabled() {
    let sb = workspace();
    let mut server = Server::start(&sb, &["mcp", "--search"]);
    let (error, text) = server.search(&json!({"query": "copy rsync remote"}));
    assert!(!error, "{text}");
    assert!(
        text.contains("topic \"notes\", subject \"rsync\""),
        "{text}"
    );
    assert!(text.contains("call `learn`"), "{text}");
    for never in ["hidden-rsync", "secret-rsync", "rsync-off", "\"off\""] {
        assert!(!text.contains(never), "{never} in {text}");
    }
    // The slug it gives is what `learn` takes.
    let r = server.request(
        3,
        "tools/call",
        &json!({"name": "learn", "arguments": {"topic": "notes", "subjects": "rsync"}}),
    );
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Copy files")
    );
    // A file changed while the server runs is searched as it is now.
    sb.write(
        "ws/notes/rsync.md",
        "# rsync\n\nMirror directories with zebra speed.\n",
    );
    let (_, text) = server.search(&json!({"query": "zebra"}));
    assert!(text.contains("subject \"rsync\""), "{text}");
    let (_, text) = server.search(&json!({"query": "internals"}));
    assert!(text.starts_with("No subject matches"), "{text}");
}

#[test]
fn bad_arguments_are_tool_errors() {
    let sb = workspace();
    let mut server = Server::start(&sb, &["mcp", "--search"]);
    for (args, says) in [
        (json!({}), "Missing argument `query`"),
        (json!({"query": ""}), "the query is empty"),
        (json!({"query": "x".repeat(1 << 20)}), "at most 4096"),
        (json!({"query": "*?[]"}), "no letters or digits"),
        (json!({"query": "rsync", "limit": 0}), "from 1 to 50"),
        (
            json!({"query": "rsync", "topic": "off"}),
            "Unknown topic \"off\"",
        ),
        (
            json!({"query": "rsync", "pattern": "x"}),
            "Unknown argument",
        ),
    ] {
        let (error, text) = server.search(&args);
        assert!(error, "{args}: {text}");
        assert!(text.contains(says), "{says}: {text}");
        assert!(text.len() < 2000, "echoes the input: {} bytes", text.len());
    }
}
