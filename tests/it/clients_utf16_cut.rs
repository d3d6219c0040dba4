#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Claude Code cuts MCP instructions at 2,048 UTF-16 code units, not
//! characters (issue 24, item 15; JS `String.prototype.slice`). A section
//! of 2,049 units holding characters outside the BMP (2,039 characters)
//! is cut: `prompt --client claude-code --json` keeps what Claude Code
//! keeps, and `check --client claude-code` warns.

use super::common;

use common::Sandbox;

const MARKER: &str = "… [truncated]";
const LIMIT: usize = 2048;

fn units(text: &str) -> usize {
    text.encode_utf16().count()
}

fn sandbox(introduction: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/kb.toml",
        format!("[kb.topic.t]\ntitle = \"T\"\nintroduction = \"{introduction}\"\nsubjects = \".jp/kb/t\"\n"),
    );
    sb.write("ws/.jp/kb/t/a.md", "# A\n");
    sb
}

fn section(sb: &Sandbox) -> String {
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end_matches('\n')
        .to_owned()
}

/// A workspace whose section is `total` UTF-16 units, ten of its
/// characters outside the BMP.
fn sized(total: usize) -> (Sandbox, String) {
    let base = units(&section(&sandbox("X"))) - 1;
    let introduction = format!("{}{}", "😀".repeat(10), "a".repeat(total - base - 20));
    let sb = sandbox(&introduction);
    let text = section(&sb);
    assert_eq!(units(&text), total, "fixture: {text}");
    assert!(text.chars().count() <= LIMIT);
    (sb, text)
}

#[test]
fn prompt_cuts_in_utf16_units() {
    let (sb, sent) = sized(LIMIT + 1);
    let out = sb
        .cmd()
        .args(["prompt", "--client", "claude-code", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let instructions = json
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["channel"] == "mcp-instructions")
        .unwrap();
    let text = instructions["text"].as_str().unwrap();
    let kept = text
        .strip_suffix(MARKER)
        .unwrap_or_else(|| panic!("not cut: {text}"));
    // What JS `sent.slice(0, 2048)` keeps: every unit but the last one.
    let expected: Vec<u16> = sent.encode_utf16().take(LIMIT).collect();
    assert_eq!(kept, String::from_utf16(&expected).unwrap());
    assert_eq!(instructions["cut"], true);
}

#[test]
fn check_warns_about_a_section_one_unit_too_long() {
    let (sb, _) = sized(LIMIT + 1);
    let out = sb
        .cmd()
        .args(["check", "--client", "claude-code"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("KB122"), "{stdout}");
    assert!(stdout.contains("2048 of 2049 UTF-16 units"), "{stdout}");
    // One unit less arrives whole.
    let (sb, _) = sized(LIMIT);
    let out = sb
        .cmd()
        .args(["check", "--client", "claude-code"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("no problems found"), "{stdout}");
}
