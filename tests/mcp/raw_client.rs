#![allow(dead_code)]
//! A raw JSON-RPC client for `jp-kb mcp` as a process: one line per
//! message, every stdout line kept to check it is a protocol message.
//! Shared by the MCP process tests (`#[path]`-included).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::common::{Sandbox, jp_kb_std};

pub const WAIT: Duration = Duration::from_secs(20);

pub struct Server {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    /// Every stdout line, to check they are all protocol messages.
    pub seen: Vec<String>,
}

impl Server {
    pub fn start(sandbox: &Sandbox) -> Self {
        Self::start_with(sandbox, &["mcp".to_owned()])
    }

    pub fn start_with(sandbox: &Sandbox, args: &[String]) -> Self {
        let mut child = jp_kb_std(sandbox.path(), &sandbox.ws())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start jp-kb mcp");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    pub fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(WAIT)
            .expect("a message from the server");
        self.seen.push(line.clone());
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON on stdout: {line:?}: {e}"))
    }

    /// The next message that is a response (skipping notifications; an
    /// error about an unparsable request has no id).
    pub fn response(&mut self) -> Value {
        loop {
            let message = self.next();
            if message.get("method").is_none() {
                return message;
            }
        }
    }

    pub fn request(&mut self, id: u64, method: &str, params: &Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.response();
        assert_eq!(response["id"], json!(id), "{response}");
        response
    }

    pub fn initialize(&mut self) -> Value {
        let result = self.request(
            0,
            "initialize",
            &json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"}
            }),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }

    /// Closes stdin and waits for the exit status; returns stderr.
    pub fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut stderr = String::new();
                std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut stderr)
                    .unwrap();
                for line in self.lines.try_iter() {
                    self.seen.push(line);
                }
                for line in &self.seen {
                    let v: Value = serde_json::from_str(line).expect("stdout is JSON-RPC only");
                    assert_eq!(v["jsonrpc"], "2.0", "{line}");
                }
                return (status.code().unwrap_or(-1), stderr);
            }
            assert!(Instant::now() < deadline, "jp-kb mcp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
