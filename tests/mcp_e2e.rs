#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb mcp` driven by a real MCP client nobody here wrote: the official
//! Python SDK, installed by `tests/mcp/setup.sh` into `target/mcp-venv`
//! (`.ci/run` runs it first; this test runs it too, which is quick when the
//! venv is current). The script `tests/mcp/test_e2e.py` compares every
//! answer with the CLI's output.
//!
//! Python is required, not optional: without it (or without network access
//! for the first setup) the test fails and says so, since a skipped test
//! would report a pass that checked nothing.

use std::path::Path;
use std::process::Command;

#[test]
fn official_python_client_sees_what_the_cli_prints() {
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
