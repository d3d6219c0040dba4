#![allow(clippy::expect_used, clippy::unwrap_used)]
//! YAML front-matter of Markdown subjects: in `list TOPIC --json`
//! (`--frontmatter`, or `--tokens`) and in the TUI's subject preview
//! header; what the assistant sees is unchanged.

use super::common;
use super::tui_support;

use common::Sandbox;
use jp_kb::tui::event::Event;
use serde_json::{Value, json};

const SKILL: &str = "---\nname: rust-style\ndescription: How we write Rust\ntags: [rust, lint]\n---\n# Rust style\n\nNo unwrap.\n";

fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", "[kb.topic.t]\nsubjects = \"t\"\n");
    sb.write("ws/t/skill.md", SKILL);
    sb.write("ws/t/plain.md", "# Plain\n");
    sb.write("ws/t/broken.md", "---\nname: [unclosed\n---\nbody\n");
    sb.write("ws/t/data.toml", "---\nname: x\n---\n");
    sb
}

fn list(sb: &Sandbox, extra: &str) -> Vec<Value> {
    let out = sb
        .cmd()
        .args(["list", "t", "--json", extra])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn by_slug<'a>(rows: &'a [Value], slug: &str) -> &'a Value {
    rows.iter().find(|r| r["slug"] == slug).unwrap()
}

#[test]
fn list_json_shows_parsed_frontmatter_on_request() {
    let sb = workspace();
    // Plain `list --json` still reads no file (contract §6).
    let plain = sb.cmd().args(["list", "t", "--json"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("frontmatter"));
    for flag in ["--frontmatter", "--tokens"] {
        let rows = list(&sb, flag);
        assert_eq!(
            by_slug(&rows, "skill")["frontmatter"],
            json!({"name": "rust-style", "description": "How we write Rust", "tags": ["rust", "lint"]}),
            "{flag}"
        );
        assert_eq!(
            by_slug(&rows, "plain")["frontmatter"],
            Value::Null,
            "{flag}"
        );
        // Only Markdown has front-matter.
        assert_eq!(by_slug(&rows, "data")["frontmatter"], Value::Null, "{flag}");
        let broken = by_slug(&rows, "broken");
        assert_eq!(broken["frontmatter"], Value::Null);
        assert!(
            broken["frontmatter_error"]
                .as_str()
                .unwrap()
                .starts_with("line 3: "),
            "{broken}"
        );
    }
}

#[test]
fn the_assistant_still_gets_the_file_as_it_is() {
    let sb = workspace();
    let out = sb.cmd().args(["learn", "t", "skill"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), SKILL);
}

#[test]
fn tui_preview_header_shows_frontmatter() {
    let mut d = tui_support::Demo::new(120, 40);
    let file = d.root().join(".jp/kb/project/release.md");
    std::fs::write(&file, SKILL).unwrap();
    d.h.action(Event::FilesChanged(vec![file.clone()]));
    d.keys("\t");
    d.select("release");
    let screen = d.screen();
    assert!(screen.contains("  name: rust-style"), "{screen}");
    assert!(screen.contains("  tags: rust, lint"), "{screen}");
    assert!(screen.contains("No unwrap."), "{screen}");
    std::fs::write(&file, "---\nname: [unclosed\n---\nbody\n").unwrap();
    d.h.action(Event::FilesChanged(vec![file]));
    let screen = d.screen();
    assert!(
        screen.contains("front-matter is not valid YAML: line 3: "),
        "{screen}"
    );
}
