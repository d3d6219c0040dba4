#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The byte-exact tabs (Prompt, Learn, Tool) draw only the lines reaching
//! into view, found through a row index (`tui::text_rows`): a view
//! scrolled anywhere must show exactly the rows a drawing of the whole
//! text has there (wrapped lines, tabs, wide and escaped characters,
//! the Learn tab's header), `G` must land on the last page however long
//! the text (the scroll was 16 bits: 65,535 rows), and `k` must move up
//! from what was on screen.

use super::tui_support;

use std::fmt::Write as _;

use jp_kb::tui::harness::Harness;
use jp_kb::tui::pane::Focus;
use ratatui::buffer::Buffer;
use tui_support::Demo;

/// The demo with `files` added to its `formats` topic and `learned` set.
fn workspace(files: &[(&str, String)], learned: &str) -> tempfile::TempDir {
    let d = Demo::new(80, 24);
    let dir = d.root().join(".jp/kb/formats");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let kb = d.config_text().replace(
        "subjects = \".jp/kb/formats\"",
        &format!("subjects = \".jp/kb/formats\"\nlearned = [\"{learned}\"]"),
    );
    std::fs::write(d.config(), kb).unwrap();
    d.dir
}

/// Lines of varied length (some wrap several times at 60 columns), with
/// tabs, wide characters and an escape sequence among them.
fn varied(lines: usize) -> String {
    let mut text = String::new();
    for i in 0..lines {
        let pad = "word ".repeat(i * 7 % 40);
        let extra = match i % 11 {
            0 => "\tafter a tab",
            3 => " 日本語の行",
            5 => " \u{1b}[2J escaped",
            _ => "",
        };
        writeln!(text, "line {i} {pad}{extra}").unwrap();
    }
    text
}

/// The preview body's rows (inside the border, under the tab row).
fn body_rows(h: &Harness) -> Vec<String> {
    let area = h.areas().preview;
    let buffer: Buffer = h.render();
    (area.y + 2..area.bottom() - 1)
        .map(|y| {
            (area.x + 1..area.right() - 1)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn focus_preview(h: &mut Harness) {
    while h.focused() != Focus::Preview {
        h.keys("\t");
    }
}

/// Opens `root` twice at the same width: one screen tall enough for the
/// whole text, one short; at each scroll the short one must show the
/// tall one's rows from there.
fn compare_with_whole(root: &std::path::Path, keys: &str) {
    let mut tall = Harness::open(root, 70, 6000, false);
    tall.keys(keys);
    let whole = body_rows(&tall);
    let last = whole
        .iter()
        .rposition(|r| !r.trim().is_empty())
        .expect("text on screen");
    assert!(last > 600, "a long text: {last} rows\n{}", tall.screen());
    assert!(
        last < whole.len() - 1,
        "the whole text fits the tall screen"
    );
    assert!(whole.iter().any(|r| r.contains('↪')), "lines wrap");
    let mut short = Harness::open(root, 70, 24, false);
    short.keys(keys);
    // `G` once: the preview asks for the whole text (a prompt is read
    // piece by piece as the view reaches it).
    focus_preview(&mut short);
    short.keys("G");
    let height = body_rows(&short).len();
    let mut scrolls = vec![0, 1, 2, 3, 63, 64, 65, 127, 128, 129, 333, 500];
    scrolls.push(last + 1 - height);
    for scroll in scrolls {
        short.set_preview_scroll(scroll);
        let shown = body_rows(&short);
        assert_eq!(
            shown,
            whole[scroll..scroll + height],
            "scrolled to row {scroll}"
        );
    }
}

#[test]
fn the_prompt_scrolled_anywhere_shows_the_rows_of_the_whole_drawing() {
    let dir = workspace(&[("big.md", varied(700))], "big");
    compare_with_whole(dir.path(), "2");
}

#[test]
fn the_learn_tab_scrolled_anywhere_shows_the_rows_of_the_whole_drawing() {
    // The Learn tab has a header (the call, a blank line) above the
    // numbered output: here the topic's list of 700 subjects, their names
    // of varied length, some wide.
    let files: Vec<(String, String)> = (0..700)
        .map(|i| {
            let wide = if i % 11 == 3 { "-日本語" } else { "" };
            let name = format!("f{i}-{}{wide}.md", "x".repeat(i * 7 % 60));
            (name, "x\n".to_owned())
        })
        .collect();
    let files: Vec<(&str, String)> = files.iter().map(|(n, t)| (n.as_str(), t.clone())).collect();
    let dir = workspace(&files, "nothing");
    // The third topic (formats), the Learn tab.
    compare_with_whole(dir.path(), "jj3");
}

#[test]
fn a_view_deep_inside_one_long_line_shows_the_rows_of_the_whole_drawing() {
    // One line of 100,000 characters: the rows above the view are inside
    // the view's first line.
    let line = format!("{}\n", "word ".repeat(20_000));
    let dir = workspace(&[("big.md", line)], "big");
    compare_with_whole(dir.path(), "2");
}

#[test]
fn g_shows_the_last_page_and_k_moves_up_from_it() {
    let dir = workspace(&[("big.md", varied(300))], "big");
    let mut h = Harness::open(dir.path(), 70, 24, false);
    h.keys("2");
    focus_preview(&mut h);
    h.keys("G");
    let rows = body_rows(&h);
    let last = rows.last().unwrap();
    assert!(last.contains("</knowledge>"), "{rows:#?}");
    // `k` moves one row up from the last page (the scroll is not left
    // past the end, where a key would change nothing on screen).
    h.keys("k");
    let up = body_rows(&h);
    assert_eq!(up[1..], rows[..rows.len() - 1], "one row down");
    h.keys("j");
    assert_eq!(body_rows(&h), rows);
}

#[test]
fn the_end_of_a_prompt_longer_than_65535_rows_is_reached() {
    let mut text = String::new();
    for i in 0..70_000 {
        writeln!(text, "l{i}").unwrap();
    }
    let dir = workspace(&[("big.md", text)], "big");
    let mut h = Harness::open(dir.path(), 70, 24, false);
    h.keys("2");
    focus_preview(&mut h);
    h.keys("G");
    let rows = body_rows(&h);
    assert!(rows.last().unwrap().contains("</knowledge>"), "{rows:#?}");
    assert!(h.preview_max_scroll().unwrap() > 70_000);
}

#[test]
fn tiny_screens_draw_the_tester_and_scrolled_previews_without_panicking() {
    for (w, h) in [(1, 1), (2, 3), (10, 4), (13, 7), (20, 6), (40, 12)] {
        for keys in ["gmaint", "g*\t*", "2\tG", "2\tGkk", "3\tG", "4\tGj", "\t/j"] {
            let mut d = Demo::new(w, h);
            d.keys(keys);
            // Every key drew a frame (the harness draws after each one).
            let _ = d.screen();
        }
    }
}

#[test]
fn g_on_the_word_wrapped_tabs_shows_their_last_page_not_a_blank_view() {
    // The Subject and Config tabs wrap at words (ratatui's Paragraph).
    for tab in ["1", "5"] {
        let mut d = Demo::new(100, 30);
        d.keys(tab);
        focus_preview(&mut d.h);
        let top = body_rows(&d.h);
        d.keys("G");
        let rows = body_rows(&d.h);
        assert!(
            rows.iter().any(|r| !r.trim().is_empty()),
            "tab {tab}: blank after G (before G: {top:#?})"
        );
        // `k` moves from what is on screen.
        d.keys("k");
        let up = body_rows(&d.h);
        assert!(up != rows || d.h.preview_scroll() == 0, "tab {tab}");
    }
}
