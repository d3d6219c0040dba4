#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 26 item 4: `y` on the prompt says how big the copy is, and above
//! what an OSC 52 sequence carries through tmux (786,426 bytes of text,
//! measured; docs/decisions.md) refuses and names the CLI instead of
//! saying "copied" while nothing arrives. Read from the drawn screen.

use jp_kb::tui::effect::Effect;
use jp_kb::tui::harness::Harness;
use jp_kb::tui::pane::Focus;

/// A workspace whose one topic pre-loads `bytes` bytes of text, open at
/// 200×40 with the Prompt tab focused.
fn prompt_of(bytes: usize) -> (tempfile::TempDir, Harness) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".jp")).unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(
        root.join(".jp/kb.toml"),
        "[kb]\nbudget = 100000000\n[kb.topic.t]\nsubjects = \"docs\"\nlearned = [\"**\"]\n",
    )
    .unwrap();
    let line = "word ".repeat(19) + "\n";
    let text = line.repeat(bytes / line.len() + 1);
    std::fs::write(root.join("docs/big.md"), &text[..bytes]).unwrap();
    let mut h = Harness::open(root, 200, 40, false);
    h.keys("2");
    while h.focused() != Focus::Preview {
        h.keys("\t");
    }
    (dir, h)
}

fn status(h: &Harness) -> String {
    let screen = h.screen();
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len() - 2..].join("\n")
}

#[test]
fn y_says_the_size_of_a_prompt_it_copies() {
    let (_dir, mut h) = prompt_of(300_000);
    h.keys("y");
    let status = status(&h);
    assert!(
        status.contains("copied the <knowledge> section (294 KiB, OSC 52)"),
        "{status}"
    );
    assert!(matches!(h.outside.as_slice(), [Effect::Copy(_)]));
}

#[test]
fn y_refuses_a_prompt_over_what_tmux_carries_and_names_the_cli() {
    let (_dir, mut h) = prompt_of(2 * 1024 * 1024);
    h.keys("y");
    let status = status(&h);
    assert!(!status.contains("copied the"), "{status}");
    assert!(status.contains("not copied"), "{status}");
    assert!(status.contains("2.1 MiB"), "{status}");
    assert!(h.outside.is_empty(), "{:?}", h.outside.len());
    // The whole message, with the CLI, is in the message log.
    let log = h.messages().join("\n");
    assert!(
        log.contains("`jp-kb prompt | xclip -selection clipboard` or `jp-kb prompt > file`"),
        "{log}"
    );
}
