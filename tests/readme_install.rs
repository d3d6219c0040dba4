#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The README's Install section agrees with the manifest: the Rust version
//! it asks for is `rust-version`, and the install command is `--locked`.

use std::path::Path;

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
