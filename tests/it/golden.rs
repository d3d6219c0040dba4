#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Runs the hand-derived golden cases of `tests/golden/*/cases.toml`: each
//! case's stdout must equal its expected file byte for byte.

use super::common;

use std::path::Path;

use common::{Sandbox, fixtures};

fn strings(item: &toml_edit::Item) -> Vec<String> {
    item.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn run_suite(name: &str) {
    let dir = fixtures().join("golden").join(name);
    let manifest = std::fs::read_to_string(dir.join("cases.toml")).expect("cases.toml");
    let doc: toml_edit::DocumentMut = manifest.parse().expect("valid manifest");
    let cases = doc["case"].as_array_of_tables().expect("[[case]]");
    assert!(!cases.is_empty(), "no cases in {name}");
    let mut failures = Vec::new();
    for case in cases {
        let case_name = case["name"].as_str().expect("name");
        let args = strings(&case["args"]);
        let cfg = strings(&case["cfg"]);
        let exit = case["exit"].as_integer().unwrap_or(0);
        let expected = std::fs::read(dir.join("expected").join(format!("{case_name}.out")))
            .expect("expected output");
        let sandbox = Sandbox::with_fixture(&fixture_dir(&dir));
        let mut cmd = sandbox.cmd();
        cmd.arg("--workspace").arg(sandbox.ws());
        for c in &cfg {
            cmd.arg("--cfg").arg(c);
        }
        cmd.args(&args);
        let out = cmd.output().expect("run jp-kb");
        let code = i64::from(out.status.code().unwrap_or(-1));
        if out.stdout != expected || code != exit {
            failures.push(format!(
                "case {case_name} ({args:?}, cfg {cfg:?}): exit {code} (want {exit})\n--- expected\n{}\n--- got\n{}\n--- stderr\n{}",
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The workspace of a suite is the suite directory itself, minus the
/// manifest and expected outputs (copying them along is harmless).
fn fixture_dir(dir: &Path) -> std::path::PathBuf {
    dir.to_path_buf()
}

#[test]
fn rfd_suite() {
    run_suite("rfd");
}

#[test]
fn rfd_exact_suite() {
    run_suite("rfd-exact");
}
