//! The `?` overlay, generated from the key table and the marker legend.

use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use ratatui_textarea::TextArea;

use crate::tui::app::App;
use crate::tui::layout::centered;
use crate::tui::pager::Pager;
use crate::tui::text_layout::help_text::{OVERLAY_WIDTH, lines};

/// `typing`: the search being typed, if it is.
pub fn render(app: &App, pager: &Pager, typing: Option<&TextArea>, frame: &mut Frame) {
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
        Paragraph::new(lines(app)).scroll((pager.scroll, 0)).block(
            Block::bordered()
                .title(Line::styled(" Keys ", app.screen.theme.title()))
                .title_bottom(Line::styled(
                    overlay_hint(pager, typing),
                    app.screen.theme.muted(),
                )),
        ),
        area,
    );
}

/// The message log overlay: every status message, whole, newest last.
pub fn render_messages(app: &App, pager: &Pager, typing: Option<&TextArea>, frame: &mut Frame) {
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
    let lines: Vec<Line> = if app.status.messages().is_empty() {
        vec![Line::styled("(no message yet)", app.screen.theme.muted())]
    } else {
        app.status
            .messages()
            .iter()
            .map(|m| Line::raw(jp_kb_core::display::clean_name(m).into_owned()))
            .collect()
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((pager.scroll, 0))
            .block(
                Block::bordered()
                    .title(Line::styled(" Messages ", app.screen.theme.title()))
                    .title_bottom(Line::styled(
                        overlay_hint(pager, typing),
                        app.screen.theme.muted(),
                    )),
            ),
        area,
    );
}

/// Text of the overlay's bottom border: its keys, and the search.
fn overlay_hint(pager: &Pager, typing: Option<&TextArea>) -> String {
    match typing {
        Some(input) => {
            format!(" /{} · Enter find · Esc back ", input.lines().join(""))
        }
        None if !pager.query.is_empty() => format!(
            " /{} · n/N next/previous · PgDn/PgUp · Esc close ",
            pager.query
        ),
        None => " ↑↓ PgDn/PgUp g/G · / search · Esc close ".to_owned(),
    }
}
