#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb check` on the bundled demo (`assets/demo/`): untouched, it finds
//! exactly what the demo shows off on purpose (a broken topic, a binary
//! subject, hidden subjects nothing mentions); made clean with the CLI's
//! own edit commands, it finds nothing and exits 0.

use super::common;

use std::path::Path;

use common::Sandbox;
use serde_json::Value;

fn demo() -> Sandbox {
    Sandbox::with_fixture(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo"))
}

/// `jp-kb check --json [args]`: (code, file, line) of each finding, and
/// the exit status.
fn check(sb: &Sandbox, args: &[&str]) -> (Vec<(String, String, Option<u64>)>, i32) {
    let out = sb
        .cmd()
        .args(["check", "--json"])
        .args(args)
        .output()
        .expect("run jp-kb");
    let findings = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["code"].as_str().unwrap().to_owned(),
                v["file"].as_str().unwrap_or_default().to_owned(),
                v["line"].as_u64(),
            )
        })
        .collect();
    (findings, out.status.code().unwrap_or(-1))
}

/// Runs a `jp-kb` edit command in the workspace and asserts it succeeds.
fn run(sb: &Sandbox, args: &[&str]) {
    let out = sb.cmd().args(args).output().expect("run jp-kb");
    assert!(
        out.status.success(),
        "jp-kb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn untouched_demo_finds_exactly_what_it_shows_off() {
    let sb = demo();
    let (findings, status) = check(&sb, &[]);
    let expected = [
        ("KB115", ".jp/kb/project/.hidden-dir/visible.md", None),
        ("KB115", ".jp/kb/project/.internal-notes.md", None),
        ("KB107", ".jp/kb/formats/logo.png", None),
        ("KB006", ".jp/kb.toml", Some(30)),
    ]
    .map(|(c, f, l)| (c.to_owned(), f.to_owned(), l));
    assert_eq!(findings, expected);
    // The broken topic is an error.
    assert_eq!(status, 1);
}

#[test]
fn demo_made_clean_has_no_finding() {
    let sb = demo();
    run(&sb, &["topic", "rm", "broken"]);
    run(&sb, &["disabled", "add", "formats", "logo"]);
    // The hidden subjects become discoverable once a visible one names them.
    let first_week = sb.ws().join(".jp/kb/project/onboarding/first-week.md");
    let mut text = std::fs::read_to_string(&first_week).unwrap();
    text.push_str("\nAsk for `internal-notes` and `hidden-dir/visible` in your first week.\n");
    std::fs::write(&first_week, text).unwrap();

    let (findings, status) = check(&sb, &["--deny-warnings"]);
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(status, 0);
    let human = sb.cmd().arg("check").output().expect("run");
    assert_eq!(
        String::from_utf8_lossy(&human.stdout),
        "check: no problems found\n"
    );
    assert_eq!(human.status.code(), Some(0));
}
