#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The MCP request handlers (`jp_kb_core::internal::mcp`) without a process: every golden
//! `learn`, `prompt` and `schema` case gives, through the handlers, the same
//! text as the CLI's expected output; resources list and read by the rules;
//! the configuration watch notices changes.

use super::common;

use std::path::{Path, PathBuf};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::config::ConfigWatch;
use jp_kb_core::internal::mcp;
use jp_kb_core::mcp::{Body, ReadError};
use jp_kb_core::{Environment, LoadOptions};
use serde_json::{Map, Value, json};

use common::fixtures;

fn env(cwd: &Path) -> Environment {
    Environment::workspace_only(cwd)
}

fn load(ws: &Path, cfg: &[&str], knowledge: &[&str]) -> KnowledgeBase {
    let options = cfg
        .iter()
        .fold(LoadOptions::default().workspace(ws), |o, c| o.cfg(*c));
    let options = knowledge.iter().fold(options, |o, k| o.knowledge(*k));
    KnowledgeBase::load(&env(ws), &options).expect("fixture loads")
}

fn strings(item: &toml_edit::Item) -> Vec<String> {
    item.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn object(value: &Value) -> Option<&Map<String, Value>> {
    value.as_object()
}

/// The CLI's stdout for a text (the text and one newline; nothing when
/// absent).
fn printed(text: Option<&str>) -> String {
    text.map(|t| format!("{t}\n")).unwrap_or_default()
}

/// Runs every golden case of a suite whose command the MCP server answers
/// and compares the handler's answer with the expected CLI output.
fn golden_suite(name: &str) -> usize {
    let dir = fixtures().join("golden").join(name);
    let manifest = std::fs::read_to_string(dir.join("cases.toml")).unwrap();
    let doc: toml_edit::DocumentMut = manifest.parse().unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in doc["case"].as_array_of_tables().unwrap() {
        let case_name = case["name"].as_str().unwrap();
        let mut args = strings(&case["args"]);
        let cfg = strings(&case["cfg"]);
        let exit = case["exit"].as_integer().unwrap_or(0);
        let mut knowledge = Vec::new();
        while args.first().is_some_and(|a| a == "-k") {
            knowledge.push(args.remove(1));
            args.remove(0);
        }
        let expected =
            std::fs::read_to_string(dir.join("expected").join(format!("{case_name}.out"))).unwrap();
        let cfg: Vec<&str> = cfg.iter().map(String::as_str).collect();
        let knowledge: Vec<&str> = knowledge.iter().map(String::as_str).collect();
        let got = match args.first().map(String::as_str) {
            Some("learn") => {
                let kb = load(&dir, &cfg, &knowledge);
                let mut arguments = json!({ "topic": args[1] });
                if args.len() > 2 {
                    arguments["subjects"] = json!(args[2..]);
                }
                let outcome = mcp::call_learn(&kb, object(&arguments));
                // The CLI prints errors on stderr with exit 1: stdout empty.
                if outcome.is_error() {
                    assert_eq!(exit, 1, "{case_name}: {}", outcome.text());
                    String::new()
                } else {
                    printed(Some(outcome.text()))
                }
            }
            Some("prompt") => {
                let kb = load(&dir, &cfg, &knowledge);
                printed(mcp::knowledge_text(&kb).as_deref())
            }
            Some("schema") => {
                let kb = load(&dir, &cfg, &knowledge);
                let got = mcp::learn_tool(&kb).map(|tool| {
                    let def = json!({
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": Value::Object(tool.input_schema),
                    });
                    serde_json::to_string_pretty(&def).unwrap()
                });
                printed(got.as_deref())
            }
            _ => continue,
        };
        checked += 1;
        if got != expected {
            failures.push(format!(
                "{case_name} {args:?} cfg {cfg:?}:\n--- expected\n{expected}\n--- got\n{got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    checked
}

#[test]
fn golden_cases_through_the_handlers() {
    let n = golden_suite("rfd") + golden_suite("rfd-exact");
    assert!(n > 100, "only {n} cases checked");
}

fn rfd() -> PathBuf {
    fixtures().join("golden").join("rfd")
}

#[test]
fn subjects_may_be_a_string_or_an_array() {
    let kb = load(&rfd(), &[], &[]);
    let as_string = mcp::call_learn(&kb, object(&json!({"topic": "project", "subjects": "**"})));
    let as_array = mcp::call_learn(
        &kb,
        object(&json!({"topic": "project", "subjects": ["**"]})),
    );
    assert_eq!(as_string, as_array);
    assert!(!as_string.is_error());
    let listing = kb.learn("project", None);
    for null in [
        json!({"topic": "project", "subjects": null}),
        json!({"topic": "project", "subjects": []}),
    ] {
        assert_eq!(mcp::call_learn(&kb, object(&null)), listing);
    }
    let bad = mcp::call_learn(&kb, object(&json!({"topic": "project", "subjects": [1]})));
    assert!(bad.is_error());
}

#[test]
fn lists_available_and_learned_subjects_only() {
    let kb = load(
        &rfd(),
        &[
            "kb.topic.project.learned+=internal-notes",
            "kb.topic.project.disabled+=maintainers/ryan",
            "kb.topic.skills.enable=false",
        ],
        &[],
    );
    let listed = mcp::list_resources(&kb);
    let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
    assert!(uris.contains(&"kb://project/code-quality"));
    // Hidden but learned (by exact slug): listed.
    assert!(uris.contains(&"kb://project/internal-notes"));
    // Hidden, not learned: not listed.
    assert!(!uris.contains(&"kb://project/hidden-dir/visible"));
    // Disabled: not listed.
    assert!(!uris.contains(&"kb://project/maintainers/ryan"));
    // Disabled topic: nothing listed.
    assert!(!uris.iter().any(|u| u.starts_with("kb://skills/")));
    // Odd slugs are percent-encoded.
    assert!(uris.contains(&"kb://edge/gnu%5B"), "{uris:?}");
    assert!(uris.contains(&"kb://edge/notes.v2"));

    let learned = listed
        .iter()
        .find(|r| r.uri == "kb://project/internal-notes")
        .unwrap();
    assert_eq!(learned.title, "internal-notes");
    assert_eq!(learned.name, "project/internal-notes");
    assert!(learned.description.contains("learned"));
    let json_file = listed
        .iter()
        .find(|r| r.uri == "kb://formats/data")
        .unwrap();
    assert_eq!(json_file.mime_type, "application/json");
    assert_eq!(json_file.size, 40);

    let mimes: Vec<(&str, &str)> = listed
        .iter()
        .filter(|r| r.uri.starts_with("kb://formats/"))
        .map(|r| (r.title.as_str(), r.mime_type))
        .collect();
    for want in [
        ("README", "text/plain"),
        ("app", "text/javascript"),
        ("ci", "application/yaml"),
        ("compose", "application/yaml"),
        ("config", "application/toml"),
        ("crlf", "text/plain"),
        ("guide", "text/markdown"),
        ("logo", "image/png"),
        ("main", "text/x-rust"),
        ("plain", "text/plain"),
        ("script", "text/x-python"),
        ("types", "text/x-typescript"),
        ("build", "text/x-shellscript"),
    ] {
        assert!(mimes.contains(&want), "{want:?} not in {mimes:?}");
    }
}

#[test]
fn reads_listed_and_hidden_subjects_as_they_are_on_disk() {
    let ws = rfd();
    let kb = load(&ws, &[], &[]);
    for entry in mcp::list_resources(&kb) {
        let read = mcp::read_resource(&kb, &entry.uri).unwrap();
        assert_eq!(read.uri, entry.uri);
        let len = read.body.as_bytes().len();
        assert_eq!(len as u64, entry.size, "{}", entry.uri);
    }
    let dir = ws.join(".jp/kb");
    let text = |uri: &str| {
        let body = mcp::read_resource(&kb, uri).unwrap().body;
        let Some(text) = body.as_text() else {
            panic!("{uri} read as {body:?}, not as text")
        };
        text.to_owned()
    };
    let file = |rel: &str| std::fs::read_to_string(dir.join(rel)).unwrap();
    // Hidden: by exact slug, dotted slug or relative path.
    assert_eq!(
        text("kb://project/internal-notes"),
        file("project/.internal-notes.md")
    );
    assert_eq!(
        text("kb://project/.internal-notes"),
        file("project/.internal-notes.md")
    );
    assert_eq!(
        text("kb://project/hidden-dir/visible"),
        file("project/.hidden-dir/visible.md")
    );
    // Not trimmed, not fenced: the file as it is.
    assert_eq!(text("kb://formats/crlf"), file("formats/crlf.txt"));
    assert_eq!(text("kb://edge/gnu%5B"), file("edge/gnu[.md"));
    // Binary and non-UTF-8 files are blobs.
    let logo = mcp::read_resource(&kb, "kb://formats/logo").unwrap();
    assert_eq!(logo.mime_type, "image/png");
    assert!(matches!(logo.body, Body::Blob(_)));
    let latin1 = mcp::read_resource(&kb, "kb://formats/latin1").unwrap();
    assert_eq!(latin1.mime_type, "application/octet-stream");
    assert_eq!(
        latin1.body,
        Body::Blob(std::fs::read(dir.join("formats/latin1.txt")).unwrap())
    );
}

#[test]
fn never_reads_disabled_or_outside_subjects() {
    let kb = load(
        &rfd(),
        &[
            "kb.topic.project.disabled+=code-quality",
            "kb.topic.skills.enable=false",
        ],
        &[],
    );
    let err = |uri: &str| mcp::read_resource(&kb, uri).expect_err(uri);
    assert!(matches!(
        err("kb://project/code-quality"),
        ReadError::Disabled { .. }
    ));
    assert!(matches!(
        err("kb://project/code-quality.md"),
        ReadError::Disabled { .. }
    ));
    assert!(matches!(
        err("kb://skills/ast-grep"),
        ReadError::UnknownTopic { .. }
    ));
    assert!(matches!(err("kb://nope/x"), ReadError::UnknownTopic { .. }));
    for outside in [
        "kb://project/../skills/ast-grep",
        "kb://project/..%2Fskills%2Fast-grep",
        "kb://project/../../config",
        "kb://project/../../config.toml",
        "kb://project/%2E%2E/%2E%2E/config.toml",
        "kb://project/maintainers/../code-quality",
        "kb://project/*",
        "kb://project/maintainers/*",
    ] {
        let e = err(outside);
        assert!(matches!(e, ReadError::NoSubject { .. }), "{outside}: {e:?}");
        assert!(e.is_not_found());
    }
    for invalid in [
        "file:///etc/passwd",
        "kb://project",
        "kb://project/",
        "kb://p/%zz",
    ] {
        assert!(
            matches!(err(invalid), ReadError::InvalidUri(_)),
            "{invalid}"
        );
    }
}

#[test]
fn never_reads_through_a_symlink_leaving_the_workspace() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "secret").unwrap();
    let ws = tempfile::tempdir().unwrap();
    let ws = ws.path().canonicalize().unwrap();
    std::fs::create_dir_all(ws.join(".jp/kb/t")).unwrap();
    std::fs::write(
        ws.join(".jp/config.toml"),
        "[kb.topic.t]\nsubjects = \".jp/kb/t\"\n",
    )
    .unwrap();
    std::fs::write(ws.join(".jp/kb/t/ok.md"), "ok").unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.md"),
        ws.join(".jp/kb/t/secret.md"),
    )
    .unwrap();
    let kb = load(&ws, &[], &[]);
    let uris: Vec<String> = mcp::list_resources(&kb)
        .into_iter()
        .map(|r| r.uri)
        .collect();
    assert_eq!(uris, ["kb://t/ok"]);
    assert!(matches!(
        mcp::read_resource(&kb, "kb://t/secret"),
        Err(ReadError::NoSubject { .. })
    ));
}

#[test]
fn no_tool_when_nothing_is_learnable() {
    let kb = load(
        &rfd(),
        &[
            "kb.topic.project.enable=false",
            "kb.topic.skills.learned+=**",
            "kb.topic.formats.enable=false",
            "kb.topic.edge.enable=false",
        ],
        &[],
    );
    assert!(mcp::learn_tool(&kb).is_none());
    // The tool still answers when called anyway, as the CLI does.
    assert_eq!(
        mcp::call_learn(&kb, object(&json!({"topic": "skills"}))),
        kb.learn("skills", None)
    );
}

#[test]
fn config_watch_notices_changes_and_new_layers() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().canonicalize().unwrap().join("ws");
    std::fs::create_dir_all(ws.join(".jp/kb/t/sub")).unwrap();
    let config = ws.join(".jp/config.toml");
    std::fs::write(&config, "[kb.topic.t]\nsubjects = \".jp/kb/t\"\n").unwrap();
    let options = LoadOptions::default().workspace(&ws);
    let environment = Environment::workspace_only(ws.join(".jp/kb/t/sub"))
        .with_global_config_dir(dir.path().join("global"))
        .with_user_data_dir(dir.path().join("data"));
    let mut watch = ConfigWatch::new(environment, options);
    assert!(watch.paths().contains(&config));
    assert!(!watch.changed());

    std::fs::write(
        &config,
        "[kb.topic.t]\nsubjects = \".jp/kb/t\"\ntitle = \"T\"\n",
    )
    .unwrap();
    assert!(watch.changed());
    assert!(!watch.changed());

    // A new layer file where none was: a `.jp.toml` below the root.
    std::fs::write(ws.join(".jp/kb/.jp.toml"), "[kb.topic.t]\ntitle = \"U\"\n").unwrap();
    assert!(watch.changed());

    // A user-global config appearing.
    std::fs::create_dir_all(dir.path().join("global")).unwrap();
    std::fs::write(dir.path().join("global/config.toml"), "").unwrap();
    assert!(watch.changed());

    // The workspace id appearing makes the user-workspace layer possible;
    // its config is then watched too.
    std::fs::write(ws.join(".jp/.id"), "abc\n").unwrap();
    assert!(watch.changed());
    let user_ws = dir.path().join("data/workspace/ws-abc/config.toml");
    assert!(watch.paths().contains(&user_ws), "{:?}", watch.paths());
    std::fs::create_dir_all(user_ws.parent().unwrap()).unwrap();
    std::fs::write(&user_ws, "").unwrap();
    assert!(watch.changed());

    // A broken file is still watched, so its fix is noticed.
    std::fs::write(&config, "[kb.topic.t\n").unwrap();
    assert!(watch.changed());
    std::fs::write(&config, "[kb.topic.t]\nsubjects = \".jp/kb/t\"\n").unwrap();
    assert!(watch.changed());
    assert!(!watch.changed());
}

/// Sets a path's modification time a minute back, as if it had been left
/// alone long ago (a walk of it is then kept and reused).
fn age(path: &Path) {
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    std::fs::File::open(path)
        .and_then(|f| f.set_times(std::fs::FileTimes::new().set_modified(past)))
        .unwrap();
}

#[test]
fn a_reused_walk_still_sees_every_change() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().canonicalize().unwrap();
    let topic = ws.join(".jp/kb/t");
    std::fs::create_dir_all(topic.join("sub")).unwrap();
    std::fs::write(
        ws.join(".jp/config.toml"),
        "[kb.topic.t]\nsubjects = \".jp/kb/t\"\n",
    )
    .unwrap();
    std::fs::write(topic.join("a.md"), "A").unwrap();
    std::fs::write(topic.join("sub/b.md"), "B").unwrap();
    age(&topic);
    age(&topic.join("sub"));
    let workspace = mcp::Workspace::new(env(&ws), LoadOptions::default().workspace(&ws));
    let learn = |args: Value| mcp::call_learn(&workspace.load().unwrap(), object(&args));
    let all = json!({"topic": "t", "subjects": "**"});
    assert_eq!(
        learn(all.clone()).text(),
        "<subject \"a\">\nA\n</subject>\n\n<subject \"sub/b\">\nB\n</subject>"
    );
    // Contents are read afresh, sizes taken afresh, even from a reused walk.
    std::fs::write(topic.join("sub/b.md"), "Bee").unwrap();
    assert!(learn(all.clone()).text().contains("Bee"));
    let sizes: Vec<u64> = mcp::list_resources(&workspace.load().unwrap())
        .iter()
        .map(|r| r.size)
        .collect();
    assert_eq!(sizes, [1, 3]);
    // A new file in a subdirectory is seen at once.
    std::fs::write(topic.join("sub/c.md"), "C").unwrap();
    assert!(learn(json!({"topic": "t"})).text().contains("- sub/c"));
    // So is a removed one.
    std::fs::remove_file(topic.join("a.md")).unwrap();
    assert!(!learn(json!({"topic": "t"})).text().contains("- a\n"));
}
