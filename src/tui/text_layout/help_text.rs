//! The `?` help's text, generated from the key table and the marker
//! legend: drawn by the help overlay and searched by its keys (`/`, `n`).

use ratatui::text::{Line, Span};

use crate::tui::app::App;
use crate::tui::keymap::help_rows;
use crate::tui::keymap::scope::Scope;
use crate::tui::keymap::table::bindings;
use crate::tui::theme::Mark;

/// Every line of the help text.
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let t = app.theme;
    let table = bindings();
    let mut out = Vec::new();
    for scope in [
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
