#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 16 item 4: `/` inside a focused preview (Prompt, Learn, Subject,
//! Config tabs), matches highlighted, `n`/`N` with the view scrolled to
//! the match and a `k/N` count, `Esc` clearing; the subjects pane's `/`
//! stays the filter. Through the key map, with styles checked on the
//! buffer, and near the end of a multi-megabyte prompt.

use super::tui_support;

use insta::assert_snapshot;
use jp_kb::tui::app::Mode;
use jp_kb::tui::pane::Focus;
use jp_kb::tui::pane::Tab;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::style::Modifier;
use tui_support::{Demo, find_all};

fn search_line(d: &Demo) -> String {
    let screen = d.screen();
    screen
        .lines()
        .find(|l| l.contains("n/N next/previous · Esc clear"))
        .unwrap_or_else(|| panic!("no search line:\n{screen}"))
        .to_owned()
}

/// The Config tab, focused.
fn config_focused(d: &mut Demo) {
    d.keys("5");
    while d.h.focused() != Focus::Preview {
        d.keys("\t");
    }
}

#[test]
fn slash_in_the_focused_preview_searches_it_and_in_the_subjects_pane_filters() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.keys("/jean\n");
    assert_eq!(
        d.h.subject_filter(),
        "jean",
        "the subjects pane's / filters"
    );
    d.h.press(KeyCode::Esc, KeyModifiers::NONE);
    config_focused(&mut d);
    d.keys("/");
    assert!(matches!(d.h.mode(), Mode::PreviewSearch(_)));
    assert!(
        d.screen().contains("/▏  Enter find · Esc cancel"),
        "{}",
        d.screen()
    );
    d.keys("kb.topic\n");
    assert!(d.h.subject_filter().is_empty(), "the filter is untouched");
    // Five topics in the demo's kb.toml.
    assert!(
        search_line(&d).contains("/kb.topic  1/5"),
        "{}",
        search_line(&d)
    );
    d.keys("n");
    assert!(search_line(&d).contains("2/5"));
    d.keys("N");
    d.keys("N");
    assert!(search_line(&d).contains("5/5"), "N wraps to the last");
    d.keys("n");
    assert!(search_line(&d).contains("1/5"), "n wraps to the first");
    // Esc clears the search (and the highlight), then leaves the preview.
    d.h.press(KeyCode::Esc, KeyModifiers::NONE);
    assert!(!d.h.preview_search_open());
    assert!(!d.screen().contains("n/N next/previous · Esc clear"));
    assert_eq!(d.h.focused(), Focus::Preview);
    d.h.press(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(d.h.focused(), Focus::Subjects);
}

#[test]
fn matches_are_highlighted_the_current_one_reversed() {
    let mut d = Demo::new(120, 40);
    config_focused(&mut d);
    d.keys("/subjects\nn");
    let buffer = d.h.render();
    let cells = find_all(&buffer, "subjects = ");
    assert!(cells.len() >= 3, "{}", d.screen());
    let reversed: Vec<bool> = cells
        .iter()
        .map(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
        .collect();
    // The second match is current: reversed (the view scrolled to it);
    // the others underlined.
    assert_eq!(reversed.iter().filter(|r| **r).count(), 1, "{reversed:?}");
    for (&(x, y), &current) in cells.iter().zip(&reversed) {
        let row: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol().to_owned())
            .collect();
        if current {
            assert!(row.contains(".jp/kb/skills"), "{row}");
        } else {
            assert!(
                buffer[(x, y)].modifier.contains(Modifier::UNDERLINED),
                "{row}"
            );
        }
        // Only the matched characters: the space after is plain.
        assert!(!buffer[(x + 8, y)].modifier.contains(Modifier::UNDERLINED));
        assert!(!buffer[(x + 8, y)].modifier.contains(Modifier::REVERSED));
    }
    assert_snapshot!(d.screen());
}

#[test]
fn a_query_with_no_match_says_so_and_smart_case_applies() {
    let mut d = Demo::new(120, 40);
    config_focused(&mut d);
    d.keys("/no-such-text\n");
    assert!(search_line(&d).contains("no match"), "{}", search_line(&d));
    assert!(d.h.status_is_error());
    d.h.press(KeyCode::Esc, KeyModifiers::NONE);
    // Lower case ignores case; an upper-case letter makes it exact.
    d.keys("/broken topic\n");
    assert!(search_line(&d).contains("1/1"), "{}", search_line(&d));
    d.h.press(KeyCode::Esc, KeyModifiers::NONE);
    d.keys("/Broken topic\n");
    assert!(search_line(&d).contains("no match"), "{}", search_line(&d));
}

#[test]
fn the_search_shows_on_its_own_tab_and_subject_and_learn_tabs_search_too() {
    let mut d = Demo::new(120, 40);
    // The Subject tab of `jean`.
    d.keys("\t");
    d.select("jean");
    d.keys("\n");
    assert_eq!(d.h.preview_tab(), Tab::Subject);
    assert_eq!(d.h.focused(), Focus::Preview);
    d.keys("/engine\n");
    assert!(search_line(&d).contains("1/1"), "{}", search_line(&d));
    // Another tab does not show it.
    d.keys("3");
    assert!(!d.screen().contains("/engine"), "{}", d.screen());
    d.keys("/jean\n");
    assert!(search_line(&d).contains("/jean  1/"), "{}", search_line(&d));
}

/// A workspace whose `<knowledge>` section is about 3 MB: one pre-loaded
/// subject of numbered lines, a needle near its end.
fn big_prompt(width: u16, height: u16) -> Demo {
    let d = Demo::new(width, height);
    let dir = d.root().join(".jp/kb/formats");
    let mut text = String::with_capacity(3_200_000);
    for i in 0..40_000 {
        use std::fmt::Write as _;
        writeln!(
            text,
            "line {i} of the big subject, padded with words to be long enough xxxxxxxxxxxx"
        )
        .unwrap();
        if i == 39_990 {
            text.push_str("the needle is here\n");
        }
    }
    std::fs::write(dir.join("big.md"), &text).unwrap();
    let config = d.config();
    let kb = d.config_text().replace(
        "subjects = \".jp/kb/formats\"",
        "subjects = \".jp/kb/formats\"\nlearned = [\"big\"]",
    );
    std::fs::write(&config, kb).unwrap();
    let Demo { dir, .. } = d;
    let h = jp_kb::tui::harness::Harness::open(dir.path(), width, height, true);
    Demo { dir, h }
}

#[test]
fn near_the_end_of_a_3_mb_prompt_the_match_is_scrolled_into_view() {
    // Wide enough that no line wraps: the preview scrolls by a 16-bit
    // row count (65,535 rows), which 40,000 wrapped lines would exceed.
    let mut d = big_prompt(220, 40);
    d.keys("2");
    while d.h.focused() != Focus::Preview {
        d.keys("\t");
    }
    let prompt = d.h.model().unwrap().prompt.as_ref().unwrap().bytes;
    assert!(prompt > 3_000_000, "{prompt}");
    d.keys("/needle\n");
    let screen = d.screen();
    assert!(screen.contains("/needle  1/1"), "{screen}");
    assert!(screen.contains("the needle is here"), "{screen}");
    let buffer = d.h.render();
    let (x, y) = find_all(&buffer, "needle")[0];
    assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    // n and N move through a kept list: each takes milliseconds, not a
    // search and a wrap of the whole prompt again.
    d.keys("/line 3999\n");
    let start = std::time::Instant::now();
    for _ in 0..10 {
        d.keys("n");
    }
    let per_key = start.elapsed() / 10;
    let buffer = d.h.render();
    assert!(!find_all(&buffer, "/11  n/N").is_empty());
    let current = find_all(&buffer, "line 3999")
        .into_iter()
        .filter(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
        .count();
    assert_eq!(
        current,
        1,
        "the current match is on screen:\n{}",
        d.screen()
    );
    eprintln!("n near the end of a 3 MB prompt: {per_key:?} per key (debug build)");
}
