#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 16 item 3, through the key map on the bundled demo: `Space`
//! marks rows, `v` marks a range, `Ctrl-a` marks the filtered rows; `l`/`d`
//! act on the marks as one planner intent (one write, one undo step);
//! `Esc` clears marks before the filter; a cancelled confirmation keeps
//! them.

use super::tui_support;

use jp_kb::tui::app::Mode;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use tui_support::Demo;

/// The formats topic (six subjects, none learned), its subjects pane
/// focused on the first row.
fn formats() -> Demo {
    let mut d = Demo::new(120, 40);
    d.topic(2);
    d.keys("\t");
    d.h.press(KeyCode::Home, KeyModifiers::NONE);
    d
}

fn slugs(d: &Demo) -> Vec<String> {
    d.h.resolution()
        .unwrap()
        .subjects()
        .iter()
        .map(|s| s.slug().to_owned())
        .collect()
}

fn marked(d: &Demo) -> Vec<String> {
    let topic = d.h.topic_state().unwrap().id().to_owned();
    d.h.marks().of(&topic)
}

fn learned(d: &Demo) -> Vec<String> {
    let res = d.h.resolution().unwrap();
    (0..res.subjects().len())
        .filter(|&i| res.is_learned(i))
        .map(|i| res.subjects()[i].slug().to_owned())
        .collect()
}

/// `Space` twice, `v` after moving down two more: four subjects marked;
/// `l` learns the four as one write, one `u` takes all four back with the
/// file's bytes restored, and the marks are gone once the edit is made.
#[test]
fn space_and_v_mark_and_l_learns_the_marks_as_one_undo_step() {
    let mut d = formats();
    let before = d.config_text();
    let all = slugs(&d);
    d.keys("  ");
    assert_eq!(marked(&d).len(), 2, "Space marks and moves down");
    d.keys("jv");
    // From the last row Space touched (the second) to the cursor (the fourth).
    let mut want: Vec<String> = all[..4].to_vec();
    want.sort();
    assert_eq!(marked(&d), want);
    let screen = d.screen();
    assert!(
        screen.contains("Subjects of formats · 4 marked"),
        "{screen}"
    );
    assert!(screen.contains("l/d: the 4 marked"), "{screen}");

    d.keys("l");
    let mut got = learned(&d);
    got.sort();
    assert_eq!(got, want, "{}", d.h.status_line());
    assert!(marked(&d).is_empty(), "marks go once the edit is made");
    assert_eq!(
        d.config_text().matches("learned = [").count(),
        before.matches("learned = [").count() + 1,
        "one new learned array: {}",
        d.config_text()
    );
    d.keys("u");
    assert_eq!(d.config_text(), before, "one undo step takes all four back");
    assert!(learned(&d).is_empty());
}

/// `Ctrl-a` with a filter marks only the rows the filter keeps; `d`
/// disables those; marking them all again and `d` enables them again.
#[test]
fn ctrl_a_marks_the_filtered_rows_and_d_toggles_them_together() {
    let mut d = formats();
    let before = d.config_text();
    d.keys("/o\n");
    let shown: Vec<String> = {
        let res = d.h.resolution().unwrap();
        d.h.rows()
            .iter()
            .filter_map(|r| match r.kind {
                jp_kb::tui::tree::RowKind::Subject(i) => Some(res.subjects()[i].slug().to_owned()),
                jp_kb::tui::tree::RowKind::Dir(_) => None,
            })
            .collect()
    };
    assert!(
        shown.len() >= 2 && shown.len() < slugs(&d).len(),
        "{shown:?}\n{}",
        d.screen()
    );
    d.ctrl('a');
    let mut want = shown.clone();
    want.sort();
    assert_eq!(marked(&d), want);
    d.keys("d");
    let res = d.h.resolution().unwrap();
    let disabled: Vec<&str> = (0..res.subjects().len())
        .filter(|&i| res.is_disabled(i))
        .map(|i| res.subjects()[i].slug())
        .collect();
    assert_eq!(disabled.len(), want.len(), "{disabled:?}");
    // All marked are disabled now: `d` on them enables them again.
    d.ctrl('a');
    d.keys("d");
    assert!(!d.config_text().contains("disabled = []"));
    let res = d.h.resolution().unwrap();
    assert!((0..res.subjects().len()).all(|i| !res.is_disabled(i)));
    d.keys("uu");
    assert_eq!(d.config_text(), before);
}

/// `Esc` clears the marks first, then the filter; marks are per topic.
#[test]
fn esc_clears_marks_before_the_filter_and_marks_are_per_topic() {
    let mut d = formats();
    d.keys("/o\n");
    d.keys(" ");
    assert_eq!(marked(&d).len(), 1);
    d.keys("\u{1b}");
    assert!(marked(&d).is_empty());
    assert_eq!(d.h.subject_filter(), "o", "the filter stays");
    d.keys("\u{1b}");
    assert!(d.h.subject_filter().is_empty());

    d.keys(" ");
    d.topic(0);
    assert!(marked(&d).is_empty(), "project has no marks");
    d.topic(2);
    assert_eq!(marked(&d).len(), 1, "formats kept its mark");
}

/// Marks of pre-loaded subjects: `l` un-learns through the glob, which
/// asks; cancelling keeps the marks, nothing is written.
#[test]
fn a_cancelled_question_keeps_the_marks_and_writes_nothing() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    // The filter lands on the first subject (jean); Space moves to ryan.
    d.select("maintainers");
    d.keys("  ");
    let before = d.config_text();
    assert_eq!(marked(&d), ["maintainers/jean", "maintainers/ryan"]);
    d.keys("l");
    assert!(
        matches!(d.h.mode(), Mode::Choice(_)),
        "{}",
        d.h.status_line()
    );
    d.keys("\u{1b}");
    assert_eq!(d.config_text(), before);
    assert_eq!(marked(&d).len(), 2, "cancelling keeps the marks");
}
