#![cfg(target_os = "linux")]
#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 12, item 10: memory is bounded by design. A 1 GiB subject whose
//! first 9,000 bytes are text (a sparse file: cheap to make) is never read
//! whole: every command runs under a 4 GiB address-space limit, the
//! assistant gets a skip line naming the size and the limit, `check`
//! reports KB116, and `resources/read` refuses a file over its limit.

use super::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use jp_kb_core::internal::content::{MAX_RESOURCE_BYTES, MAX_SUBJECT_BYTES};
use jp_kb_core::internal::mcp;
use jp_kb_core::mcp::ReadError;

const GIB: u64 = 1 << 30;

/// A workspace whose topic `t` learns `huge` (1 GiB, text first) and
/// holds `ok` besides; `u` is the same directory, nothing learned.
fn workspace() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().canonicalize().unwrap().join("ws");
    let topic = ws.join(".jp/kb/t");
    std::fs::create_dir_all(&topic).unwrap();
    std::fs::write(
        ws.join(".jp/config.toml"),
        "[kb.topic.t]\nsubjects = \".jp/kb/t\"\ntitle = \"T\"\nintroduction = \"Read `huge`.\"\nlearned = [\"huge\"]\n\n[kb.topic.u]\nsubjects = \".jp/kb/t\"\ntitle = \"U\"\nintroduction = \"Read `huge`.\"\n",
    )
    .unwrap();
    std::fs::write(topic.join("ok.md"), "fine").unwrap();
    sparse(&topic.join("huge.md"), GIB);
    (tmp, ws)
}

/// A file of `size` bytes: 9,000 bytes of text, then a hole.
fn sparse(path: &Path, size: u64) {
    let line = "all work and no play makes a dull subject\n";
    let text: String = line.repeat(9000 / line.len() + 1);
    std::fs::write(path, &text.as_bytes()[..9000]).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(size))
        .unwrap();
}

/// Runs `jp-kb args` with its address space limited to 4 GiB.
fn run_limited(ws: &Path, args: &[&str]) -> Output {
    run_under(ws, args, 4 * 1024 * 1024)
}

/// Runs `jp-kb args` with its address space limited to `kib` KiB.
fn run_under(ws: &Path, args: &[&str], kib: u64) -> Output {
    let cmd = common::jp_kb_std(&ws.join("../sandbox"), ws);
    let program = cmd.get_program().to_owned();
    let mut limited = std::process::Command::new("/bin/sh");
    limited
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$@\""))
        .arg("sh")
        .arg(program)
        .args(args)
        .current_dir(ws)
        .env_clear()
        .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))));
    let out = limited.output().unwrap();
    assert!(
        out.status.code().is_some(),
        "{args:?} killed by a signal: {out:?}"
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const SKIP_LINE: &str =
    "[skipped subject \"huge\": too large: 1073741824 bytes, above the limit of 4194304 bytes]";

#[test]
fn a_huge_subject_is_never_read_whole() {
    assert_eq!(MAX_SUBJECT_BYTES, 4_194_304);
    let (_tmp, ws) = workspace();

    let prompt = run_limited(&ws, &["prompt"]);
    assert!(prompt.status.success(), "{prompt:?}");
    assert!(stdout(&prompt).contains(SKIP_LINE), "{}", stdout(&prompt));

    let learn = run_limited(&ws, &["learn", "u", "huge"]);
    assert!(learn.status.success(), "{learn:?}");
    assert!(stdout(&learn).contains(SKIP_LINE), "{}", stdout(&learn));

    let list = run_limited(&ws, &["list", "t", "--tokens"]);
    assert!(list.status.success(), "{list:?}");
    let table = stdout(&list);
    let row = table.lines().find(|l| l.contains("huge")).unwrap();
    assert!(
        row.contains("skipped") && row.contains("too large: 1073741824 bytes"),
        "{table}"
    );

    let check = run_limited(&ws, &["check", "--json"]);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    let findings: Vec<serde_json::Value> = stdout(&check)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let kb116: Vec<&serde_json::Value> = findings.iter().filter(|f| f["code"] == "KB116").collect();
    assert_eq!(kb116.len(), 2, "one per topic: {findings:#?}");
    assert_eq!(kb116[0]["subject"], "huge");
    let message = kb116[0]["message"].as_str().unwrap();
    assert!(message.contains("1073741824 bytes"), "{message}");
}

#[test]
fn a_resource_over_its_limit_is_refused_naming_the_limit() {
    let (_tmp, ws) = workspace();
    let topic = ws.join(".jp/kb/t");
    sparse(&topic.join("big.md"), MAX_RESOURCE_BYTES + 1);
    sparse(&topic.join("fits.md"), MAX_RESOURCE_BYTES);
    let kb = common::load_kb(&ws);
    for (uri, bytes) in [("kb://t/big", MAX_RESOURCE_BYTES + 1), ("kb://t/huge", GIB)] {
        let err = mcp::read_resource(&kb, uri).unwrap_err();
        assert!(
            matches!(err, ReadError::TooLarge { bytes: b, limit, .. } if b == bytes && limit == MAX_RESOURCE_BYTES),
            "{err:?}"
        );
        assert!(err.to_string().contains("limit of 16777216 bytes"), "{err}");
    }
    // At the limit: served.
    assert!(mcp::read_resource(&kb, "kb://t/fits").is_ok());
}

#[test]
fn a_50_mb_line_is_listed_with_tokens_in_under_600_mb() {
    let (_tmp, ws) = workspace();
    let topic = ws.join(".jp/kb/t");
    std::fs::remove_file(topic.join("huge.md")).unwrap();
    std::fs::write(topic.join("line.md"), "a".repeat(50_000_000)).unwrap();
    // The address space bounds the resident set: 600 MiB of it.
    let list = run_under(&ws, &["list", "t", "--tokens", "--json"], 600 * 1024);
    assert!(list.status.success(), "{list:?}");
    let rows: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let line = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["slug"] == "line")
        .unwrap();
    assert_eq!(line["tokens"], serde_json::Value::Null, "{line}");
    assert_eq!(line["binary"], false);
}
