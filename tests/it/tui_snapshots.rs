#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Whole-screen snapshots of every pane, preview tab, dialog, overlay and
//! error state on ratatui's `TestBackend`, driven by key presses through
//! the real key map and `update`. Snapshots carry no color; the style
//! tests at the end check the cells where color carries meaning.

use super::tui_support;

use insta::assert_snapshot;
use jp_kb::tui::command::Command;
use jp_kb::tui::event::Event;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::style::Color;
use tui_support::{Demo, find};

fn demo() -> Demo {
    Demo::new(100, 30)
}

#[test]
fn main_screen_topics_focused() {
    assert_snapshot!(demo().screen());
}

#[test]
fn subjects_pane_focused_on_a_glob_learned_subject() {
    let mut d = demo();
    d.keys("\t");
    d.select("jean");
    assert_snapshot!(d.screen());
}

#[test]
fn subjects_pane_hiding_hidden_and_disabled() {
    let mut d = demo();
    d.keys("\t.");
    assert_snapshot!(d.screen());
}

#[test]
fn subjects_pane_collapsed_directory() {
    let mut d = demo();
    d.keys("\tjjj\n");
    assert_snapshot!(d.screen());
}

#[test]
fn subjects_of_a_topic_with_hidden_learned_and_disabled() {
    let mut d = demo();
    d.keys("j\t");
    assert_snapshot!(d.screen());
}

#[test]
fn filter_input() {
    let mut d = demo();
    d.keys("\t/mai");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_subject_markdown() {
    let mut d = demo();
    d.keys("\t");
    d.select("code-q");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_subject_fenced_toml() {
    let mut d = demo();
    d.topic(2);
    d.keys("\t");
    d.select("config");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_subject_binary() {
    let mut d = demo();
    d.topic(2);
    d.keys("\t");
    d.select("logo");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_subject_scrolled_in_preview() {
    let mut d = demo();
    d.keys("\t");
    d.select("code-q");
    d.keys("\tjjjjjjjjjj");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_prompt() {
    let mut d = demo();
    d.keys("2");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_learn() {
    let mut d = demo();
    d.keys("3");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_tool() {
    let mut d = demo();
    d.keys("4");
    assert_snapshot!(d.screen());
}

#[test]
fn tab_config_with_changed_line_highlighted() {
    let mut d = demo();
    d.keys("\t");
    d.select("release");
    d.keys("l5");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_glob_fix() {
    let mut d = demo();
    d.keys("\t");
    d.select("jean");
    d.keys("l");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_directory_toggle() {
    let mut d = demo();
    d.keys("\t");
    d.select("onboarding");
    d.h.press(KeyCode::Home, KeyModifiers::NONE);
    d.keys("d");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_edit_topic() {
    let mut d = demo();
    d.keys("i");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_new_topic_with_validation_error() {
    let mut d = demo();
    d.keys("nbad id\n");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_pattern_tester() {
    let mut d = demo();
    d.keys("gmaintainers/*");
    assert_snapshot!(d.screen());
}

#[test]
fn help_overlay() {
    let mut d = demo();
    d.keys("?");
    assert_snapshot!(d.screen());
}

#[test]
fn error_topic_directory_missing() {
    let mut d = demo();
    d.topic(4);
    assert_snapshot!(d.screen());
}

#[test]
fn error_config_read_only() {
    let mut d = demo();
    let good = d.config_text();
    std::fs::write(d.config(), format!("{good}learned = [\n")).unwrap();
    d.h.action(Event::FilesChanged(vec![d.config()]));
    assert_snapshot!(d.screen());
}

#[test]
fn error_workspace_cannot_be_loaded() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".jp")).unwrap();
    std::fs::write(dir.path().join(".jp/config.toml"), "[kb.topic.x\n").unwrap();
    let h = jp_kb::tui::harness::Harness::open(dir.path(), 80, 16, true);
    let root = dir.path().canonicalize().unwrap();
    assert_snapshot!(tui_support::filter(&h.screen(), &root));
}

#[test]
fn demo_banner_with_no_workspace_says_how_to_start_one() {
    let mut d = Demo::new(160, 12);
    d.h.set_banner(jp_kb::tui::demo::banner(
        false,
        std::path::Path::new("/home/me/project"),
    ));
    assert_snapshot!(d.screen());
}

#[test]
fn demo_banner_with_demo_flag_says_the_copy_is_deleted() {
    let mut d = Demo::new(100, 12);
    d.h.set_banner(jp_kb::tui::demo::banner(true, std::path::Path::new("/w")));
    assert_snapshot!(d.screen());
}

#[test]
fn size_narrow_60x20() {
    assert_snapshot!(Demo::new(60, 20).screen());
}

#[test]
fn size_narrow_60x20_prompt() {
    let mut d = Demo::new(60, 20);
    d.keys("2");
    assert_snapshot!(d.screen());
}

#[test]
fn size_wide_160x48() {
    let mut d = Demo::new(160, 48);
    d.keys("\t");
    d.select("code-q");
    assert_snapshot!(d.screen());
}

#[test]
fn resize_relays_out_the_screen() {
    let mut d = Demo::new(100, 30);
    d.h.action(Event::Resize(60, 20));
    assert_eq!(d.screen(), Demo::new(60, 20).screen());
}

// ---- styles: where color carries meaning ----

#[test]
fn markers_have_glyph_and_color() {
    let mut d = demo();
    d.keys("\t");
    let buffer = d.h.render();
    let cases = [
        ("◉", Color::Green),
        ("⊘", Color::Red),
        ("◌", Color::DarkGray),
        ("✗", Color::Red),
    ];
    for (glyph, color) in cases {
        let cell = &buffer[find(&buffer, glyph)];
        assert_eq!(cell.fg, color, "{glyph}");
    }
}

/// Glyph and color of the subject markers (learned by slug and by glob,
/// disabled, hidden) and of the selected row, in the subjects pane.
#[test]
fn styled_subjects_pane_markers_and_selection() {
    let mut d = demo();
    d.keys("j\t");
    assert_snapshot!(d.styled_screen());
}

/// Issue 16 item 3: marked rows carry `+` and the marks' colour (name
/// too), the pane title counts them, the footer says what l/d act on.
#[test]
fn styled_marked_rows() {
    let mut d = demo();
    d.keys("jj	");
    d.keys("  ");
    assert_snapshot!(d.styled_screen());
}

/// Glyph and color of the topic markers (enabled, disabled, error) and of
/// the selected topic.
#[test]
fn styled_topics_pane_markers_and_selection() {
    let d = demo();
    assert_snapshot!(d.styled_screen());
}

#[test]
fn changed_config_lines_are_highlighted() {
    let mut d = demo();
    d.keys("\t");
    d.select("release");
    d.keys("l5");
    let buffer = d.h.render();
    let text = jp_kb::tui::harness::buffer_text(&buffer);
    let row = text
        .lines()
        .position(|l| l.contains("\"release\"]"))
        .expect("changed line shown");
    let row = u16::try_from(row).unwrap();
    let x = text
        .lines()
        .nth(usize::from(row))
        .unwrap()
        .find("learned")
        .unwrap();
    let x = u16::try_from(
        text.lines().nth(usize::from(row)).unwrap()[..x]
            .chars()
            .count(),
    )
    .unwrap();
    assert_eq!(buffer[(x, row)].bg, Color::Yellow);
    // The next file line (after the wrapped rest of this one) is not.
    assert!(
        text.lines()
            .nth(usize::from(row) + 2)
            .unwrap()
            .contains("  10 disabled")
    );
    assert_ne!(buffer[(x, row + 2)].bg, Color::Yellow);
}

#[test]
fn prompt_size_warns_above_the_threshold() {
    let mut d = demo();
    let buffer = d.h.render();
    let text = jp_kb::tui::harness::buffer_text(&buffer);
    assert!(text.contains("prompt: 245 tok"), "{text}");
    // Learning a big file pushes the prompt over the threshold.
    let dir = d.root().join(".jp/kb/project");
    std::fs::write(
        dir.join("zz-big.md"),
        "lorem ipsum dolor sit amet ".repeat(2000),
    )
    .unwrap();
    d.h.action(Command::Reload);
    d.keys("\t");
    d.select("zz");
    d.keys("l");
    let buffer = d.h.render();
    let (x, y) = find(&buffer, "⚠");
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
}

#[test]
fn no_color_draws_no_color_but_keeps_glyphs() {
    let mut d = Demo::with_color(100, 30, false);
    d.keys("\t");
    d.select("code-q");
    d.keys("l/\u{1b}5");
    let buffer = d.h.render();
    for cell in buffer.content() {
        assert_eq!(cell.fg, Color::Reset, "fg color at {:?}", cell.symbol());
        assert_eq!(cell.bg, Color::Reset, "bg color at {:?}", cell.symbol());
    }
    let text = jp_kb::tui::harness::buffer_text(&buffer);
    assert!(text.contains('●') && text.contains('◉') && text.contains('⊘'));
}

#[test]
fn first_frame_before_the_walks_then_the_loaded_state() {
    let dir = jp_kb::tui::demo::materialize().expect("demo");
    let (h, loads) = jp_kb::tui::harness::Harness::open_loading(dir.path(), 100, 30, true, false);
    let mut d = Demo { dir, h };
    assert!(!d.h.is_loaded() && d.h.is_loading());
    assert_snapshot!(d.screen());
    // Keys are kept for the load, never acted on before it (no panic,
    // no edit planned from what is not loaded yet).
    let before = d.config_text();
    let keys = "\tjjl\nduGg/x\u{1b}.n\u{1b}e5";
    d.keys(keys);
    d.ctrl('r');
    assert!(d.h.outside.is_empty(), "{:?}", d.h.outside);
    assert_eq!(d.config_text(), before);
    assert!(!d.h.is_loaded());
    // The listing (rows without sizes), then the load, which replaces
    // the pre-load screen with the synchronous one, the keys applied.
    let listed = loads.recv().expect("the listing arrives");
    assert!(matches!(listed, Event::Listed(_)));
    d.h.action(listed);
    let loaded = loads.recv().expect("the load arrives");
    assert!(matches!(loaded, Event::Loaded(_)));
    d.h.action(loaded);
    assert!(!d.h.is_loading());
    let mut after = demo();
    after.keys(keys);
    after.ctrl('r');
    assert_eq!(d.screen(), after.screen());
    assert_eq!(d.config_text(), after.config_text());
}

#[test]
fn dialog_directory_learn_on_a_hidden_directory() {
    let mut d = demo();
    d.keys("\t");
    d.select("hidden-dir");
    d.h.press(KeyCode::Home, KeyModifiers::NONE);
    d.keys("l");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_directory_disable_removing_a_preloaded_hidden_subject() {
    let mut d = demo();
    d.topic(1);
    d.keys("\t");
    d.select("ast-grep");
    d.h.press(KeyCode::Home, KeyModifiers::NONE);
    d.keys("d");
    assert_snapshot!(d.screen());
}

#[test]
fn dialog_pattern_tester_in_disabled_mode() {
    let mut d = demo();
    d.keys("g**\t");
    assert_snapshot!(d.screen());
}

/// Issue 14 item 1: `f` lists every layer with its role, whether it
/// declares the topic, and the layers still to be created.
#[test]
fn dialog_layer_picker() {
    let mut d = demo();
    d.keys("f");
    assert_snapshot!(d.screen());
}

/// Issue 14 item 6: turning a whole topic off asks first, with what
/// leaves the prompt and the token change.
#[test]
fn dialog_confirm_turning_a_topic_off() {
    let mut d = demo();
    d.keys("e");
    assert_snapshot!(d.screen());
}
