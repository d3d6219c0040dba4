//! The Prompt tab's client view drawn from its scroll position: only
//! the lines reaching into view are styled and wrapped; where a scroll
//! position falls comes from the layout kept across frames
//! ([`crate::tui::client_rows`]), so a key near the end of a
//! megabytes-long view costs what the rows on screen cost.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Text;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::client_prompt::{ClientView, Row};
use crate::tui::client_rows::{Key, line_rows};
use crate::tui::text_layout::client_text::{clean, line};
use crate::tui::text_layout::word_rows::word_rows;

/// Draws rows `scroll..scroll + height` of `view`: only the lines
/// reaching into view are styled and wrapped (where each row falls comes
/// from the layout kept across frames). Returns the last scroll that
/// still fills the view, once the whole view is laid out.
pub fn render(
    app: &App,
    (generation, client, view): (u64, &str, &ClientView),
    frame: &mut Frame,
    area: Rect,
) -> Option<usize> {
    let (width, height) = (usize::from(area.width), usize::from(area.height));
    let rows = view.rows();
    let key = Key {
        generation,
        client: client.to_owned(),
        lines: rows.len(),
        width,
        wrap: app.preview.wrap,
    };
    let rows_of = |row: &Row| word_rows(&clean(row.text()), width, app.preview.wrap);
    let index = line_rows(
        &app.preview.client_rows,
        key,
        rows,
        rows_of,
        app.preview.scroll.saturating_add(height),
    );
    let max_scroll = index.rows().map(|n| n.saturating_sub(height));
    // Past the end (`G`), the last page.
    let scroll = app
        .preview
        .scroll
        .min(index.rows_reached().saturating_sub(height));
    let (first, within) = index.locate(scroll);
    // The lines of the rows in view (laid out: the layout reached past
    // them), not wrapped again to count them.
    let (last, _) = index.locate((scroll + height).saturating_sub(1));
    let shown = if height == 0 {
        &[][..]
    } else {
        rows.get(first..=last).unwrap_or_default()
    };
    let mut text = Text::from(shown.iter().map(|row| line(app, row)).collect::<Vec<_>>());
    crate::tui::preview_search::view::highlight(app, &mut text, first, scroll, height);
    let paragraph = if app.preview.wrap {
        Paragraph::new(text).wrap(Wrap { trim: false })
    } else {
        Paragraph::new(text)
    };
    let within = u16::try_from(within).unwrap_or(u16::MAX);
    frame.render_widget(paragraph.scroll((within, 0)), area);
    max_scroll
}
