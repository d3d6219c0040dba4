#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb check` in the TUI: the Findings tab (snapshots at two sizes),
//! the status line total, the topics pane counts, their styles (glyph and
//! color, `NO_COLOR` keeping the glyph), the findings following every
//! reload and saved edit, and acting on them (issue 16 item 5: the cursor,
//! `Enter` to the subject or the config line, `o` at the line, `x` fixes).

use super::tui_support;

use insta::assert_snapshot;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::Tab;
use jp_kb_core::check::Code;
use ratatui::style::Color;
use tui_support::{Demo, find};

fn codes(d: &Demo) -> Vec<Code> {
    d.h.findings().iter().map(|f| f.code).collect()
}

/// The demo's findings as `jp-kb check` reports them, errors first.
const DEMO_CODES: [Code; 4] = [
    Code::SubjectsNotFound,
    Code::HiddenUnreachable,
    Code::HiddenUnreachable,
    Code::BinarySubject,
];

/// The last two rows: the status line.
fn status_line(d: &Demo) -> String {
    let screen = d.screen();
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len() - 2..].join("\n")
}

#[test]
fn findings_tab_80x24() {
    let mut d = Demo::new(80, 24);
    d.keys("6");
    assert_eq!(d.h.preview_tab(), Tab::Findings);
    assert_snapshot!(d.screen());
}

#[test]
fn findings_tab_160x48() {
    let mut d = Demo::new(160, 48);
    d.keys("6");
    assert_snapshot!(d.screen());
}

#[test]
fn findings_tab_only_the_selected_topic() {
    let mut d = Demo::new(160, 48);
    // `t` shows the tab, a second `t` keeps only the topic's findings.
    d.keys("jjt");
    assert_eq!(d.h.preview_tab(), Tab::Findings);
    d.keys("t");
    assert_snapshot!(d.screen());
}

#[test]
fn status_line_counts_findings() {
    let d = Demo::new(100, 30);
    assert_snapshot!(status_line(&d));
}

#[test]
fn findings_are_errors_first_from_the_library() {
    let d = Demo::new(100, 30);
    assert_eq!(codes(&d), DEMO_CODES);
    let broken = &d.h.findings()[0];
    assert_eq!(broken.topic.as_deref(), Some("broken"));
    assert_eq!((broken.line, broken.column), (Some(30), Some(12)));
}

#[test]
fn error_glyph_has_the_error_color_and_no_color_keeps_the_glyph() {
    let mut d = Demo::new(160, 48);
    d.keys("6");
    let buffer = d.h.render();
    let (x, y) = find(&buffer, "✗ KB006");
    assert_eq!(buffer[(x, y)].fg, Color::Red);
    assert_eq!(buffer[(x + 2, y)].fg, Color::Red, "the code too");
    let (x, y) = find(&buffer, "⚠ KB115");
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    // The topics pane's counts.
    let (x, y) = find(&buffer, "✗1");
    assert_eq!(buffer[(x, y)].fg, Color::Red);
    let (x, y) = find(&buffer, "⚠2");
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    let (x, y) = find(&buffer, "check: 1 error, 3 warnings  ws");
    assert_eq!(buffer[(x, y)].fg, Color::Red);

    let mut plain = Demo::with_color(160, 48, false);
    plain.keys("6");
    let buffer = plain.h.render();
    for needle in ["✗ KB006", "⚠ KB115", "✗1", "⚠2", "check: 1 error"] {
        let (x, y) = find(&buffer, needle);
        assert_eq!(buffer[(x, y)].fg, Color::Reset, "{needle}");
    }
    for cell in buffer.content() {
        assert_eq!(cell.fg, Color::Reset, "fg color at {:?}", cell.symbol());
    }
}

#[test]
fn a_saved_edit_recomputes_the_findings_and_undo_restores_them() {
    let mut d = Demo::new(100, 30);
    // Disable the binary subject: its warning goes.
    d.topic(2);
    d.keys("\t");
    d.select("logo");
    d.keys("d");
    assert!(d.config_text().contains("\"logo\""), "{}", d.config_text());
    assert_eq!(
        codes(&d),
        [
            Code::SubjectsNotFound,
            Code::HiddenUnreachable,
            Code::HiddenUnreachable
        ]
    );
    assert!(status_line(&d).contains("check: 1 error, 2 warnings"));
    d.keys("u");
    assert_eq!(codes(&d), DEMO_CODES);
}

#[test]
fn a_reload_recomputes_the_findings() {
    let mut d = Demo::new(100, 30);
    // A new hidden subject nothing mentions, noticed by the watcher.
    let secret = d.root().join(".jp/kb/formats/.secret.md");
    std::fs::write(&secret, "# Secret\n").unwrap();
    d.h.action(Event::FilesChanged(vec![secret.clone()]));
    let found =
        d.h.findings()
            .iter()
            .any(|f| f.code == Code::HiddenUnreachable && f.subject.as_deref() == Some("secret"));
    assert!(found, "{:#?}", d.h.findings());
    assert!(status_line(&d).contains("check: 1 error, 4 warnings"));
    // Removing it and reloading by key: back to the demo's findings.
    std::fs::remove_file(&secret).unwrap();
    d.keys("R");
    assert_eq!(codes(&d), DEMO_CODES);
}

#[test]
fn a_config_that_does_not_parse_is_a_finding_with_its_line() {
    let mut d = Demo::new(100, 30);
    let good = d.config_text();
    std::fs::write(d.config(), format!("{good}learned = [\n")).unwrap();
    d.h.action(Event::FilesChanged(vec![d.config()]));
    assert_eq!(codes(&d), [Code::ConfigParse]);
    assert!(d.h.findings()[0].line.is_some());
    std::fs::write(d.config(), good).unwrap();
    d.h.action(Event::FilesChanged(vec![d.config()]));
    assert_eq!(codes(&d), DEMO_CODES);
}

#[test]
fn the_terminal_checks_on_a_worker_thread_and_shows_the_old_report_meanwhile() {
    let mut d = Demo::new(100, 30);
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    d.h.driver
        .check_in_background(&jp_kb::tui::worker::outbox(tx))
        .unwrap();
    let secret = d.root().join(".jp/kb/formats/.secret.md");
    std::fs::write(&secret, "# Secret\n").unwrap();
    d.h.action(Event::FilesChanged(vec![secret]));
    // Until the worker answers, the last report stays, marked pending.
    assert!(d.h.check_pending());
    assert_eq!(codes(&d), DEMO_CODES);
    assert!(status_line(&d).contains("check: 1 error, 3 warnings …"));
    let checked = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("no check came back");
    d.h.action(checked);
    assert!(!d.h.check_pending());
    assert_eq!(d.h.findings().len(), 5);
    assert!(status_line(&d).contains("check: 1 error, 4 warnings  ws"));
}

/// The demo plus a topic over the TUI's content scan limit, with a
/// pre-loaded subject large enough to break the prompt budget.
fn demo_with_a_huge_topic(width: u16, height: u16) -> Demo {
    let dir = jp_kb::tui::demo::materialize().unwrap();
    let huge = dir.path().join(".jp/kb/huge");
    std::fs::create_dir_all(&huge).unwrap();
    for i in 0..=jp_kb::tui::findings::state::CONTENT_SCAN_LIMIT {
        std::fs::write(huge.join(format!("s{i}.md")), "x\n").unwrap();
    }
    // ~40k tokens of varied words, pre-loaded: over the 20k budget.
    let big = (0..40_000).fold(String::new(), |mut s, i| {
        use std::fmt::Write as _;
        write!(s, "w{i} ").unwrap();
        s
    });
    std::fs::write(huge.join("big.md"), big).unwrap();
    let config = dir.path().join(".jp/kb.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(
        "\n[kb.topic.huge]\ntitle = \"Huge\"\nsubjects = \".jp/kb/huge\"\nlearned = [\"big\"]\n",
    );
    std::fs::write(&config, text).unwrap();
    let h = jp_kb::tui::harness::Harness::open(dir.path(), width, height, true);
    Demo { dir, h }
}

#[test]
fn findings_tab_says_partial_when_contents_were_skipped() {
    let mut d = demo_with_a_huge_topic(160, 48);
    let report = d.h.check_report().unwrap();
    assert_eq!(report.content_skipped, ["huge"]);
    // The prompt budget needs no contents: it runs anyway.
    assert!(codes(&d).contains(&Code::PromptTooLarge), "{:?}", codes(&d));
    d.keys("6");
    assert_snapshot!(d.screen());
}

#[test]
fn status_line_says_partial_when_contents_were_skipped() {
    let d = demo_with_a_huge_topic(100, 30);
    assert_snapshot!(status_line(&d));
}

// Issue 16 item 5: findings you can act on.

use jp_kb::tui::effect::Effect;
use jp_kb::tui::pane::Focus;
use ratatui::style::Modifier;

/// The row of the screen holding `needle`.
fn row_of(d: &Demo, needle: &str) -> String {
    d.screen()
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not on screen:\n{}", d.screen()))
        .to_owned()
}

#[test]
fn the_findings_cursor_moves_with_j_k_and_shows_with_a_glyph_and_the_selection_style() {
    let mut d = Demo::new(160, 48);
    d.keys("t");
    assert_eq!(d.h.focused(), Focus::Preview, "t focuses the findings");
    assert!(row_of(&d, "KB006").contains("❯✗ KB006"));
    d.keys("jjj");
    assert!(row_of(&d, "KB107").contains("❯⚠ KB107"), "{}", d.screen());
    assert!(!row_of(&d, "KB006").contains('❯'));
    // Past the end it stays on the last finding.
    d.keys("j");
    assert!(row_of(&d, "KB107").contains('❯'));
    let buffer = d.h.render();
    let (x, y) = find(&buffer, "❯⚠ KB107");
    assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    assert!(buffer[(x + 10, y)].modifier.contains(Modifier::REVERSED));
    let (x, y) = find(&buffer, " ✗ KB006");
    assert!(!buffer[(x + 1, y)].modifier.contains(Modifier::REVERSED));
    assert_snapshot!(d.screen());
}

#[test]
fn enter_on_a_subject_finding_selects_its_row_on_the_subject_tab() {
    let mut d = Demo::new(160, 48);
    // A filter on the topic would hide the row: Enter clears it.
    d.topic(2);
    d.keys("\t");
    d.select("notes");
    d.keys("tG\n");
    assert_eq!(d.h.preview_tab(), Tab::Subject);
    assert_eq!(d.h.focused(), Focus::Subjects);
    let state = d.h.topic_state().unwrap();
    assert_eq!(state.id(), "formats");
    let i = d.h.selected_subject().expect("a subject row");
    assert_eq!(d.h.subject(i).unwrap().slug(), "logo");
    assert!(d.h.subject_filter().is_empty());
    assert!(
        status_line(&d).contains("at subject `logo`"),
        "{}",
        status_line(&d)
    );
}

#[test]
fn enter_on_a_config_finding_shows_the_line_highlighted_on_the_config_tab() {
    let mut d = Demo::new(120, 24);
    d.keys("t\n");
    assert_eq!(d.h.preview_tab(), Tab::Config);
    assert_eq!(d.h.config_jump(), Some((d.config().as_path(), 30)));
    // Line 30 is on screen, marked, in the selection's style.
    let buffer = d.h.render();
    let (x, y) = find(&buffer, "▶ 30 subjects = \".jp/kb/does-not-exist\"");
    assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    assert!(buffer[(x + 8, y)].modifier.contains(Modifier::REVERSED));
    let (x, y) = find(&buffer, "  29 title = \"Broken Topic\"");
    assert!(!buffer[(x + 8, y)].modifier.contains(Modifier::REVERSED));
    assert!(
        status_line(&d).contains("at .jp/kb.toml:30"),
        "{}",
        status_line(&d)
    );
    assert_snapshot!(d.screen());
    // A tab key goes back to the edit file's view.
    d.keys("5");
    assert_eq!(d.h.config_jump(), None);
    assert!(!d.screen().contains("▶ 30"));
}

#[test]
fn o_opens_the_editor_at_the_finding_line() {
    let mut d = Demo::new(120, 30);
    d.keys("to");
    assert_eq!(d.h.outside, [Effect::OpenEditorAt(d.config(), 30)]);
    // A finding about a subject with no line opens the subject's file.
    d.h.outside.clear();
    d.keys("Go");
    let [Effect::OpenEditor(path)] = d.h.outside.as_slice() else {
        panic!("{:?}", d.h.outside);
    };
    assert!(path.ends_with("formats/logo.png"), "{}", path.display());
}

#[test]
fn x_disables_a_binary_subject_in_one_write_and_one_undo_step() {
    let mut d = Demo::new(160, 48);
    let before = d.config_text();
    d.keys("tG");
    // The footer names the fix, only on the Findings tab.
    assert!(
        status_line(&d).contains("x fix: disable \"logo\""),
        "{}",
        status_line(&d)
    );
    d.keys("x");
    let after = d.config_text();
    assert!(after.contains("disabled = [\"logo\"]"), "{after}");
    assert!(!codes(&d).contains(&Code::BinarySubject), "{:?}", codes(&d));
    d.keys("u");
    assert_eq!(d.config_text(), before, "one undo step restores the file");
    assert_eq!(codes(&d), DEMO_CODES);
    // Elsewhere the footer does not offer it, and x says where it acts.
    d.keys("1");
    assert!(!status_line(&d).contains("fix:"), "{}", status_line(&d));
    d.keys("x");
    assert_eq!(d.config_text(), before);
    assert!(
        status_line(&d).contains("Findings tab"),
        "{}",
        status_line(&d)
    );
}

#[test]
fn x_removes_a_learned_entry_that_selects_nothing() {
    let mut d = Demo::new(160, 48);
    let text = d.config_text().replace(
        "learned = [\"maintainers/*\"]",
        "learned = [\"maintainers/*\", \"gone/**\"]",
    );
    std::fs::write(d.config(), &text).unwrap();
    d.h.action(Event::FilesChanged(vec![d.config()]));
    assert!(
        codes(&d).contains(&Code::LearnedSelectsNothing),
        "{:?}",
        codes(&d)
    );
    d.keys("t");
    let at =
        d.h.findings_shown()
            .iter()
            .position(|f| f.code == Code::LearnedSelectsNothing)
            .unwrap();
    d.keys(&"j".repeat(at));
    assert!(
        status_line(&d).contains("x fix: remove \"gone/**\" from learned"),
        "{}",
        status_line(&d)
    );
    d.keys("x");
    assert!(
        d.config_text().contains("learned = [\"maintainers/*\"]"),
        "{}",
        d.config_text()
    );
    assert!(!codes(&d).contains(&Code::LearnedSelectsNothing));
    d.keys("u");
    assert_eq!(d.config_text(), text);
}

#[test]
fn a_finding_with_no_fix_says_so_and_x_changes_nothing() {
    let mut d = Demo::new(160, 48);
    let before = d.config_text();
    d.keys("tx");
    assert_eq!(d.config_text(), before);
    assert!(
        status_line(&d).contains("KB006 has no automatic fix"),
        "{}",
        status_line(&d)
    );
    assert!(!status_line(&d).contains("fix:"));
}

#[test]
fn read_only_refuses_the_fix() {
    let mut d = Demo::new(160, 48);
    d.h.set_read_only();
    let before = d.config_text();
    d.keys("tGx");
    assert_eq!(d.config_text(), before);
    assert!(d.h.status_is_error(), "{:?}", d.h.status_line());
}
