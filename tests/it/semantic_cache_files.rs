#![cfg(target_os = "linux")]
//! Issue 35, item 3: the saved vectors (`embeddings.bin` in the search
//! cache) as a FIFO or a 3 GiB file. A search by meaning (or hybrid) must
//! neither hang on the FIFO nor read the 3 GiB whole (asserted with an
//! address-space limit below the file's size): the file is named in a
//! note and the vectors are made again.

use super::common::Sandbox;
use super::semantic_search::workspace;
use crate::needs::{Need, require};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const GIB: u64 = 1 << 30;

/// The search process's address space: 2 GiB (the model and its threads
/// fit well within it; the file does not).
const LIMIT_KIB: u64 = 2 << 20;

const QUESTION: &str = "is that computer answering on the network";

fn search(sb: &Sandbox, mode: &str, limit: bool) -> Output {
    let model = require(Need::Model);
    let mut cmd = Command::new("/bin/sh");
    let ulimit = if limit {
        format!("ulimit -v {LIMIT_KIB} && ")
    } else {
        String::new()
    };
    let jp_kb = super::common::jp_kb_std(sb.path(), &sb.ws());
    cmd.arg("-c")
        .arg(format!("{ulimit}exec \"$@\""))
        .arg("sh")
        .arg(jp_kb.get_program())
        .args(["search", "--json", "--model"])
        .arg(model)
        .args(["--mode", mode, QUESTION])
        .current_dir(sb.ws())
        .env_clear()
        .envs(jp_kb.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .env("XDG_CACHE_HOME", sb.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("search --mode {mode} hung: {:?}", child.wait_with_output());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "search --mode {mode}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The first hit that is not hidden.
fn first_hit(out: &Output) -> String {
    let hits: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    hits.iter()
        .find(|h| h["hidden"] == false)
        .and_then(|h| h["slug"].as_str())
        .unwrap_or_default()
        .to_owned()
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

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_fifo_or_a_3_gib_vectors_file_neither_hangs_nor_is_read_whole() {
    let sb = workspace();
    assert_eq!(first_hit(&search(&sb, "semantic", false)), "ping");
    let path = embeddings(&sb);
    assert!(path.is_file(), "no vectors saved at {}", path.display());
    for mode in ["semantic", "hybrid"] {
        mkfifo(&path);
        let out = search(&sb, mode, false);
        assert_eq!(first_hit(&out), "ping", "{mode}");
    }
    for mode in ["semantic", "hybrid"] {
        let _ = std::fs::remove_file(&path);
        std::fs::File::create(&path)
            .and_then(|f| f.set_len(3 * GIB))
            .unwrap();
        let out = search(&sb, mode, true);
        assert_eq!(first_hit(&out), "ping", "{mode}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&path.display().to_string()) && err.contains("3.0 GiB"),
            "{mode}: {err}"
        );
    }
}
