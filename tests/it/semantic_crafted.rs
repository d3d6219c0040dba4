#![allow(clippy::expect_used, clippy::unwrap_used)]
//! A model is input, not code (issue 35.2): a repository may ship the
//! model its `kb.search.model` names, so every crafted model here is an
//! error naming the file and the field, or a search in bounded memory,
//! never an abort nor a panic, in the CLI and the MCP server. Each runs
//! under an address-space limit (`ulimit -v`), so an allocation the model
//! sizes is an abort here, not a slow machine.
//!
//! The models are made by [`Tiny`]: a BERT of 8 dimensions, one layer and
//! a word table of a dozen pieces (no download), then each attack changes
//! one thing.

use std::path::Path;

use serde_json::{Value, json};

use super::common::Sandbox;

/// The address space a search may use here: a real one-off search with
/// all-MiniLM-L6-v2 runs in 512 MiB.
const ADDRESS_SPACE_KIB: u64 = 1 << 20;

/// A small BERT model's files, as values an attack may change.
struct Tiny {
    config: Value,
    tokenizer: Value,
}

const WORDS: [&str; 12] = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "##a", "disk", "space", "host", "ping", "tar", "up",
];

impl Tiny {
    fn new() -> Self {
        let vocab: serde_json::Map<String, Value> = WORDS
            .iter()
            .enumerate()
            .map(|(i, w)| ((*w).to_owned(), json!(i)))
            .collect();
        let special = |id: usize, content: &str| {
            json!({"id": id, "content": content, "single_word": false, "lstrip": false,
                   "rstrip": false, "normalized": false, "special": true})
        };
        Self {
            config: json!({
                "vocab_size": WORDS.len(), "hidden_size": 8, "num_hidden_layers": 1,
                "num_attention_heads": 2, "intermediate_size": 16, "hidden_act": "gelu",
                "max_position_embeddings": 16, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
                "pad_token_id": 0, "model_type": "bert", "hidden_dropout_prob": 0.1,
                "initializer_range": 0.02
            }),
            tokenizer: json!({
                "version": "1.0",
                "truncation": null,
                "padding": null,
                "added_tokens": [special(0, "[PAD]"), special(1, "[UNK]"), special(2, "[CLS]"), special(3, "[SEP]")],
                "normalizer": {"type": "BertNormalizer", "clean_text": true,
                               "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
                "pre_tokenizer": {"type": "BertPreTokenizer"},
                "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
                "decoder": null,
                "model": {"type": "WordPiece", "unk_token": "[UNK]",
                          "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                          "vocab": vocab}
            }),
        }
    }

    /// A count of `config.json`, as a usize (0 when it is not one).
    fn count(&self, field: &str) -> usize {
        self.config[field]
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    }

    /// The encoder's tensors for `config.json` as it is (a crafted count
    /// gets tensors of its size, up to a bound: the file stays small).
    fn tensors(&self) -> Vec<(String, Vec<usize>)> {
        let small = |field: &str| self.count(field).min(1 << 20);
        let (h, i) = (small("hidden_size"), small("intermediate_size"));
        let mut out = vec![
            (
                "embeddings.word_embeddings.weight".to_owned(),
                vec![small("vocab_size"), h],
            ),
            (
                "embeddings.position_embeddings.weight".to_owned(),
                vec![small("max_position_embeddings"), h],
            ),
            (
                "embeddings.token_type_embeddings.weight".to_owned(),
                vec![small("type_vocab_size"), h],
            ),
            ("embeddings.LayerNorm.weight".to_owned(), vec![h]),
            ("embeddings.LayerNorm.bias".to_owned(), vec![h]),
        ];
        for layer in 0..small("num_hidden_layers").min(2) {
            let l = format!("encoder.layer.{layer}");
            for (name, rows, cols) in [
                ("attention.self.query", h, h),
                ("attention.self.key", h, h),
                ("attention.self.value", h, h),
                ("attention.output.dense", h, h),
                ("intermediate.dense", i, h),
                ("output.dense", h, i),
            ] {
                out.push((format!("{l}.{name}.weight"), vec![rows, cols]));
                out.push((format!("{l}.{name}.bias"), vec![rows]));
            }
            for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
                out.push((format!("{l}.{norm}.weight"), vec![h]));
                out.push((format!("{l}.{norm}.bias"), vec![h]));
            }
        }
        out
    }

    /// Writes the model into `dir`: its JSON files, and a safetensors file
    /// of small pseudo-random numbers (layer norms' weights 1).
    fn write(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("config.json"), self.config.to_string()).unwrap();
        std::fs::write(dir.join("tokenizer.json"), self.tokenizer.to_string()).unwrap();
        let mut header = serde_json::Map::new();
        let mut data: Vec<u8> = Vec::new();
        let mut seed = 7u32;
        for (name, shape) in self.tensors() {
            let count: usize = shape.iter().product();
            let start = data.len();
            for _ in 0..count {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let value = if name.ends_with("LayerNorm.weight") {
                    1.0
                } else {
                    f32::from(u16::try_from(seed >> 16 & 0xff).unwrap()) / 1280.0 - 0.1
                };
                data.extend_from_slice(&value.to_le_bytes());
            }
            header.insert(
                name,
                json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]}),
            );
        }
        let header = Value::Object(header).to_string();
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(&data);
        std::fs::write(dir.join("model.safetensors"), bytes).unwrap();
    }
}

/// A workspace of two pages.
fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", "[kb.topic.cli]\nsubjects = \"cli\"\n");
    sb.write("ws/cli/df.md", "# df\n\n> Show disk space.\n");
    sb.write("ws/cli/ping.md", "# ping\n\n> Is a host up.\n");
    sb
}

/// `jp-kb ARGS` in `sb` under the address-space limit: exit code (`None`
/// when killed by a signal, as an abort is) and stderr.
fn limited(sb: &Sandbox, args: &[&str]) -> (Option<i32>, String) {
    let jp_kb = super::common::jp_kb_std(sb.path(), &sb.ws());
    let mut sh = std::process::Command::new("sh");
    sh.env_clear();
    for (key, value) in jp_kb.get_envs() {
        if let Some(value) = value {
            sh.env(key, value);
        }
    }
    let out = sh
        .env("XDG_CACHE_HOME", sb.path().join("cache"))
        .current_dir(sb.ws())
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(jp_kb.get_program())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `jp-kb search --model MODEL QUERY`, with the model made by `craft`.
fn search_with(craft: impl FnOnce(&mut Tiny), query: &str) -> (Option<i32>, String, Sandbox) {
    let sb = workspace();
    let mut model = Tiny::new();
    craft(&mut model);
    let dir = sb.path().join("model");
    model.write(&dir);
    let (code, err) = limited(&sb, &["search", "--model", dir.to_str().unwrap(), query]);
    (code, err, sb)
}

/// The attack is refused: exit 1, an error naming `file` and `field`, no
/// panic, nothing of the value shown.
fn refused(code: Option<i32>, err: &str, file: &str, field: &str) {
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(file) && err.contains(field), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_tiny_model_made_here_searches() {
    let (code, err, _sb) = search_with(|_| {}, "disk space");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_normalizer_that_multiplies_text_is_refused() {
    let step = json!({"type": "Replace", "pattern": {"String": "a"}, "content": "aaaaaaaaaa"});
    let (code, err, _sb) = search_with(
        |m| m.tokenizer["normalizer"] = json!({"type": "Sequence", "normalizers": [step, step, step, step, step, step, step, step]}),
        "a host",
    );
    refused(code, &err, "tokenizer.json", "normalizer");
}

#[test]
fn huge_positions_and_a_huge_heading_search_in_bounded_memory() {
    let sb = workspace();
    let heading = "word ".repeat(60_000);
    sb.write("ws/cli/long.md", format!("# {heading}\n\nbody\n"));
    let mut model = Tiny::new();
    model.config["max_position_embeddings"] = json!(65_536);
    let dir = sb.path().join("model");
    model.write(&dir);
    let (code, err) = limited(
        &sb,
        &["search", "--model", dir.to_str().unwrap(), "disk space"],
    );
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn every_count_out_of_its_limits_is_an_error_naming_config_json_and_the_field() {
    for (field, value) in [
        ("num_hidden_layers", json!(1_000_000_000_000u64)),
        ("num_hidden_layers", json!(1e12)),
        ("hidden_size", json!(0)),
        ("num_attention_heads", json!(0)),
        ("vocab_size", json!(0)),
    ] {
        let (code, err, _sb) = search_with(|m| m.config[field] = value.clone(), "disk");
        refused(code, &err, "config.json", field);
    }
}

#[test]
fn a_wrongly_typed_value_is_named_not_quoted() {
    let hostile = "\u{1b}]0;owned\u{7}\u{202e}evil";
    let (code, err, _sb) = search_with(|m| m.config["intermediate_size"] = json!(hostile), "disk");
    refused(code, &err, "config.json", "intermediate_size");
    assert!(!err.contains("owned") && !err.contains("evil"), "{err}");
}

#[test]
fn the_mcp_search_tool_answers_by_words_and_logs_why_when_the_model_is_crafted() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let sb = workspace();
    let mut model = Tiny::new();
    model.config["num_hidden_layers"] = json!(1_000_000_000_000u64);
    // The person's own fetched model, replaced by a crafted one.
    model.write(&sb.path().join("xdg-data/jp-kb/models/all-minilm-l6-v2"));
    let jp_kb = super::common::jp_kb_std(sb.path(), &sb.ws());
    let mut sh = std::process::Command::new("sh");
    sh.env_clear();
    for (key, value) in jp_kb.get_envs() {
        if let Some(value) = value {
            sh.env(key, value);
        }
    }
    let log = std::fs::File::create(sb.path().join("mcp.log")).unwrap();
    let mut child = sh
        .env("XDG_CACHE_HOME", sb.path().join("cache"))
        .current_dir(sb.ws())
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" mcp --search"
        ))
        .arg(jp_kb.get_program())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let send = |stdin: &mut std::process::ChildStdin, message: Value| {
        stdin.write_all(format!("{message}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}}),
    );
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    for id in 1..=10 {
        send(
            &mut stdin,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "search", "arguments": {"query": "disk"}}}),
        );
        let answer = loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "the server ended");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                break message;
            }
        };
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains("subject \"df\""), "{answer}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let log = std::fs::read_to_string(sb.path().join("mcp.log")).unwrap();
    assert!(
        log.contains("config.json")
            && log.contains("num_hidden_layers")
            && log.contains("searching by words"),
        "{log}"
    );
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn the_tui_searches_by_words_says_why_and_gives_the_terminal_back() {
    use super::tmux_support::{Tmux, binary, shell_quote};
    let tmux = Tmux::start("crafted");
    let root = tmux.path("ws");
    for (rel, text) in [
        (".jp/config.toml", "[kb.topic.cli]\nsubjects = \"cli\"\n"),
        ("cli/df.md", "# df\n\n> Show disk space.\n"),
        ("cli/ping.md", "# ping\n\n> Is a host up.\n"),
    ] {
        std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(rel), text).unwrap();
    }
    let mut model = Tiny::new();
    model.config["num_hidden_layers"] = json!(1_000_000_000_000u64);
    model.write(&tmux.path("data/jp-kb/models/all-minilm-l6-v2"));
    let q = |name: &str| shell_quote(&tmux.path(name));
    tmux.type_line(&format!(
        "cd {} && XDG_CACHE_HOME={} XDG_DATA_HOME={} JP_GLOBAL_CONFIG_DIR={} JP_USER_DATA_DIR={} {} tui; echo EXIT-$?",
        shell_quote(&root),
        q("cache"),
        q("data"),
        q("global"),
        q("user-data"),
        binary()
    ));
    tmux.wait_for("the cli topic", |s| s.contains("Subjects of cli"));
    tmux.literal("S");
    tmux.wait_for("the query line", |s| s.contains("Search:"));
    tmux.literal("disk");
    tmux.wait_for("the hit and why by words alone", |s| {
        s.contains("cli/df") && s.contains("config.json is not a usable")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the search to close", |s| !s.contains("Search:"));
    // The whole message, in the message log.
    tmux.literal("M");
    tmux.wait_for("the field named", |s| s.contains("num_hidden_layers"));
    tmux.send(&["Escape"]);
    tmux.wait_for("the log to close", |s| s.contains("Subjects of cli"));
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    tmux.assert_restored("after a crafted model");
}
