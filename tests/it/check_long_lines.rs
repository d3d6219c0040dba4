#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `check` on one-line configurations (issue 24, item 10): a finding
//! past column 65,535 is reported, not a panic (miette's caret padding
//! is a `format!` width, which Rust caps at `u16::MAX`), and a one-line
//! `learned` array of N unmatched patterns prints output linear in N
//! (each finding quotes a bounded window of its line, not the line).

use super::common;

use common::Sandbox;

fn workspace(config: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb/t/a.md", "body\n");
    sb.write("ws/.jp/config.toml", config);
    sb
}

#[test]
fn a_finding_past_column_65535_is_reported_not_a_panic() {
    let title = "x".repeat(70_000);
    let sb = workspace(&format!(
        "kb.topic.t = {{ title = \"{title}\", introduction = \"i\", subjects = \".jp/kb/t\", learned = [\"nomatch\"] }}\n"
    ));
    let out = sb.cmd().arg("check").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {stdout:.2000}\nstderr: {stderr:.2000}"
    );
    assert!(!stderr.contains("panicked"), "{stderr:.2000}");
    // The finding names where it is, to the character.
    assert!(
        stdout.contains("`learned` entry \"nomatch\"") && stdout.contains(".jp/config.toml:1:700"),
        "{stdout:.2000}"
    );
    // The quote is a window of the line, not 70,000 characters.
    assert!(
        stdout.len() < 4_000,
        "{} bytes: {stdout:.2000}",
        stdout.len()
    );
}

#[test]
fn one_line_learned_arrays_print_output_linear_in_the_patterns() {
    const N: usize = 1_000;
    let patterns: Vec<String> = (0..N).map(|i| format!("\"nomatch{i:05}\"")).collect();
    let sb = workspace(&format!(
        "[kb.topic.t]\ntitle = \"T\"\nintroduction = \"i\"\nsubjects = \".jp/kb/t\"\nlearned = [{}]\n",
        patterns.join(",")
    ));
    let out = sb.cmd().arg("check").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{:.2000}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.matches("selects no subject").count(),
        N,
        "{stdout:.2000}"
    );
    // Each finding quotes a bounded window (today: the whole 15 kB line,
    // 15 MB in all).
    assert!(
        stdout.len() < N * 1_000,
        "{} bytes for {N} findings: {:.3000}",
        stdout.len(),
        stdout
    );
    // The last pattern's window holds it, with the caret under it.
    assert!(
        stdout.contains("\"nomatch00999\"]"),
        "{:.3000}",
        &stdout[stdout.len().saturating_sub(3000)..]
    );
}
