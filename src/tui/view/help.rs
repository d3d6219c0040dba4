//! The `?` overlay, generated from the key table and the marker legend.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::keymap::{Scope, bindings, help_rows};
use crate::tui::layout::centered;
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

pub fn render(app: &App, frame: &mut Frame) {
    // Leave the status line visible below the overlay.
    let screen = frame.area();
    let above_status = ratatui::layout::Rect {
        height: screen.height.saturating_sub(2),
        ..screen
    };
    let area = centered(above_status, 64, above_status.height);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines(app))
            .wrap(Wrap { trim: false })
            .scroll((app.help_scroll, 0))
            .block(
                Block::bordered()
                    .title(Line::styled(" Keys ", app.theme.title()))
                    .title_bottom(Line::styled(overlay_hint(app), app.theme.muted())),
            ),
        area,
    );
}

/// The message log overlay: every status message, whole, newest last.
pub fn render_messages(app: &App, frame: &mut Frame) {
    let screen = frame.area();
    let above_status = ratatui::layout::Rect {
        height: screen.height.saturating_sub(2),
        ..screen
    };
    let area = centered(
        above_status,
        screen.width.saturating_sub(4),
        above_status.height,
    );
    frame.render_widget(Clear, area);
    let lines: Vec<Line> = if app.messages.is_empty() {
        vec![Line::styled("(no message yet)", app.theme.muted())]
    } else {
        app.messages
            .iter()
            .map(|m| Line::raw(jp_kb_core::display::clean_name(m).into_owned()))
            .collect()
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((app.help_scroll, 0))
            .block(
                Block::bordered()
                    .title(Line::styled(" Messages ", app.theme.title()))
                    .title_bottom(Line::styled(overlay_hint(app), app.theme.muted())),
            ),
        area,
    );
}

/// Text of the overlay's bottom border: its keys, and the search.
fn overlay_hint(app: &App) -> String {
    match &app.mode {
        crate::tui::app::Mode::HelpSearch(input, _) => {
            format!(" /{} · Enter find · Esc back ", input.lines().join(""))
        }
        _ if !app.help_query.is_empty() => format!(
            " /{} · n/N next/previous · PgDn/PgUp · Esc close ",
            app.help_query
        ),
        _ => " ↑↓ PgDn/PgUp g/G · / search · Esc close ".to_owned(),
    }
}
