#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb check` in the TUI: the Findings tab (snapshots at two sizes),
//! the status line total, the topics pane counts, their styles (glyph and
//! color, `NO_COLOR` keeping the glyph), and the findings following every
//! reload and saved edit.

mod tui_support;

use insta::assert_snapshot;
use jp_kb::check::Code;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::Tab;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use tui_support::Demo;

fn codes(d: &Demo) -> Vec<Code> {
    d.h.app.findings.all().iter().map(|f| f.code).collect()
}

/// The demo's findings as `jp-kb check` reports them, errors first.
const DEMO_CODES: [Code; 4] = [
    Code::SubjectsNotFound,
    Code::HiddenUnreachable,
    Code::HiddenUnreachable,
    Code::BinarySubject,
];

/// The cell where `needle` (single-width characters) starts on screen.
fn find(buffer: &Buffer, needle: &str) -> (u16, u16) {
    let chars: Vec<String> = needle.chars().map(String::from).collect();
    let area = buffer.area;
    for y in 0..area.height {
        for x in 0..area.width {
            let fits = chars.iter().enumerate().all(|(i, ch)| {
                let x = x + u16::try_from(i).unwrap();
                x < area.width && buffer[(x, y)].symbol() == ch
            });
            if fits {
                return (x, y);
            }
        }
    }
    panic!("{needle:?} not on screen");
}

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
    assert_eq!(d.h.app.preview.tab, Tab::Findings);
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
    assert_eq!(d.h.app.preview.tab, Tab::Findings);
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
    let broken = &d.h.app.findings.all()[0];
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
        d.h.app
            .findings
            .all()
            .iter()
            .any(|f| f.code == Code::HiddenUnreachable && f.subject.as_deref() == Some("secret"));
    assert!(found, "{:#?}", d.h.app.findings.all());
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
    assert!(d.h.app.findings.all()[0].line.is_some());
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
    assert!(d.h.app.findings.pending);
    assert_eq!(codes(&d), DEMO_CODES);
    assert!(status_line(&d).contains("check: 1 error, 3 warnings …"));
    let checked = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("no check came back");
    d.h.action(checked);
    assert!(!d.h.app.findings.pending);
    assert_eq!(d.h.app.findings.all().len(), 5);
    assert!(status_line(&d).contains("check: 1 error, 4 warnings  ws"));
}

/// The demo plus a topic over the TUI's content scan limit, with a
/// pre-loaded subject large enough to break the prompt budget.
fn demo_with_a_huge_topic(width: u16, height: u16) -> Demo {
    let dir = jp_kb::tui::demo::materialize().unwrap();
    let huge = dir.path().join(".jp/kb/huge");
    std::fs::create_dir_all(&huge).unwrap();
    for i in 0..=jp_kb::tui::findings::CONTENT_SCAN_LIMIT {
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
    let report = d.h.app.findings.report.as_ref().unwrap();
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
