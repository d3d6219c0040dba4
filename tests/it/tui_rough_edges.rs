#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 26 item 6: `--read-only` offers no edit anywhere, a long slug in
//! the Findings tab's `x fix` hint is cut rather than pushing the other
//! keys off the footer, and at 80×24 the pattern tester leaves the
//! preview's lines whole. Read from the drawn screen.

use super::tui_support::{Demo, find};
use jp_kb::tui::harness::Harness;

/// The last two screen rows: the status line and the key hints.
fn footer(d: &Demo) -> String {
    let screen = d.screen();
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len() - 2..].join("\n")
}

#[test]
fn read_only_offers_no_edit_in_the_footer_the_tester_or_the_preview() {
    let mut d = Demo::new(160, 48);
    d.h.set_read_only();
    d.keys("\t");
    d.select("welcome");
    let screen = d.screen();
    for edit in [
        "l learn",
        "d disable",
        "u undo",
        "l (learn)",
        "l (un-learn)",
    ] {
        assert!(!screen.contains(edit), "{edit:?} offered:\n{screen}");
    }
    d.keys("g*");
    let screen = d.screen();
    for edit in ["Enter add", "Enter adds"] {
        assert!(!screen.contains(edit), "{edit:?} offered:\n{screen}");
    }
    assert!(footer(&d).contains("read-only"), "{}", footer(&d));
    d.keys("\u{1b}tG");
    let footer = footer(&d);
    for edit in ["x fix", "edit at line"] {
        assert!(!footer.contains(edit), "{edit:?} offered:\n{footer}");
    }
}

#[test]
fn a_long_slug_in_the_fix_hint_is_cut_and_the_other_keys_stay() {
    let dir = jp_kb::tui::demo::materialize().expect("demo");
    let formats = dir.path().join(".jp/kb/formats");
    let long = format!("logo-{}", "very-long-name-".repeat(8));
    let from = std::fs::read_dir(&formats)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .expect("the demo's png");
    std::fs::rename(&from, formats.join(format!("{long}.png"))).unwrap();
    let h = Harness::open(dir.path(), 160, 48, false);
    let mut d = Demo { dir, h };
    d.keys("tG");
    let footer = footer(&d);
    let hints = footer.lines().last().unwrap();
    assert!(
        hints.contains("x fix: disable \"logo-very-long"),
        "{footer}"
    );
    assert!(hints.contains("…\""), "the slug is cut: {footer}");
    assert!(hints.ends_with("q quit"), "the other keys stay: {footer}");
    assert!(!hints.contains(&long), "{footer}");
}

#[test]
fn at_80_by_24_the_tester_leaves_the_preview_lines_whole() {
    let mut d = Demo::new(80, 24);
    d.keys("\t");
    d.select("welcome");
    d.keys("g**");
    let buffer = d.h.render();
    let (preview_x, _) = find(&buffer, "┌ Preview");
    let (_, tester_y) = find(&buffer, "Pattern tester");
    let screen = d.screen();
    for y in tester_y..buffer.area.height - 3 {
        assert_eq!(
            buffer[(preview_x, y)].symbol(),
            "│",
            "row {y}: the tester covers the preview's left edge:\n{screen}"
        );
    }
}
