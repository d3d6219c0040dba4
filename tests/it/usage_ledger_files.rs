#![cfg(target_os = "linux")]
//! Issue 35, item 3: the usage ledger as someone else (or a damaged disk)
//! may leave it — a FIFO, a 3 GiB file of one line, a symbolic link, a
//! file far over the ledger's bound. No command hangs or aborts (memory is
//! asserted with an address-space limit), nothing is written through a
//! link, and a record that cannot be written is said: in the server's log
//! and by `jp-kb usage`.

use super::common::{self, Sandbox, jp_kb_std};

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use jp_kb_core::usage::ledger_path;
use serde_json::{Value, json};

const GIB: u64 = 1 << 30;

/// The address space every command here runs in: 1 GiB, a third of the
/// largest ledger below.
const LIMIT_KIB: u64 = 1 << 20;

fn sandbox() -> Sandbox {
    Sandbox::with_fixture(&common::fixtures().join("golden").join("rfd-exact"))
}

/// The workspace's ledger, its directory made.
fn ledger(sb: &Sandbox) -> PathBuf {
    let path = ledger_path(&sb.path().join("data"), &sb.ws().canonicalize().unwrap());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    path
}

fn mkfifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
}

/// A file of `size` bytes: `head`, then a hole (cheap to make).
fn sparse(path: &Path, head: &str, size: u64) {
    std::fs::write(path, head).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(size))
        .unwrap();
}

/// `cmd` run by a shell that first limits the address space.
fn limited(cmd: &Command) -> Command {
    let mut limited = Command::new("/bin/sh");
    limited
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$@\""))
        .arg("sh")
        .arg(cmd.get_program())
        .args(cmd.get_args())
        .env_clear()
        .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))));
    if let Some(dir) = cmd.get_current_dir() {
        limited.current_dir(dir);
    }
    limited
}

/// Runs `cmd`, failing the test if it takes over 20 s (a hang).
fn run(mut cmd: Command) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait(child)
}

fn wait(mut child: std::process::Child) -> Output {
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!("hung, killed after 20 s: {out:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.code().is_some(), "killed by a signal: {out:?}");
    out
}

fn jp_kb(sb: &Sandbox, args: &[&str]) -> Command {
    let mut cmd = jp_kb_std(sb.path(), &sb.ws());
    cmd.args(args);
    cmd
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One MCP session that calls `learn` once (a record to write) and ends;
/// the server's exit code and its log (stderr).
fn session(mut cmd: Command) -> (i32, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let Ok(value) = serde_json::from_str(&line) else {
                break;
            };
            if tx.send(value).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut send = |message: Value| {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        stdin.write_all(&line).unwrap();
        stdin.flush().unwrap();
    };
    let answer = |id: u64| loop {
        let message = lines
            .recv_timeout(Duration::from_secs(20))
            .expect("an answer from the server");
        if message["id"] == json!(id) {
            return message;
        }
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}
        }}),
    );
    answer(0);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "learn", "arguments": {"topic": "project"}
        }}),
    );
    let learned = answer(1);
    assert!(learned.get("result").is_some(), "{learned}");
    drop(stdin);
    let mut err = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut log = String::new();
        let _ = err.read_to_string(&mut log);
        log
    });
    let out = wait(child);
    (out.status.code().unwrap_or(-1), log.join().unwrap())
}

#[test]
fn a_fifo_ledger_hangs_nothing_and_is_named() {
    let sb = sandbox();
    let path = ledger(&sb);
    mkfifo(&path);
    let out = run(jp_kb(&sb, &["usage"]));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&path.display().to_string()) && err.contains("a named pipe (FIFO)"),
        "{err}"
    );
    let (code, log) = session(jp_kb(&sb, &["mcp"]));
    assert_eq!(code, 0, "{log}");
    assert!(
        log.contains("usage not recorded") && log.contains(&path.display().to_string()),
        "{log}"
    );
}

#[test]
fn a_3_gib_ledger_of_one_line_is_refused_in_bounded_memory() {
    let sb = sandbox();
    let path = ledger(&sb);
    sparse(&path, "", 3 * GIB);
    let out = run(limited(&jp_kb(&sb, &["usage"])));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&path.display().to_string()) && err.contains("3.0 GiB"),
        "{err}"
    );
    // `check` reads the ledger for a hint: never an abort.
    let out = run(limited(&jp_kb(&sb, &["check"])));
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let (code, log) = session(limited(&jp_kb(&sb, &["mcp"])));
    assert_eq!(code, 0, "{log}");
    assert!(
        log.contains("usage not recorded") && log.contains("3.0 GiB"),
        "{log}"
    );
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 3 * GIB);
}

#[test]
fn the_ledger_is_never_written_through_a_link() {
    let sb = sandbox();
    let path = ledger(&sb);
    let elsewhere = sb.write("elsewhere.txt", "untouched\n");
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    let (code, log) = session(jp_kb(&sb, &["mcp"]));
    assert_eq!(code, 0, "{log}");
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "untouched\n");
    assert!(
        log.contains("usage not recorded") && log.contains("symbolic link"),
        "{log}"
    );
    let out = run(jp_kb(&sb, &["usage"]));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("symbolic link"), "{err}");

    // A link to nothing: nothing is made where it leads either.
    std::fs::remove_file(&path).unwrap();
    let made = sb.path().join("made-elsewhere.jsonl");
    std::os::unix::fs::symlink(&made, &path).unwrap();
    let (code, log) = session(jp_kb(&sb, &["mcp"]));
    assert_eq!(code, 0, "{log}");
    assert!(!made.exists(), "{log}");
    assert!(log.contains("usage not recorded"), "{log}");
}

#[test]
fn a_record_the_server_cannot_write_is_said_in_its_log_and_by_usage() {
    let sb = sandbox();
    let path = ledger(&sb);
    // Far over the 64 MiB a ledger may hold: not one jp-kb wrote.
    let record = "{\"t\":1,\"kind\":\"learn\",\"topic\":\"project\",\"slugs\":[\"code-quality\"],\"tokens\":1,\"session\":\"s\",\"client\":\"c\",\"version\":\"1\"}\n";
    sparse(&path, record, 600 << 20);
    let (code, log) = session(limited(&jp_kb(&sb, &["mcp"])));
    assert_eq!(code, 0, "{log}");
    let shown = path.display().to_string();
    assert!(
        log.contains("usage not recorded") && log.contains(&shown) && log.contains("600 MiB"),
        "{log}"
    );
    let out = run(jp_kb(&sb, &["usage"]));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&shown) && err.contains("600 MiB") && err.contains("move it"),
        "{err}"
    );
}
