#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The Prompt tab's client views (issue 15): what JP, Claude Code and
//! Codex receive, channel by channel, with the client's cut drawn; the
//! text equals `jp-kb prompt --client NAME`.

use super::common;
use super::tui_support;

use insta::assert_snapshot;
use jp_kb::tui::client_prompt::Row;
use jp_kb::tui::command::Command;
use jp_kb_core::clients::{Client, Texts, plan};
use jp_kb_core::display::clean_text;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use tui_support::Demo;

/// The demo with a 3,000-character maintainer pre-loaded, so the section
/// is longer than Claude Code's 2,048-character cut.
fn long_demo(width: u16, height: u16) -> Demo {
    let mut d = Demo::new(width, height);
    std::fs::write(
        d.root().join(".jp/kb/project/maintainers/zed.md"),
        "All about Zed. ".repeat(200),
    )
    .unwrap();
    d.h.action(Command::Reload);
    d
}

fn connect(d: &mut Demo, client: Client) {
    {
        let kb = d.h.kb().unwrap();
        let writes = plan(client, kb, &Texts::of(kb)).unwrap();
        let mut journal = jp_kb_core::edit::Journal::new(kb.boundaries());
        jp_kb_core::clients::write_all(&writes, &mut journal).unwrap();
    }
    d.h.action(Command::Reload);
}

/// Shows the Prompt tab as `client` (the key cycles RFD → JP → Claude
/// Code → Codex).
fn show(d: &mut Demo, client: &str) {
    d.keys("2");
    while d.h.prompt_client() != Some(client) {
        d.keys("c");
    }
}

/// The view's rows, all of them.
fn rows(d: &Demo, client: &str) -> Vec<Row> {
    let model = d.h.model().unwrap();
    let view = model.client_prompt(client).expect("computed when shown");
    view.result.as_ref().unwrap().rows().to_vec()
}

/// A generated file that no longer holds what `sync` writes (a subject
/// changed outside jp-kb) is said in the client's view (issue 24 item 13).
#[test]
fn a_stale_generated_file_is_said_in_the_client_view() {
    let mut d = Demo::new(160, 40);
    connect(&mut d, Client::named("claude-code").unwrap());
    show(&mut d, "claude-code");
    assert!(!d.screen().contains("out-of-date"), "{}", d.screen());
    let learned = d.root().join(".jp/kb/project/maintainers/jean.md");
    std::fs::write(&learned, "Jean, changed outside jp-kb.\n").unwrap();
    d.h.action(Command::Reload);
    show(&mut d, "claude-code");
    let screen = d.screen();
    assert!(screen.contains("out-of-date"), "{screen}");
    assert!(screen.contains("jp-kb sync"), "{screen}");
}

#[test]
fn claude_code_view_draws_the_cut_of_a_long_section() {
    let mut d = long_demo(120, 60);
    show(&mut d, "claude-code");
    assert_snapshot!(d.screen());
}

#[test]
fn jp_view_without_connect_says_the_instructions_are_dropped() {
    let mut d = Demo::new(120, 40);
    show(&mut d, "jp");
    let screen = d.screen();
    assert!(screen.contains("dropped by JP"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn jp_view_after_connect_shows_the_system_prompt_section_whole() {
    let mut d = Demo::new(120, 40);
    connect(&mut d, Client::JP);
    show(&mut d, "jp");
    let section = d.h.section().unwrap();
    let text: Vec<String> = rows(&d, "jp")
        .into_iter()
        .skip_while(|r| !matches!(r, Row::Header(h) if h.contains("system-prompt section")))
        .skip(1)
        .take_while(|r| matches!(r, Row::Text(_)))
        .map(|r| match r {
            Row::Text(t) => t,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(text.join("\n"), section);
    assert_snapshot!(d.screen());
}

#[test]
fn the_cut_marker_is_drawn_in_the_warning_colour() {
    let mut d = long_demo(120, 60);
    show(&mut d, "claude-code");
    let buffer = d.h.render();
    let text = jp_kb::tui::harness::buffer_text(&buffer);
    let (y, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("✂── Claude Code"))
        .expect("cut marker on screen");
    let x = line[..line.find('✂').unwrap()].chars().count();
    let cell = &buffer[(u16::try_from(x).unwrap(), u16::try_from(y).unwrap())];
    assert_eq!(cell.symbol(), "✂");
    assert_eq!(cell.fg, Color::Yellow);
    // The text before it is not styled as a marker.
    let above = &buffer[(u16::try_from(x).unwrap(), u16::try_from(y - 1).unwrap())];
    assert_ne!(above.fg, Color::Yellow);
}

/// The preview body's rows as drawn, and as wrapping the whole view and
/// scrolling it would draw them (what the view drew before it drew only
/// the lines in view).
fn drawn_and_whole(d: &Demo, client: &str) -> (Vec<String>, Vec<String>) {
    let preview = d.h.areas().preview;
    let body = Rect::new(
        preview.x + 1,
        preview.y + 2,
        preview.width - 2,
        preview.height - 3,
    );
    let screen = d.h.render();
    let cut = |buffer: &Buffer, area: Rect, at: (u16, u16)| -> Vec<String> {
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buffer[(at.0 + x, at.1 + y)].symbol().to_owned())
                    .collect()
            })
            .collect()
    };
    let text = Text::from(
        rows(d, client)
            .iter()
            .map(|r| Line::raw(clean_text(r.text(), true).into_owned()))
            .collect::<Vec<_>>(),
    );
    let paragraph = |t: Text<'static>| {
        if d.h.wraps() {
            Paragraph::new(t).wrap(Wrap { trim: false })
        } else {
            Paragraph::new(t)
        }
    };
    let last = paragraph(text.clone())
        .line_count(body.width)
        .saturating_sub(usize::from(body.height));
    let scroll = u16::try_from(d.h.preview_scroll().min(last)).unwrap();
    let area = Rect::new(0, 0, body.width, body.height);
    let mut whole = Buffer::empty(area);
    paragraph(text).scroll((scroll, 0)).render(area, &mut whole);
    (
        cut(&screen, body, (body.x, body.y)),
        cut(&whole, area, (0, 0)),
    )
}

#[test]
fn a_long_client_view_draws_every_scroll_as_wrapping_it_whole_would() {
    // Narrow, so the 3,000-character subject wraps into many rows.
    let mut d = long_demo(70, 20);
    show(&mut d, "codex");
    while d.h.focused() != jp_kb::tui::pane::Focus::Preview {
        d.keys("\t");
    }
    let last_line = rows(&d, "codex").last().unwrap().text().to_owned();
    for keys in ["", "w"] {
        d.keys(keys);
        d.keys("G");
        let (drawn, whole) = drawn_and_whole(&d, "codex");
        assert_eq!(drawn, whole, "at the end (wrap {})", d.h.wraps());
        let bottom = drawn.last().unwrap().trim_end();
        assert!(
            last_line.ends_with(bottom) && !bottom.is_empty(),
            "{bottom:?} ends {last_line:?}"
        );
        // Up row by row, a page at a time, to the top and down again.
        for step in ["k", "k", "PgUp", "k"].iter().cycle().take(60) {
            match *step {
                "k" => d.keys("k"),
                _ => d.h.press(KeyCode::PageUp, KeyModifiers::NONE),
            }
            let (drawn, whole) = drawn_and_whole(&d, "codex");
            assert_eq!(drawn, whole, "at scroll {}", d.h.preview_scroll());
        }
        d.h.press(KeyCode::Home, KeyModifiers::NONE);
        for _ in 0..40 {
            d.h.press(KeyCode::PageDown, KeyModifiers::NONE);
            d.keys("j");
            let (drawn, whole) = drawn_and_whole(&d, "codex");
            assert_eq!(drawn, whole, "at scroll {}", d.h.preview_scroll());
        }
    }
}

/// The rows `prompt --client` prints: headers and text, not the notes
/// and cut markers the TUI adds.
fn as_cli(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows {
        match row {
            Row::Header(s) | Row::Text(s) => {
                out.push_str(s);
                out.push('\n');
            }
            Row::Note(_) | Row::Cut(_) => {}
        }
    }
    out
}

fn cli(d: &Demo, client: &str) -> String {
    let sandbox = tempfile::tempdir().unwrap();
    let out = common::jp_kb_std(sandbox.path(), &d.root())
        .args(["prompt", "--client", client])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_client_view_equals_prompt_client() {
    let mut d = long_demo(120, 40);
    for client in ["jp", "claude-code", "codex"] {
        show(&mut d, client);
        let rows = rows(&d, client);
        assert!(rows.iter().any(|r| matches!(r, Row::Header(_))), "{client}");
        assert_eq!(as_cli(&rows), cli(&d, client), "{client}");
    }
    // Connected, each client reads what `connect` wrote: JP the section
    // through its system prompt, Claude Code through a rules file.
    for id in ["jp", "claude-code", "codex"] {
        connect(&mut d, Client::named(id).unwrap());
        show(&mut d, id);
        let rows = rows(&d, id);
        assert!(
            !rows
                .iter()
                .any(|r| matches!(r, Row::Note(n) if n.starts_with("note: no ")))
        );
        assert_eq!(as_cli(&rows), cli(&d, id), "{id} connected");
    }
}
