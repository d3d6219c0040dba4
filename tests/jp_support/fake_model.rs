//! A fake llama.cpp server on 127.0.0.1 for real JP: it answers what JP's
//! `llamacpp` provider asks (`GET /props`, `GET /v1/models`, `POST
//! /v1/chat/completions` streamed as server-sent events), records every
//! chat request JP sends, and scripts the model: while a request carries
//! fewer tool results than the script has calls, it calls the tool whose
//! name ends in `learn` with the next arguments; then it answers text.
//!
//! In-process (a thread per connection) so that a test reads the requests
//! without files and no port is guessed: the listener binds port 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

#[derive(Default)]
struct State {
    /// Every chat request's body, in arrival order.
    requests: Vec<Value>,
    /// The `learn` arguments, one per tool call of a conversation.
    calls: Vec<Value>,
}

/// The fake server; it stops with the test process.
pub struct FakeModel {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

impl FakeModel {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fake model");
        let port = listener.local_addr().expect("its address").port();
        let state = Arc::new(Mutex::new(State {
            calls: vec![json!({"topic": "project"})],
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Self { port, state }
    }

    /// The `learn` calls the model makes in each conversation turn.
    pub fn script(&self, calls: Vec<Value>) {
        self.state.lock().unwrap().calls = calls;
    }

    /// How many chat requests were received so far.
    pub fn count(&self) -> usize {
        self.state.lock().unwrap().requests.len()
    }

    /// The chat requests received after the first `from`.
    pub fn since(&self, from: usize) -> Vec<Value> {
        self.state.lock().unwrap().requests[from..].to_vec()
    }
}

fn serve(stream: TcpStream, state: &Mutex<State>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone the stream"));
    let mut out = stream;
    // Keep-alive: requests follow one another on a connection.
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let path = request_line.split_whitespace().nth(1).unwrap_or("");
        let (kind, reply) = if request_line.starts_with("POST") {
            let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let reply = chat(&body, state);
            state.lock().unwrap().requests.push(body);
            ("text/event-stream", reply)
        } else if path.starts_with("/props") {
            (
                "application/json",
                json!({"default_generation_settings": {"n_ctx": 32768}}).to_string(),
            )
        } else {
            (
                "application/json",
                json!({"object": "list", "data": [{"id": "fake", "object": "model",
                    "owned_by": "llamacpp", "meta": {"n_ctx_train": 32768}}]})
                .to_string(),
            )
        };
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n",
            reply.len()
        );
        if out.write_all(head.as_bytes()).is_err() || out.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

fn chunk(delta: &Value, finish: Option<&str>) -> String {
    let chunk = json!({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0,
        "model": "fake", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {chunk}\n\n")
}

/// The streamed answer to one chat request.
fn chat(body: &Value, state: &Mutex<State>) -> String {
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().or(t["name"].as_str()))
        .collect();
    let learn = tools.iter().find(|n| n.ends_with("learn"));
    let results = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .count();
    let calls = state.lock().unwrap().calls.clone();
    let mut out = String::new();
    if let (Some(name), Some(args)) = (learn, calls.get(results)) {
        let call = json!([{"index": 0, "id": format!("call_{results}"), "type": "function",
            "function": {"name": name, "arguments": ""}}]);
        out += &chunk(
            &json!({"role": "assistant", "content": null, "tool_calls": call}),
            None,
        );
        let args = json!([{"index": 0, "function": {"arguments": args.to_string()}}]);
        out += &chunk(&json!({"tool_calls": args}), None);
        out += &chunk(&json!({}), Some("tool_calls"));
    } else {
        let text = format!("done: saw {results} tool results");
        out += &chunk(&json!({"role": "assistant", "content": text}), None);
        out += &chunk(&json!({}), Some("stop"));
    }
    out += "data: [DONE]\n\n";
    out
}
