#![allow(clippy::expect_used, clippy::unwrap_used)]
//! What a search by meaning leaves running: nothing. Every command runs as
//! the child of a process that adopts every orphan of its descendants
//! (Linux's `PR_SET_CHILD_SUBREAPER`, from Python's ctypes: the workspace
//! forbids `unsafe`), which lists what is still running once the command
//! has exited. A daemon started by a search (the model server it once
//! started by itself) is adopted and listed, whatever process group or
//! session it made for itself.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use super::common::jp_kb_std;
use super::semantic_search::workspace;
use crate::needs::{Need, require};

/// Runs the command given as arguments with stdin from its own, adopts
/// the orphans, and prints `{"code": …, "left": [command lines]}`.
const REAPER: &str = r"
import ctypes, json, os, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(36, 1, 0, 0, 0) != 0:
    sys.exit('prctl(PR_SET_CHILD_SUBREAPER) failed')
done = subprocess.run(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
left = []
for pid in filter(str.isdigit, os.listdir('/proc')):
    try:
        stat = open('/proc/%s/stat' % pid).read()
        line = open('/proc/%s/cmdline' % pid).read().replace('\0', ' ')
    except OSError:
        continue
    if int(stat.rsplit(')', 1)[1].split()[1]) == os.getpid():
        left.append(line)
print(json.dumps({'code': done.returncode, 'left': left}))
";

/// `jp-kb ARGS` in `sb`'s workspace under [`REAPER`], `input` on its
/// stdin: its exit code and what it left running.
fn run_reaped(sb: &Path, args: &[&str], input: &[u8]) -> (i32, Vec<String>) {
    let jp_kb = jp_kb_std(sb, &sb.join("ws"));
    let mut python = std::process::Command::new("python3");
    python.env_clear();
    for (key, value) in jp_kb.get_envs() {
        if let Some(value) = value {
            python.env(key, value);
        }
    }
    python
        .env("XDG_CACHE_HOME", sb.join("cache"))
        .current_dir(sb.join("ws"))
        .args(["-c", REAPER])
        .arg(jp_kb.get_program())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = python.spawn().expect("python3 runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let left = report["left"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    (
        i32::try_from(report["code"].as_i64().unwrap()).unwrap(),
        left,
    )
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn no_process_outlives_a_search_or_any_command() {
    let model = require(Need::Model);
    let sb = workspace();
    // The fetched default model, as a person has it after `model fetch`.
    super::common::copy_tree(
        &model,
        &sb.path().join("xdg-data/jp-kb/models/all-minilm-l6-v2"),
    );
    let mcp = concat!(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"is that host up"}}}"#,
        "\n",
    );
    let commands: [(&[&str], &str); 8] = [
        // The first builds the embeddings, the next ones use them.
        (&["search", "is that computer answering"], ""),
        (&["search", "is that computer answering"], ""),
        (&["search", "--mode", "semantic", "pack files together"], ""),
        (&["search", "--mode", "lexical", "ping"], ""),
        (&["list"], ""),
        (&["prompt"], ""),
        (&["check"], ""),
        (&["mcp", "--search"], mcp),
    ];
    for (args, input) in commands {
        let (code, left) = run_reaped(sb.path(), args, input.as_bytes());
        assert!(code == 0 || args == ["check"], "{args:?} exited {code}");
        assert!(left.is_empty(), "{args:?} left running: {left:?}");
    }
}
