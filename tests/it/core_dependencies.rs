#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The core crate stays adoptable: its normal dependency tree has no
//! terminal, async runtime, MCP SDK, command-line parser or file watcher
//! (issue 13). Checked on the locked tree with `cargo tree`.

use std::process::Command;

#[test]
fn the_core_depends_on_no_terminal_async_mcp_cli_or_watcher_crate() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--locked",
            "--offline",
            "-p",
            "jp-kb-core",
            "-e",
            "normal",
        ])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    assert!(tree.contains("jp-kb-tokens"), "{tree}");
    for banned in ["ratatui", "crossterm", "tokio", "rmcp", "clap", "notify"] {
        let hits: Vec<&str> = tree.lines().filter(|l| l.starts_with(banned)).collect();
        assert!(hits.is_empty(), "jp-kb-core depends on {hits:?}");
    }
}
