#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb tui` without a terminal (issue 14, item 7): a message and exit
//! status 1, never a panic and its backtrace (status 101).

use super::common;

use std::process::Stdio;

#[test]
fn tui_without_a_terminal_says_so_and_exits_1() {
    let sandbox = tempfile::tempdir().unwrap();
    // stdin from /dev/null, stdout a pipe: neither is a terminal.
    let out = common::jp_kb_std(sandbox.path(), sandbox.path())
        .args(["tui", "--demo"])
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: `jp-kb tui` needs a terminal, and stdin and stdout are not one"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.stdout.is_empty(), "{:?}", out.stdout);
}
