//! The `?` overlay, generated from the key table and the marker legend.

use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::layout::centered;
use crate::tui::text_layout::help_text::{OVERLAY_WIDTH, lines};

pub fn render(app: &App, frame: &mut Frame) {
    // Leave the status line visible below the overlay.
    let screen = frame.area();
    let above_status = ratatui::layout::Rect {
        height: screen.height.saturating_sub(2),
        ..screen
    };
    let area = centered(above_status, OVERLAY_WIDTH, above_status.height);
    frame.render_widget(Clear, area);
    // Wrapped already (with the keys' meanings hanging): one row a line,
    // as the help's paging and search count them.
    frame.render_widget(
        Paragraph::new(lines(app))
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
            .map(|m| Line::raw(jp_kb_core::internal::display::clean_name(m).into_owned()))
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
