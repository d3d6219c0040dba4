#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 26 item 8, the last of it: the pattern tester in disabled mode
//! says its count in one wording; a dialog's option, chosen, is not asked
//! about again with the same lines; the tester's result (the Learn tab
//! beside it) scrolls with PgDn/PgUp, which its footer names. Read from
//! the drawn screen.

use super::tui_support::Demo;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

#[test]
fn the_tester_in_disabled_mode_says_its_count_one_way() {
    let mut d = Demo::new(160, 48);
    d.keys("g**\t");
    let screen = d.screen();
    assert!(
        screen.contains("disables 6 subjects and 2 hidden ones"),
        "{screen}"
    );
    // The other wording of the same count is gone.
    assert!(!screen.contains("(2 hidden)"), "{screen}");
    assert!(!screen.contains("disables 8 subjects"), "{screen}");
}

#[test]
fn a_chosen_option_is_not_confirmed_again_with_the_same_lines() {
    let mut d = Demo::new(160, 48);
    d.topic(1);
    d.keys("\t");
    d.select("ast-grep");
    d.h.press(KeyCode::Home, KeyModifiers::NONE);
    d.keys("d");
    let screen = d.screen();
    // The option says why it would ask first, under its effect.
    assert!(
        screen.contains("⚠ removes 1 pre-loaded subject from the prompt"),
        "{screen}"
    );
    let before = d.config_text();
    d.keys("1");
    let screen = d.screen();
    assert!(!screen.contains("Confirm"), "asked again:\n{screen}");
    assert!(!d.h.status_is_error(), "{}", d.h.status_line());
    assert_ne!(d.config_text(), before, "the choice made no change");
}

#[test]
fn the_testers_result_scrolls_with_page_keys_named_in_its_footer() {
    let mut d = Demo::new(120, 24);
    d.keys("g**");
    let screen = d.screen();
    assert!(screen.contains("PgDn/PgUp scroll the result"), "{screen}");
    let first = screen.clone();
    d.h.press(KeyCode::PageDown, KeyModifiers::NONE);
    let down = d.screen();
    assert_ne!(down, first, "PgDn did not scroll the result");
    // The pattern kept the keys: still `**`.
    assert!(down.contains("**"), "{down}");
    d.h.press(KeyCode::PageUp, KeyModifiers::NONE);
    assert_eq!(d.screen(), first, "PgUp did not scroll back");
}
