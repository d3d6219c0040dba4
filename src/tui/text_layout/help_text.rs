//! The `?` help's text, generated from the key table and the marker
//! legend, wrapped to the overlay's width: drawn by the help overlay and
//! searched and paged by its keys (`/`, `n`), row for row.

use ratatui::text::{Line, Span};

use crate::tui::app::App;
use crate::tui::keymap::help_rows;
use crate::tui::keymap::scope::Scope;
use crate::tui::keymap::table::bindings;
use crate::tui::theme::Mark;

/// The help overlay's width, borders included (narrower on a narrow
/// screen).
pub const OVERLAY_WIDTH: u16 = 64;

/// Every row of the help text as the overlay draws it: a line longer
/// than the overlay wraps at a word, its continuation rows indented under
/// the text they continue (a key's meaning, not the key column; it used
/// to restart at column 0).
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let width = usize::from(OVERLAY_WIDTH.min(app.screen.size.0).saturating_sub(2));
    unwrapped(app)
        .into_iter()
        .flat_map(|line| wrap_hanging(line, width))
        .collect()
}

/// `line` cut into rows of at most `width` columns at spaces of its last
/// span; the rows after the first start under that span.
fn wrap_hanging(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    if width == 0 || line.width() <= width || line.spans.is_empty() {
        return vec![line];
    }
    let mut spans = line.spans;
    let last = spans.pop().unwrap_or_default();
    // The last span's own leading spaces stay on its first row and count
    // in the indent of the rows after it.
    let words = last.content.trim_start();
    let lead = &last.content[..last.content.len() - words.len()];
    spans.push(Span::styled(lead.to_owned(), last.style));
    let hang = Line::from(spans.clone()).width();
    // A key column as wide as the overlay: no room to hang under it.
    let (hang, room) = match width.checked_sub(hang) {
        Some(room) if room >= 12 => (hang, room),
        _ => (0, width),
    };
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in words.split(' ') {
        let longer = if row.is_empty() {
            word.to_owned()
        } else {
            format!("{row} {word}")
        };
        if !row.is_empty() && Line::raw(longer.as_str()).width() > room {
            rows.push(std::mem::replace(&mut row, word.to_owned()));
        } else {
            row = longer;
        }
    }
    rows.push(row);
    let style = last.style;
    let mut out = Vec::with_capacity(rows.len());
    for (i, text) in rows.into_iter().enumerate() {
        if i == 0 {
            let mut first = spans.clone();
            first.push(Span::styled(text, style));
            out.push(Line::from(first));
        } else {
            out.push(Line::from(vec![
                Span::raw(" ".repeat(hang)),
                Span::styled(text, style),
            ]));
        }
    }
    out
}

/// Every line of the help text, unwrapped.
fn unwrapped(app: &App) -> Vec<Line<'static>> {
    let t = app.screen.theme;
    let table = bindings();
    let mut out = Vec::new();
    for scope in [
        Scope::Everywhere,
        Scope::Normal,
        Scope::Found,
        Scope::Help,
        Scope::Line,
        Scope::Choice,
        Scope::Form,
        Scope::Search,
        Scope::SearchHits,
    ] {
        out.push(Line::styled(scope.label(), t.title()));
        for (keys, help) in help_rows(&table, scope) {
            out.push(Line::from(vec![
                // At least one space: a long key list ("1 / 2 / … / 9") must
                // not run into its meaning.
                Span::styled(format!("  {keys:<15} "), t.key()),
                Span::raw(help),
            ]));
        }
        out.push(Line::default());
    }
    out.push(Line::styled("Esc", t.title()));
    for text in [
        "  backs out one level: a dialog, the help or an input closes;",
        "  on the main screen it clears the filter, then leaves the",
        "  preview for the subjects pane",
    ] {
        out.push(Line::raw(text));
    }
    out.push(Line::default());
    out.push(Line::styled("Mouse", t.title()));
    for (what, does) in [
        ("click", "select a topic, a row or a preview tab"),
        ("wheel", "scroll the pane under the pointer"),
    ] {
        out.push(Line::from(vec![
            Span::styled(format!("  {what:<16}"), t.key()),
            Span::raw(does),
        ]));
    }
    out.push(Line::default());
    out.push(Line::styled("Markers", t.title()));
    for mark in [
        Mark::Available,
        Mark::LearnedExact,
        Mark::LearnedGlob,
        Mark::Disabled,
        Mark::Hidden,
        Mark::Binary,
        Mark::Unreadable,
        Mark::Stale,
        Mark::LowConfidence,
        Mark::TopicOn,
        Mark::TopicOff,
        Mark::TopicError,
    ] {
        out.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(mark.glyph(), t.mark(mark)),
            Span::raw(format!("  {}", mark.meaning())),
        ]));
    }
    out.extend(crate::tui::findings::text::legend(app));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::Theme;

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// Issue 37 item 5: a long meaning wraps under itself, never back to
    /// column 0, and no row is wider than the overlay.
    #[test]
    fn wrapped_rows_hang_under_the_meaning() {
        let line = Line::from(vec![
            Span::raw("  Ctrl-a          "),
            Span::raw("mark every row shown (the filtered rows) and more words"),
        ]);
        let rows: Vec<String> = wrap_hanging(line, 40).iter().map(text).collect();
        assert_eq!(
            rows,
            [
                "  Ctrl-a          mark every row shown",
                "                  (the filtered rows)",
                "                  and more words"
            ]
        );
        let app = App::new(Theme { color: false }, (50, 30));
        let all = lines(&app);
        assert!(all.iter().all(|l| l.width() <= 48));
        for pair in all.windows(2) {
            let (a, b) = (text(&pair[0]), text(&pair[1]));
            // A continuation row starts with spaces, like the row above.
            if a.starts_with("  ") && !b.is_empty() && b.starts_with(' ') {
                assert!(b.starts_with("  "), "{a:?} / {b:?}");
            }
        }
    }
}
