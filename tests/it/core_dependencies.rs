#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The core crate stays adoptable: its normal dependency tree has no
//! terminal, async runtime, MCP SDK, command-line parser or file watcher
//! (issue 13), and as JP takes it (`default-features = false`, issue 38)
//! it is small: no TOML editor, no YAML, no token table, no temporary
//! files. Checked on the locked tree with `cargo tree`.

use std::process::Command;

/// The packages of the core's locked normal tree (each once), with `args`
/// added to `cargo tree`.
fn normal_tree(args: &[&str]) -> Vec<String> {
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
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut packages: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_end_matches(" (*)").to_owned())
        .filter(|l| !l.is_empty())
        .collect();
    packages.sort();
    packages.dedup();
    packages
}

#[test]
fn the_core_depends_on_no_terminal_async_mcp_cli_or_watcher_crate() {
    let tree = normal_tree(&[]).join("\n");
    assert!(tree.contains("jp-kb-tokens"), "{tree}");
    for banned in ["ratatui", "crossterm", "tokio", "rmcp", "clap", "notify"] {
        let hits: Vec<&str> = tree.lines().filter(|l| l.starts_with(banned)).collect();
        assert!(hits.is_empty(), "jp-kb-core depends on {hits:?}");
    }
}

/// What JP compiles in: the core without its features is the model, the
/// subjects and the texts, on fewer than 45 crates (51 before the loader
/// went behind `config`), and none of what reads or writes JP's files.
#[test]
fn the_core_as_jp_takes_it_is_small() {
    let tree = normal_tree(&["--no-default-features"]);
    assert!(
        tree.len() < 45,
        "{} crates in the core's tree without features:\n{}",
        tree.len(),
        tree.join("\n")
    );
    for heavy in [
        "jp-kb-toml",
        "toml_edit",
        "serde_norway",
        "jp-kb-tokens",
        "tempfile",
        "similar",
        "dirs",
        "jp-kb-search",
    ] {
        let hits: Vec<&String> = tree
            .iter()
            .filter(|l| l.starts_with(&format!("{heavy} ")))
            .collect();
        assert!(
            hits.is_empty(),
            "the core without features depends on {hits:?}"
        );
    }
}
