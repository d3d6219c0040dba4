//! The layer picker dialog: one row per file (role, path, whether it
//! declares the topic or is still to be created) and one for the folded
//! files JP alone reads, the current target marked. The box fits the
//! screen: the list scrolls under the highlight, and the title says which
//! rows show (`rows 12–40 of 68 ↑↓`) and what was typed.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::layout::centered;
use crate::tui::picker::state::{Picker, Row, list_height};
use jp_kb_core::display::clean_name;
use jp_kb_core::edit::plan::Layer;

fn state(p: &Picker, layer: &Layer) -> String {
    match (&p.topic, layer.exists, layer.declares, layer.jp_loads) {
        (_, false, _, true) => "new · JP loads it: a `kb` table stops today's JP".to_owned(),
        (_, false, _, false) => "new: created on the first edit".to_owned(),
        (Some(topic), true, true, true) => format!("declares `{topic}` · JP refuses it (KB120)"),
        (Some(topic), true, true, false) => format!("declares `{topic}`"),
        (_, true, _, true) => "JP loads it: a `kb` table stops today's JP".to_owned(),
        (Some(topic), true, false, false) => format!("`{topic}` declared on the first edit"),
        (None, true, _, false) => String::new(),
    }
}

/// The dialog's lines from row `first`, at most `height` of them
/// (unit-tested without a terminal).
pub fn lines(app: &App, p: &Picker, first: usize, height: usize) -> Vec<Line<'static>> {
    let t = app.screen.theme;
    let role_width = p.layers.iter().map(|l| l.role.len()).max().unwrap_or(4);
    let path_width = p
        .layers
        .iter()
        .map(|l| clean_name(&l.shown).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    for (i, row) in p.rows().iter().enumerate().skip(first).take(height) {
        let style = if i == p.selected {
            t.selected(true)
        } else {
            ratatui::style::Style::new()
        };
        match row {
            Row::Layer(at) => {
                let Some(layer) = p.layers.get(*at) else {
                    continue;
                };
                out.push(Line::from(vec![
                    Span::styled(if p.is_current(*at) { "› " } else { "  " }, t.key()),
                    Span::styled(format!("{:<role_width$}  ", layer.role), t.muted()),
                    Span::styled(format!("{:<path_width$}", clean_name(&layer.shown)), style),
                    Span::styled(format!("  {}", clean_name(&state(p, layer))), t.muted()),
                ]));
            }
            Row::Fold { count, summary } => out.push(Line::from(vec![
                Span::raw("  "),
                Span::styled(
                    format!(
                        "{count} more files JP loads ({}) — type to filter, Enter to show",
                        clean_name(summary)
                    ),
                    style,
                ),
            ])),
        }
    }
    out
}

pub fn render(app: &App, p: &Picker, frame: &mut Frame) {
    let t = app.screen.theme;
    let rows = p.rows().len();
    let screen = frame.area();
    let height = list_height(screen.height, rows);
    // The view clamps what the keys kept: a resize may have shrunk it.
    let first = p
        .offset
        .min(p.selected)
        .max((p.selected + 1).saturating_sub(height))
        .min(rows.saturating_sub(height));
    // As wide as its widest row (the JP warning is long), at least 96.
    let widest = lines(app, p, 0, rows)
        .iter()
        .map(Line::width)
        .max()
        .unwrap_or(0);
    let width = u16::try_from(widest.saturating_add(2))
        .unwrap_or(u16::MAX)
        .max(96);
    let box_height = u16::try_from(height.saturating_add(2)).unwrap_or(u16::MAX);
    let area = centered(screen, width, box_height.max(3));
    let mut title = " Edit file: where new entries go ".to_owned();
    if !p.query.is_empty() {
        title = format!(" Edit file · filter: {} ", clean_name(&p.query));
    }
    let marker = if rows > height {
        let up = if first > 0 { "↑" } else { " " };
        let down = if first + height < rows { "↓" } else { " " };
        format!(
            " rows {}–{} of {rows} {up}{down} ",
            first + 1,
            first + height
        )
    } else if rows == 0 {
        " no file matches ".to_owned()
    } else {
        String::new()
    };
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines(app, p, first, height)).block(
            Block::bordered()
                .border_style(t.border(true))
                .title(Line::styled(title, t.title()))
                .title(Line::styled(marker, t.key()).right_aligned())
                .title_bottom(Line::styled(
                    " type to filter · ↑↓ PgUp/PgDn Home/End · Enter: edits go there · Esc: keep ",
                    t.muted(),
                )),
        ),
        area,
    );
}
