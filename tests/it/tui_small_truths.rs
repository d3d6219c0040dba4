#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 37 item 5, the TUI's small untruths, each read from the drawn
//! screen of the bundled demo: `f` under `--read-only`, the confirmation
//! of disabling every subject of a topic, and the `?` help's wrapped rows.

use super::tui_support::Demo;
use jp_kb::tui::app::Mode;

/// `--read-only` makes no edit, so `f` (where edits go) offers nothing
/// and the status line names no file edits would go to.
#[test]
fn read_only_offers_no_file_for_edits() {
    let mut d = Demo::new(160, 48);
    d.h.set_read_only();
    d.keys("f");
    assert!(
        !matches!(d.h.mode(), Mode::Picker(_)),
        "f opened the layer picker"
    );
    let screen = d.screen();
    assert!(screen.contains("read-only (--read-only)"), "{screen}");
    assert!(!screen.contains("edits→"), "{screen}");
}

/// Disabling every subject of a topic asks as what it is: its `enable`
/// stays, so the box never says "disables the whole topic" above the
/// line saying "(it stays enabled)".
#[test]
fn disabling_every_subject_is_not_called_disabling_the_topic() {
    let mut d = Demo::new(160, 48);
    d.topic(2);
    // The tester, on `disabled`: `**` takes every subject of `formats`.
    d.keys("g\t**\n");
    assert!(
        matches!(d.h.mode(), Mode::Choice(_)),
        "it asks first: {}",
        d.screen()
    );
    let screen = d.screen();
    assert!(
        screen.contains("disables every subject of topic `formats`"),
        "{screen}"
    );
    assert!(!screen.contains("whole topic"), "{screen}");
}

/// A help line longer than the overlay wraps under its meaning, not back
/// at the overlay's left edge.
#[test]
fn wrapped_help_rows_hang_under_the_meaning() {
    let mut d = Demo::new(60, 60);
    d.keys("?");
    let screen = d.screen();
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("search by words, and meaning"))
        .unwrap_or_else(|| panic!("the S row:\n{screen}"));
    let (first, next) = (lines[at], lines[at + 1]);
    let column = |line: &str, text: &str| line.find(text).map(|b| line[..b].chars().count());
    let meaning = column(first, "search by").unwrap();
    let continued = column(next, "model").unwrap_or_else(|| panic!("{first}\n{next}"));
    assert_eq!(meaning, continued, "\n{first}\n{next}");
}
