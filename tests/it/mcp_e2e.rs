#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb mcp` driven by a real MCP client nobody here wrote: the official
//! Python SDK, installed by `tests/mcp/setup.sh` into `target/mcp-venv`
//! (`.ci/run` runs it before the test command). The script
//! `tests/mcp/test_e2e.py` compares every answer with the CLI's output.
//!
//! Without the venv the test is ignored with the reason; under `CI` it
//! fails (`tests/needs/mod.rs`). The test installs nothing itself.

use super::needs;

use std::path::Path;
use std::process::Command;

use needs::Need;

#[test]
#[cfg_attr(
    lacks = "mcp-venv",
    ignore = "needs the MCP Python SDK (run bash tests/mcp/setup.sh, or .ci/run)"
)]
fn official_python_client_sees_what_the_cli_prints() {
    let venv = needs::require(Need::McpVenv);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("mcp");
    let out = Command::new(venv.join("bin").join("python"))
        .arg(dir.join("test_e2e.py"))
        .arg(env!("CARGO_BIN_EXE_jp-kb"))
        .current_dir(&dir)
        .output()
        .expect("run the Python end-to-end test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "test_e2e.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.starts_with("mcp e2e: ok ("),
        "unexpected summary {summary:?}\n{stdout}\n{stderr}"
    );
}
