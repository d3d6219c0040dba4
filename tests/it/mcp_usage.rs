//! The usage ledger (contract §9) driven by the official MCP Python SDK,
//! as `mcp_e2e` drives it (the venv of `tests/mcp/setup.sh`; ignored with
//! the reason without it, failed under `CI`: `tests/needs/mod.rs`).
//! `tests/mcp/test_usage.py` says what it checks: reported loads with
//! client name and version, no subject text, mode 0600, outside the
//! workspace; four servers at once losing nothing; answers byte-identical
//! to `jp-kb learn` when the ledger cannot be written; nothing written
//! when usage is off.

use super::needs;

use std::path::Path;
use std::process::Command;

use needs::Need;

#[test]
#[cfg_attr(
    lacks = "mcp-venv",
    ignore = "needs the MCP Python SDK (run bash tests/mcp/setup.sh, or .ci/run)"
)]
fn official_python_client_loads_are_recorded_exactly() {
    let venv = needs::require(Need::McpVenv);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("mcp");
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
