#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 26 item 5: the filter (`/`) matches the name a row shows, with
//! its extension, as well as the slug.

use super::tui_support;

use tui_support::Demo;

#[test]
fn the_filter_finds_rows_by_their_extension() {
    let mut d = Demo::new(120, 40);
    d.topic(2);
    d.keys("\t/.json");
    let screen = d.screen();
    assert!(screen.contains("data.json"), "{screen}");
    assert!(!screen.contains("main.rs"), "{screen}");
    d.keys("\u{1b}/notes.txt");
    let screen = d.screen();
    assert!(screen.contains("notes.txt"), "{screen}");
    assert!(!screen.contains("data.json"), "{screen}");
}

/// Issue 26 item 8: the help's long key lists keep a space before their
/// meaning.
#[test]
fn the_help_separates_long_keys_from_their_meaning() {
    let mut d = Demo::new(120, 200);
    d.keys("?");
    let screen = d.screen();
    assert!(!screen.contains("9choose"), "{screen}");
    assert!(screen.contains("9 choose option"), "{screen}");
}
