#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The TUI's search mode (issue 17 item 3), driven through the real key
//! map, `update`, the driver (searching inline, on an index in memory)
//! and the views, on the bundled demo: hits across every enabled topic,
//! hidden ones marked, disabled ones never; `Enter` goes to the subject;
//! `l`/`d` act on the hit through the planner as on a row; `Esc` leaves.

mod tui_support;

use insta::assert_snapshot;
use jp_kb::tui::app::{Focus, Mode, Tab};
use jp_kb::tui::event::Event;
use jp_kb::tui::search_mode::Found;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::style::Color;
use tui_support::Demo;

fn demo() -> Demo {
    Demo::new(100, 30)
}

/// `topic/slug` of every hit shown, best first.
fn hits(d: &Demo) -> Vec<String> {
    d.h.app
        .search
        .hits
        .iter()
        .map(|h| format!("{}/{}", h.topic, h.slug))
        .collect()
}

fn selected_slug(d: &Demo) -> Option<String> {
    let i = d.h.app.selected_subject()?;
    Some(d.h.app.subject(i)?.slug().to_owned())
}

fn topic_id(d: &Demo) -> String {
    d.h.app.topic_state().unwrap().id().to_owned()
}

#[test]
fn s_opens_a_query_line_whose_hits_follow_the_typing() {
    let mut d = demo();
    d.keys("S");
    assert!(matches!(d.h.app.mode, Mode::Search(false)));
    assert!(d.screen().contains("Search:"), "{}", d.screen());
    d.keys("releas");
    // A word still being typed matches by its prefix.
    assert!(
        hits(&d).contains(&"project/release".to_owned()),
        "{:?}",
        hits(&d)
    );
    d.keys("e");
    let found = hits(&d);
    assert_eq!(found.first().map(String::as_str), Some("project/release"));
    // The hidden subject that mentions the word is listed, and marked.
    assert!(
        found.contains(&"project/internal-notes".to_owned()),
        "{found:?}"
    );
    let screen = d.screen();
    assert!(screen.contains("internal-notes (hidden)"), "{screen}");
    // `l` on the query line is a letter of the query, not a toggle.
    let before = d.config_text();
    d.keys(" l");
    assert_eq!(d.h.app.search.query(), "release l");
    assert_eq!(d.config_text(), before);
}

#[test]
fn disabled_subjects_and_topics_never_appear() {
    let mut d = demo();
    // `drafts/roadmap` (a disabled glob), `skills/obsolete` (a disabled
    // slug) and the disabled topic `archive` all hold these words.
    for query in ["roadmap draft", "obsolete", "old notes enable"] {
        d.keys("S");
        d.h.app.search.input = ratatui_textarea::TextArea::default();
        d.keys(query);
        let found = hits(&d);
        assert!(
            !found.iter().any(|h| h.contains("roadmap")
                || h == "skills/obsolete"
                || h.starts_with("archive/")),
            "{query}: {found:?}"
        );
        d.keys("\u{1b}");
    }
}

#[test]
fn enter_goes_to_the_subject_in_its_topic_on_the_subject_tab() {
    let mut d = demo();
    d.keys("S");
    d.keys("commit messages");
    assert_eq!(hits(&d).first().map(String::as_str), Some("skills/git"));
    d.keys("\n");
    assert!(matches!(d.h.app.mode, Mode::Normal));
    assert_eq!(topic_id(&d), "skills");
    assert_eq!(selected_slug(&d).as_deref(), Some("git"));
    assert_eq!(d.h.app.focus, Focus::Subjects);
    assert_eq!(d.h.app.preview.tab, Tab::Subject);
    assert!(d.screen().contains("Commit often"), "{}", d.screen());
}

#[test]
fn enter_on_a_hidden_hit_shows_hidden_subjects_to_select_its_row() {
    let mut d = demo();
    // Hidden and disabled subjects are not shown in the subjects pane.
    d.keys("\t.");
    assert!(!d.h.app.subjects.show_hidden);
    d.keys("S");
    d.keys("release key");
    assert_eq!(
        hits(&d).first().map(String::as_str),
        Some("project/internal-notes")
    );
    d.keys("\n");
    assert!(d.h.app.subjects.show_hidden);
    assert_eq!(topic_id(&d), "project");
    assert_eq!(selected_slug(&d).as_deref(), Some("internal-notes"));
}

#[test]
fn l_and_d_on_a_hit_edit_through_the_planner_as_on_a_row_and_u_undoes() {
    let mut d = demo();
    d.keys("S");
    d.keys("releasing");
    assert_eq!(
        hits(&d).first().map(String::as_str),
        Some("project/release")
    );
    // Tab gives the keys to the hit list; `l` learns the hit's subject.
    d.keys("\tl");
    assert!(matches!(d.h.app.mode, Mode::Search(true)));
    let text = d.config_text();
    assert!(
        text.contains(r#"learned = ["maintainers/*", "release"]"#),
        "{text}"
    );
    // The reload searched again: the hit now shows as learned.
    let hit = d.h.app.search.hits.first().unwrap();
    assert!(hit.learned, "{hit:?}");
    assert!(d.screen().contains("● project/release"), "{}", d.screen());
    // `u` undoes, still in the mode.
    d.keys("u");
    assert!(d.config_text().contains(r#"learned = ["maintainers/*"]"#));
    assert!(!d.h.app.search.hits.first().unwrap().learned);
    // `d` disables it: it leaves the hits (disabled never appear).
    d.keys("d");
    assert!(
        d.config_text()
            .contains(r#"disabled = ["drafts/**", "release"]"#),
        "{}",
        d.config_text()
    );
    assert!(
        !hits(&d).contains(&"project/release".to_owned()),
        "{:?}",
        hits(&d)
    );
}

#[test]
fn esc_leaves_and_s_comes_back_to_the_same_query() {
    let mut d = demo();
    d.keys("S");
    d.keys("git");
    d.keys("\u{1b}");
    assert!(matches!(d.h.app.mode, Mode::Normal));
    assert!(!d.screen().contains("Search:"));
    d.keys("S");
    assert_eq!(d.h.app.search.query(), "git");
    assert!(hits(&d).contains(&"skills/git".to_owned()));
    // Ctrl-c still quits from the query line.
    d.ctrl('c');
    assert!(d.h.app.quit);
}

#[test]
fn a_query_without_words_says_why_and_searches_nothing() {
    let mut d = demo();
    d.keys("S");
    d.keys("*.[");
    assert!(d.h.app.search.hits.is_empty());
    let screen = d.screen();
    assert!(screen.contains("has no letters or digits"), "{screen}");
    // Backspace to empty: the hint, no error.
    for _ in 0..3 {
        d.h.press(KeyCode::Backspace, KeyModifiers::NONE);
    }
    assert!(d.h.app.search.error.is_none());
    assert!(d.screen().contains("Type words to search"));
}

#[test]
fn an_answer_to_an_older_query_is_dropped() {
    let mut d = demo();
    d.keys("S");
    d.keys("git");
    let shown = hits(&d);
    let asked = d.h.app.search.asked;
    // A worker's late answer to the query before: not shown.
    d.h.action(Event::Searched(Box::new(Found {
        generation: asked - 1,
        result: Ok(Vec::new()),
        notes: Vec::new(),
    })));
    assert_eq!(hits(&d), shown);
}

#[test]
fn help_and_footer_name_the_search_keys_from_the_key_table() {
    let mut d = demo();
    d.keys("?");
    let help = d.screen();
    assert!(help.contains("search all topics by words"), "{help}");
    d.keys("\u{1b}S");
    let footer = d.screen();
    assert!(footer.contains("Enter go to"), "{footer}");
    assert!(footer.contains("Tab hits (l/d)"), "{footer}");
    d.keys("git\t");
    let footer = d.screen();
    assert!(footer.contains("l learn"), "{footer}");
    assert!(footer.contains("d disable"), "{footer}");
}

/// The screen with its styles (as `tui_snapshots`' styled snapshots):
/// each row's text, then every run of cells with a non-default style.
fn styled_screen(d: &Demo) -> String {
    use std::fmt::Write as _;
    let buffer = d.h.render();
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let row: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
        let _ = writeln!(out, "{}", row.trim_end());
        let mut x = 0;
        while x < area.width {
            let style = buffer[(x, y)].style();
            let start = x;
            while x < area.width && buffer[(x, y)].style() == style {
                x += 1;
            }
            if style.fg.is_some_and(|c| c != Color::Reset)
                || style.bg.is_some_and(|c| c != Color::Reset)
                || !style.add_modifier.is_empty()
            {
                let text: String = (start..x).map(|x| buffer[(x, y)].symbol()).collect();
                let _ = writeln!(
                    out,
                    "    {start}..{x} {:?} fg={:?} bg={:?} {:?}",
                    text.trim_end(),
                    style.fg.unwrap_or(Color::Reset),
                    style.bg.unwrap_or(Color::Reset),
                    style.add_modifier
                );
            }
        }
    }
    tui_support::filter(&out, &d.root())
}

/// The search screen with its styles: markers with glyph and color (the
/// hidden hit, the learned one), the selected hit, the matched words
/// highlighted in the snippets, the footer's keys.
#[test]
fn styled_search_screen() {
    let mut d = demo();
    d.keys("S");
    d.keys("release jean");
    d.keys("\t");
    assert_snapshot!(styled_screen(&d));
}
