//! The outside tools and corpora some tests need (`probe.rs` lists them),
//! checked when a test runs.
//!
//! The rule (cargo's own): a test that needs one is ignored, with the
//! reason, when it is missing, and fails when `CI` is set. The ignoring
//! happens at build time: `build.rs` sets `cfg(lacks = "KEY")` and the test
//! carries `#[cfg_attr(lacks = "KEY", ignore = "REASON")]`, so cargo's own
//! output says `ignored, REASON`. [`require`] is the check at run time, for
//! CI and for a test run anyway (`--include-ignored`, or a probe made
//! before the need went away).
#![allow(dead_code)]

mod probe;

use std::path::{Path, PathBuf};

pub use probe::{Need, ci};

/// Where `need` is met (tmux's binary, or the need's directory); panics
/// with its reason when it is missing.
pub fn require(need: Need) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(found) = need.find(root) {
        return found.path;
    }
    let reason = need.reason();
    assert!(
        !ci(),
        "{reason}: CI is set, so a missing need fails the test instead of skipping it"
    );
    panic!(
        "{reason}. Without CI such a test is ignored: mark it \
         #[cfg_attr(lacks = \"{key}\", ignore = \"{reason}\")], or, if it is, \
         `touch build.rs` so the build probes again",
        key = need.key()
    );
}
