#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 16's fluency through the key map on the demo: the footer follows
//! the pane and mode, `?` pages and searches, `Esc` backs out one level,
//! the filter is per topic with a count, ranking and highlights, `y`
//! copies through OSC 52, previews wrap with a marker, `--read-only`
//! refuses every edit, small terminals keep inputs and token columns.

use super::tui_support;

use jp_kb::tui::app::Mode;
use jp_kb::tui::effect::Effect;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::Focus;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::style::Modifier;
use tui_support::Demo;

fn footer(d: &Demo) -> String {
    d.screen().lines().last().unwrap_or_default().to_owned()
}

#[test]
fn the_footer_follows_the_pane_and_the_mode() {
    let mut d = Demo::new(120, 30);
    d.keys("\t");
    assert!(footer(&d).contains("l learn · d disable"), "{}", footer(&d));
    // The Findings tab: learn/disable mean nothing there.
    d.keys("6");
    let f = footer(&d);
    assert!(!f.contains("l learn") && !f.contains("d disable"), "{f}");
    assert!(f.contains("t all/this topic"), "{f}");
    // The preview pane: its own keys, and how to leave it.
    d.keys("1\t");
    assert_eq!(d.h.focused(), Focus::Preview);
    let f = footer(&d);
    assert!(f.contains("w wrap · y copy · Esc back"), "{f}");
    assert!(!f.contains("l learn"), "{f}");
    // The pattern tester's keys are whole in the footer at 120 columns.
    d.keys("\tg");
    let f = footer(&d);
    assert!(
        f.contains(
            "Enter add to learned · Tab learned/disabled · PgDn/PgUp scroll the result · Esc close"
        ),
        "{f}"
    );
}

#[test]
fn help_pages_searches_and_documents_mouse_and_esc() {
    let mut d = Demo::new(100, 30);
    d.keys("?");
    assert!(matches!(d.h.mode(), Mode::Help(_)));
    d.h.press(KeyCode::PageDown, KeyModifiers::NONE);
    let page = d.h.help_offset();
    assert!(page >= 20, "{page}");
    d.ctrl('d');
    assert_eq!(d.h.help_offset(), page * 2);
    d.ctrl('u');
    assert_eq!(d.h.help_offset(), page);
    d.keys("G");
    let end = d.h.help_offset();
    assert!(end > page, "{end}");
    d.h.press(KeyCode::End, KeyModifiers::NONE);
    assert_eq!(d.h.help_offset(), end);
    d.keys("j");
    assert_eq!(d.h.help_offset(), end, "scrolls no further than the end");
    d.keys("g");
    assert_eq!(d.h.help_offset(), 0);
    // `/` searches; the line found is shown (at the top, or on the
    // last page).
    d.keys("/mouse\n");
    assert!(d.h.help_offset() > 0);
    let screen = d.screen();
    assert!(screen.contains("Mouse"), "{screen}");
    assert!(screen.contains("wheel"), "{screen}");
    assert!(d.screen().contains("backs out one level"), "{}", d.screen());
    // `n` goes on to the next match, `N` back.
    d.keys("g/page\n");
    let first = d.h.help_offset();
    d.keys("n");
    assert!(d.h.help_offset() > first);
    d.keys("N");
    assert_eq!(d.h.help_offset(), first);
    d.keys("\u{1b}");
    assert!(matches!(d.h.mode(), Mode::Normal));
}

#[test]
fn esc_backs_out_one_level_filter_then_preview() {
    let mut d = Demo::new(100, 30);
    // The filter is the subjects pane's `/` (the focused preview's `/`
    // searches the preview).
    d.keys("\t");
    assert_eq!(d.h.focused(), Focus::Subjects);
    d.keys("/jean\n");
    assert_eq!(d.h.subject_filter(), "jean");
    assert_eq!(d.h.focused(), Focus::Subjects);
    d.keys("\t\u{1b}");
    // First the filter goes, the focus stays.
    assert_eq!(d.h.subject_filter(), "");
    assert_eq!(d.h.focused(), Focus::Preview);
    d.keys("\u{1b}");
    assert_eq!(d.h.focused(), Focus::Subjects);
    // A dialog first: Esc closes it and leaves the filter.
    d.keys("/ryan\nn");
    assert!(matches!(d.h.mode(), Mode::Form(_)));
    d.keys("\u{1b}");
    assert!(matches!(d.h.mode(), Mode::Normal));
    assert_eq!(d.h.subject_filter(), "ryan");
}

#[test]
fn each_topic_keeps_its_own_filter_and_the_count_shows() {
    let mut d = Demo::new(100, 30);
    d.keys("\t/jean\n");
    let screen = d.screen();
    assert!(screen.contains("/ jean  (Esc clears)"), "{screen}");
    assert!(screen.contains(" 1/9"), "{screen}");
    // Another topic: no filter there (not `(no subject matches)`).
    d.topic(1);
    assert_eq!(d.h.subject_filter(), "");
    assert!(!d.screen().contains("(no subject matches)"));
    d.keys("\t/e\n");
    assert_eq!(d.h.subject_filter(), "e");
    // Back: each topic's own filter.
    d.topic(0);
    assert_eq!(d.h.subject_filter(), "jean");
    d.topic(1);
    assert_eq!(d.h.subject_filter(), "e");
}

#[test]
fn the_filter_highlights_the_matched_characters() {
    let mut d = Demo::new(100, 30);
    d.keys("\t/jn\n");
    let buffer = d.h.render();
    let screen = d.screen();
    let (y, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.split('│').nth(1).is_some_and(|c| c.contains("jean.md")))
        .unwrap();
    let x = line.chars().position(|c| c == 'j').unwrap();
    let y = u16::try_from(y).unwrap();
    let cell = |x: usize| &buffer[(u16::try_from(x).unwrap(), y)];
    assert!(
        cell(x).modifier.contains(Modifier::UNDERLINED),
        "{:?}",
        cell(x)
    );
    assert!(!cell(x + 1).modifier.contains(Modifier::UNDERLINED));
    assert!(cell(x + 3).modifier.contains(Modifier::UNDERLINED));
}

fn copied(d: &Demo) -> Vec<String> {
    d.h.outside
        .iter()
        .filter_map(|e| match e {
            Effect::Copy(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn y_copies_the_slug_the_prompt_and_the_learn_output() {
    let mut d = Demo::new(100, 30);
    d.keys("\t/jean\ny");
    assert_eq!(copied(&d), ["maintainers/jean"]);
    assert!(d.h.status_line().contains("copied the slug"));
    d.keys("2\ty");
    let prompt = d.h.section().unwrap();
    assert_eq!(copied(&d).last().unwrap(), &prompt);
    d.keys("3y");
    let learn = copied(&d).last().unwrap().clone();
    assert!(learn.contains("maintainers/jean"), "{learn}");
    assert!(d.screen().contains("copied the learn output"));
}

#[test]
fn the_prompt_wraps_with_a_marker_and_numbers_and_w_cuts() {
    let mut d = Demo::new(60, 30);
    d.keys("2");
    let screen = d.screen();
    assert!(screen.contains("   1 <knowledge>"), "{screen}");
    assert!(screen.contains("↪"), "{screen}");
    d.keys("w");
    let screen = d.screen();
    assert!(!screen.contains("↪"), "{screen}");
    assert!(d.h.status_line().contains("cut"));
    d.keys("3");
    assert!(d.screen().contains("   1 "), "{}", d.screen());
}

#[test]
fn read_only_refuses_every_edit_and_says_so() {
    let mut d = Demo::new(100, 30);
    d.h.set_read_only();
    let before = d.config_text();
    for keys in ["\t/code\nl", "d", "e", "u", "i", "n", "o"] {
        d.keys(keys);
        assert!(
            d.h.status_line().contains("--read-only"),
            "{keys}: {}",
            d.h.status_line()
        );
        assert!(matches!(d.h.mode(), Mode::Normal), "{keys}");
    }
    d.ctrl('r');
    assert!(d.h.status_line().contains("--read-only"));
    // The pattern tester browses, its Enter is refused.
    d.keys("gcode\n");
    assert!(d.h.status_line().contains("--read-only"));
    assert_eq!(d.config_text(), before);
    assert!(
        d.h.outside
            .iter()
            .all(|e| !matches!(e, Effect::OpenEditor(_)))
    );
    // Browsing still works.
    d.keys("\u{1b}2");
    assert!(d.screen().contains("<knowledge>"));
}

#[test]
fn at_40x12_forms_keep_a_visible_input_and_rows_keep_their_tokens() {
    let mut d = Demo::new(40, 12);
    d.keys("\t");
    let screen = d.screen();
    // Names are cut (`…`), the token column never.
    let rows: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("Subjects"))
        .skip(1)
        .take_while(|l| !l.starts_with('└'))
        .filter_map(|l| l.split('│').nth(1))
        .filter(|cell| cell.contains(['◌', '○', '◉', '⊘', '●']))
        .collect();
    assert!(rows.len() >= 2, "{screen}");
    assert!(rows.iter().any(|r| r.contains('…')), "{screen}");
    for row in rows {
        assert!(row.trim_end().ends_with(" tok"), "{row:?} in\n{screen}");
    }
    d.keys("n");
    d.keys("\tHello there");
    let screen = d.screen();
    assert!(screen.contains("Hello there"), "{screen}");
    d.keys("\tIntro");
    assert!(d.screen().contains("Intro"), "{}", d.screen());
}

#[test]
fn a_long_status_message_is_cut_at_a_word_and_kept_whole_in_the_log() {
    let mut d = Demo::new(80, 24);
    let long = "the quick brown fox jumps over the lazy dog and keeps on running far past the edge of any terminal";
    d.h.action(Event::Done {
        message: long.to_owned(),
        error: false,
        changed: None,
    });
    let f = footer(&d);
    assert!(f.contains("the quick brown"), "{f}");
    assert!(f.contains("… (M: whole message)"), "{f}");
    assert!(!f.contains("terminal"), "{f}");
    d.keys("M");
    assert!(matches!(d.h.mode(), Mode::Messages(_)));
    let screen = d.screen();
    assert!(screen.contains("keeps on running far past"), "{screen}");
    d.keys("\u{1b}");
    assert!(matches!(d.h.mode(), Mode::Normal));
}

#[test]
fn y_on_the_findings_copies_the_finding_under_the_cursor_only() {
    let mut d = Demo::new(160, 48);
    d.keys("t");
    d.keys("jjj");
    let shown = d.screen();
    d.keys("y");
    let copied = copied(&d);
    assert_eq!(copied.len(), 1, "{copied:?}");
    let text = &copied[0];
    // The finding under the cursor (KB107), as `check` names one: the
    // location first, then severity, code and message; nothing else.
    assert!(text.contains(": warning KB107: "), "{text}");
    assert!(!text.contains("KB006"), "{text}");
    assert!(!text.contains('❯'), "{text}");
    let place = text.split(": warning").next().unwrap();
    assert!(shown.contains(place), "{place:?} not on screen:\n{shown}");
    assert!(d.h.status_line().contains("copied the finding"));
}

#[test]
fn slash_again_starts_a_new_filter_and_an_arrow_keeps_the_old_one() {
    let mut d = Demo::new(100, 30);
    d.keys("\t/jean\n");
    assert_eq!(d.h.subject_filter(), "jean");
    // Typing right after `/` replaces the old filter (it used to append).
    d.keys("/ryan\n");
    assert_eq!(d.h.subject_filter(), "ryan");
    // An arrow key first keeps it, to edit.
    d.keys("/");
    d.h.press(KeyCode::End, KeyModifiers::NONE);
    d.keys("x\n");
    assert_eq!(d.h.subject_filter(), "ryanx");
    // Backspace right after `/` clears it whole.
    d.keys("/");
    d.h.press(KeyCode::Backspace, KeyModifiers::NONE);
    assert!(d.h.subject_filter().is_empty());
}

#[test]
fn the_pattern_tester_is_a_popup_wide_enough_for_its_lines() {
    for width in [80, 120] {
        let mut d = Demo::new(width, 30);
        d.keys("\tgmaintainers/*");
        let screen = d.screen();
        // The count and the cost of Enter are whole, not cut at the
        // subjects pane's edge: on one line at 120, wrapped in the pane at
        // 80 (where widening hid the preview's lines, issue 26 item 6).
        let whole = if width < 100 {
            screen.contains("selects 2 subjects (hidden:") && screen.contains("exact slug only)")
        } else {
            screen.contains("selects 2 subjects (hidden: exact slug only)")
        };
        assert!(whole, "{width}:\n{screen}");
        assert!(screen.contains("Pattern tester"), "{screen}");
        // The live learn output beside it stays in view.
        assert!(screen.contains("learn(topic:"), "{width}:\n{screen}");
    }
}
