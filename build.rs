//! Only for the tests: finds which outside tools and corpora the
//! integration tests can use, so that `cargo test` on a machine without them
//! lists the tests that need them as ignored, with the reason, instead of
//! failing them.
//!
//! For each need of `tests/needs/probe.rs` that is missing, it sets
//! `cfg(lacks = "KEY")`; the tests that need it carry
//! `#[cfg_attr(lacks = "KEY", ignore = "REASON")]`. When `CI` is set
//! (cargo's own reading of it: set to anything) nothing is ignored, and a
//! missing need fails its tests: CI never skips silently.
//!
//! Cargo runs this again when `CI` changes, when a found need's marker file
//! changes, or when this file or the probe changes; a need that appears
//! later is seen after `touch build.rs` (the setup scripts do that).
//! Probing costs a few `stat` calls.

#[allow(dead_code)]
#[path = "tests/needs/probe.rs"]
mod probe;

use std::path::PathBuf;

use probe::Need;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=tests/needs/probe.rs");
    println!("cargo::rerun-if-env-changed=CI");
    for var in Need::ENV {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let keys: Vec<String> = Need::ALL
        .iter()
        .map(|need| format!("\"{}\"", need.key()))
        .collect();
    println!(
        "cargo::rustc-check-cfg=cfg(lacks, values({}))",
        keys.join(", ")
    );

    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let ci = probe::ci();
    for need in Need::ALL {
        match need.find(&root) {
            Some(found) => println!("cargo::rerun-if-changed={}", found.marker.display()),
            None if ci => {}
            None => println!("cargo::rustc-cfg=lacks=\"{}\"", need.key()),
        }
    }
}
