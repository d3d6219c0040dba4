#![allow(clippy::expect_used, clippy::unwrap_used)]
//! What jp-kb says about JP's setup (issue 36 item 6): each file said once,
//! in words that fit it; JP's own `run` for `learn` and its required `run`
//! default said; JP's loads named `JP` in the usage ledger; the README's
//! JP snippet is what `connect jp` writes.

use super::common;
use super::raw_client;

use serde_json::json;

use common::Sandbox;

const KB: &str =
    "[kb.topic.project]\ntitle = \"Project\"\nsubjects = \"kb\"\nlearned = [\"style\"]\n";
const JP_RUN: &str = "[conversation.tools.'*']\nrun = \"ask\"\n";

fn ws(jp_config: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", KB);
    sb.write("ws/.jp/config.toml", jp_config);
    sb.write("ws/.jp/.id", "abcde\n");
    sb.write("ws/kb/style.md", "Use rustfmt.\n");
    sb.write("ws/kb/other.md", "Other.\n");
    sb
}

fn run(sb: &Sandbox, args: &[&str]) -> (bool, String) {
    let out = sb.cmd().args(args).output().unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// A stale generated layer: one KB121 under `--client jp` (the error),
/// not also the plain check's warning about the same file.
#[test]
fn a_stale_file_is_said_once_as_the_clients_error() {
    let sb = ws(JP_RUN);
    assert!(run(&sb, &["connect", "jp"]).0);
    sb.write("ws/kb/style.md", "Use rustfmt and clippy.\n");
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!ok, "{text}");
    assert_eq!(text.matches("KB121").count(), 1, "{text}");
    assert!(text.contains("error"), "{text}");
}

/// jp-kb's entry in a file that is gone is "missing", not "edited by
/// hand".
#[test]
fn a_missing_file_is_called_missing() {
    let sb = ws(JP_RUN);
    assert!(run(&sb, &["connect", "claude-code"]).0);
    std::fs::remove_file(sb.ws().join(".mcp.json")).unwrap();
    let (_, text) = run(&sb, &["check"]);
    assert!(
        text.contains("KB121") && text.contains("is missing"),
        "{text}"
    );
    assert!(!text.contains("by hand"), "{text}");
}

/// A person's own `run = "ask"` for `learn` wins over the generated
/// layer's: `connect` says so instead of promising "unattended", and
/// `check` does not call it an override.
#[test]
fn a_persons_own_run_for_learn_is_said_and_kept() {
    let sb = ws(&format!(
        "{JP_RUN}\n[conversation.tools.learn]\nrun = \"ask\"\n"
    ));
    let (ok, text) = run(&sb, &["connect", "jp"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("JP runs `learn` as `run = \"ask\"` in .jp/config.toml"),
        "{text}"
    );
    assert!(!text.contains("run unattended"), "{text}");
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(ok && !text.contains("KB013"), "{text}");
}

/// JP refuses to start without `[conversation.tools.'*'] run` in some
/// file it loads: `connect` and `check --client jp` say so.
#[test]
fn jps_required_run_default_is_said() {
    let sb = ws("# JP\n");
    let (ok, text) = run(&sb, &["connect", "jp"]);
    assert!(ok, "{text}");
    assert!(text.contains("[conversation.tools.'*']"), "{text}");
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("KB013") && text.contains("JP refuses to start"),
        "{text}"
    );
    // Set in the person's own JP configuration: nothing to say.
    sb.write("global/config.toml", JP_RUN);
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(ok && !text.contains("KB013"), "{text}");
}

/// JP's MCP client names itself after its SDK (`rmcp`); the server JP
/// starts (`--client jp`, what `connect jp` writes) records `JP`.
#[test]
fn jps_loads_are_named_jp_in_the_usage_ledger() {
    let sb = ws(JP_RUN);
    let mut server = raw_client::Server::start_with(
        &sb,
        &["mcp".to_owned(), "--client".to_owned(), "jp".to_owned()],
    );
    server.request(
        0,
        "initialize",
        &json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "rmcp", "version": "1.8.0"}
        }),
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let answer = server.request(
        1,
        "tools/call",
        &json!({"name": "learn", "arguments": {"topic": "project", "subjects": ["other"]}}),
    );
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
    let (ok, text) = run(&sb, &["usage", "project"]);
    assert!(ok, "{text}");
    let other = text.lines().find(|l| l.starts_with("other")).unwrap();
    assert!(other.trim_end().ends_with("JP"), "{text}");
    assert!(!text.contains("rmcp"), "{text}");
}

/// The `## JP` snippet of docs/clients.md (where the README sends a
/// reader) sets the server and the tool as the generated layer does:
/// written by hand, `check --client jp` finds no override in it.
#[test]
fn the_readmes_jp_snippet_is_what_connect_writes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/clients.md")).unwrap();
    let at = readme
        .find("\n## JP\n")
        .expect("docs/clients.md has a `## JP` section with the snippet");
    let block = &readme[at..];
    let open = block.find("```toml\n").unwrap() + "```toml\n".len();
    let snippet = &block[open..open + block[open..].find("```").unwrap()];
    let snippet: toml_edit::DocumentMut = snippet.parse().unwrap();

    let sb = ws(JP_RUN);
    assert!(run(&sb, &["connect", "jp"]).0);
    let layer: toml_edit::DocumentMut =
        std::fs::read_to_string(sb.ws().join(".jp/config.d/jp-kb.toml"))
            .unwrap()
            .parse()
            .unwrap();
    for (table, key) in [
        ("providers.mcp.kb", "type"),
        ("providers.mcp.kb", "command"),
        ("providers.mcp.kb", "arguments"),
        ("conversation.tools.learn", "source"),
        ("conversation.tools.learn", "enable"),
        ("conversation.tools.learn", "run"),
    ] {
        let get = |doc: &toml_edit::DocumentMut| {
            table
                .split('.')
                .try_fold(doc.as_item(), |item, k| item.get(k))
                .and_then(|t| t.get(key))
                .map(|v| v.to_string().trim().to_owned())
        };
        assert_eq!(get(&snippet), get(&layer), "{table}.{key}");
    }
}
