#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The README's Install section agrees with the manifest: the Rust version
//! it asks for is `rust-version`, and the install command is `--locked`.
//! Its test command is the one `.ci/run` runs, and the reason each test
//! that needs an outside tool prints when it is ignored is the one
//! `tests/needs/probe.rs` gives for that tool.

use super::needs;

use std::path::Path;

use needs::Need;

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The text of `## Install` up to the next `## ` heading.
fn install_section(readme: &str) -> &str {
    let start = readme.find("\n## Install\n").expect("an Install section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

#[test]
fn install_section_names_the_manifest_rust_version_and_a_locked_install() {
    let manifest: toml_edit::DocumentMut = read("Cargo.toml").parse().unwrap();
    // The workspace holds the versions every crate inherits.
    let rust_version = manifest["workspace"]["package"]["rust-version"]
        .as_str()
        .unwrap();
    let edition = manifest["workspace"]["package"]["edition"]
        .as_str()
        .unwrap();
    let readme = read("README.md");
    let install = install_section(&readme);
    assert!(
        install.contains(&format!("Rust {rust_version} or newer")),
        "README Install must ask for Rust {rust_version}:\n{install}"
    );
    assert!(install.contains(&format!("edition {edition}")), "{install}");
    assert!(
        install.contains("cargo install --locked --path ."),
        "{install}"
    );
    assert!(install.contains("~/.cargo/bin"), "{install}");
}

/// The one command under "Run all tests:" in the README.
fn readme_test_command(readme: &str) -> &str {
    let start = readme.find("Run all tests:").expect("a test command");
    let block = &readme[start..];
    let open = block.find("```sh\n").expect("a sh block") + "```sh\n".len();
    let close = block[open..].find("```").expect("the block's end");
    block[open..open + close].trim()
}

#[test]
fn the_readme_test_command_is_one_command_and_the_one_ci_runs() {
    let readme = read("README.md");
    let command = readme_test_command(&readme);
    assert!(
        !command.contains('\n') && command.starts_with("cargo test"),
        "the README's test command must be one cargo command: {command:?}"
    );
    let ci = read(".ci/run");
    let last = ci
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("cargo "))
        .expect("a cargo command in .ci/run");
    assert_eq!(
        last.trim(),
        command,
        ".ci/run must end with the README's test command"
    );
}

#[test]
fn every_ignored_test_gives_its_needs_reason() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with(file!()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for attr in text.split("#[cfg_attr(").skip(1) {
            let attr = &attr[..attr.find(")]").expect("the attribute's end")];
            let Some((cfg, reason)) = attr.split_once("ignore = \"") else {
                continue;
            };
            let reason = &reason[..reason.find('"').unwrap()];
            // The need this attribute is for: its `lacks` outside `not(…)`.
            let parts: Vec<&str> = cfg.split("lacks = \"").collect();
            let keys: Vec<&str> = parts
                .windows(2)
                .filter(|pair| !pair[0].ends_with("not("))
                .map(|pair| &pair[1][..pair[1].find('"').unwrap()])
                .collect();
            let [key] = keys[..] else {
                panic!("{}: one need per attribute: {attr}", path.display());
            };
            let need = Need::ALL
                .into_iter()
                .find(|n| n.key() == key)
                .unwrap_or_else(|| panic!("{}: no need {key:?}", path.display()));
            assert_eq!(reason, need.reason(), "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 26, "only {seen} tests carry a need");
}
