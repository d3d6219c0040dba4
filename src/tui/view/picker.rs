//! The layer picker dialog: one row per layer (role, path, whether it
//! declares the topic or is still to be created), the current target
//! marked.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::centered;
use crate::tui::app::App;
use crate::tui::picker::Picker;
use jp_kb_core::display::clean_name;

/// The dialog's lines (unit-tested without a terminal).
pub fn lines(app: &App, p: &Picker, height: usize) -> Vec<Line<'static>> {
    let t = app.theme;
    let role_width = p.layers.iter().map(|l| l.role.len()).max().unwrap_or(4);
    let path_width = p
        .layers
        .iter()
        .map(|l| clean_name(&l.shown).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    // Keep the highlighted row in view.
    let first = p.selected.saturating_sub(height.saturating_sub(1));
    for (i, layer) in p.layers.iter().enumerate().skip(first).take(height) {
        let current = p.current.as_ref() == Some(&layer.path);
        let state = match (&p.topic, layer.exists, layer.declares, layer.jp_loads) {
            (_, false, _, true) => "new · JP loads it: a `kb` table stops today's JP".to_owned(),
            (_, false, _, false) => "new: created on the first edit".to_owned(),
            (Some(topic), true, true, true) => {
                format!("declares `{topic}` · JP refuses it (KB120)")
            }
            (Some(topic), true, true, false) => format!("declares `{topic}`"),
            (_, true, _, true) => "JP loads it: a `kb` table stops today's JP".to_owned(),
            (Some(topic), true, false, false) => format!("`{topic}` declared on the first edit"),
            (None, true, _, false) => String::new(),
        };
        let style = if i == p.selected {
            t.selected(true)
        } else {
            ratatui::style::Style::new()
        };
        out.push(Line::from(vec![
            Span::styled(if current { "› " } else { "  " }, t.key()),
            Span::styled(format!("{:<role_width$}  ", layer.role), t.muted()),
            Span::styled(format!("{:<path_width$}", clean_name(&layer.shown)), style),
            Span::styled(format!("  {}", clean_name(&state)), t.muted()),
        ]));
    }
    out
}

pub fn render(app: &App, p: &Picker, frame: &mut Frame) {
    let t = app.theme;
    let rows = u16::try_from(p.layers.len()).unwrap_or(u16::MAX);
    // As wide as its widest row (the JP warning is long), at least 96.
    let widest = lines(app, p, p.layers.len())
        .iter()
        .map(Line::width)
        .max()
        .unwrap_or(0);
    let width = u16::try_from(widest.saturating_add(2))
        .unwrap_or(u16::MAX)
        .max(96);
    let area = centered(frame.area(), width, rows.saturating_add(2).max(3));
    let height = usize::from(area.height.saturating_sub(2));
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines(app, p, height)).block(
            Block::bordered()
                .border_style(t.border(true))
                .title(Line::styled(" Edit file: where new entries go ", t.title()))
                .title_bottom(Line::styled(
                    " ↑↓ choose · Enter: edits go there · Esc: keep ",
                    t.muted(),
                )),
        ),
        area,
    );
}
