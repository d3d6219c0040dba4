#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The usage ledger (contract §9) driven by the official MCP Python SDK,
//! set up as for `tests/mcp_e2e.rs` (`tests/mcp/setup.sh` into
//! `target/mcp-venv`; required, never skipped). `tests/mcp/test_usage.py`
//! says what it checks: reported loads with client name and version, no
//! subject text, mode 0600, outside the workspace; four servers at once
//! losing nothing; answers byte-identical to `jp-kb learn` when the ledger
//! cannot be written; nothing written when usage is off.

use std::path::Path;
use std::process::Command;

#[test]
fn official_python_client_loads_are_recorded_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests").join("mcp");
    let setup = Command::new("bash")
        .arg(dir.join("setup.sh"))
        .status()
        .expect("run tests/mcp/setup.sh (needs bash and Python 3)");
    assert!(setup.success(), "tests/mcp/setup.sh failed: {setup}");
    let venv = std::env::var_os("JP_KB_MCP_VENV")
        .map_or_else(|| root.join("target").join("mcp-venv"), Into::into);
    let out = Command::new(venv.join("bin").join("python"))
        .arg(dir.join("test_usage.py"))
        .arg(env!("CARGO_BIN_EXE_jp-kb"))
        .current_dir(&dir)
        .output()
        .expect("run the Python usage test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "test_usage.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.starts_with("mcp usage: ok ("),
        "unexpected summary {summary:?}\n{stdout}\n{stderr}"
    );
}
