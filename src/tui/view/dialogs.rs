//! Dialogs: numbered choices (the glob fixes, directory toggles) and the
//! topic forms with their validation error.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::centered;
use crate::display::clean_name;
use crate::tui::app::{App, Choice, Form, FormKind};

pub fn choice(app: &App, c: &Choice, frame: &mut Frame) {
    let t = app.theme;
    let mut lines: Vec<Line> = c
        .lines
        .iter()
        .map(|l| Line::raw(clean_name(l).into_owned()))
        .collect();
    lines.push(Line::default());
    for (i, (label, plan)) in c.options.iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(format!(" {} ", i + 1), t.key()),
            Span::raw(clean_name(label).into_owned()),
        ]));
        // What this option costs, before it is chosen.
        for cost in plan.effect.lines(crate::tui::cost::BUDGET) {
            lines.push(Line::styled(
                format!("     {}", clean_name(&cost)),
                t.muted(),
            ));
        }
    }
    lines.push(Line::default());
    let keys = if c.options.len() == 1 {
        " Enter / 1  confirm · Esc  cancel"
    } else {
        " Esc  cancel"
    };
    lines.push(Line::styled(keys, t.muted()));
    // Long lines wrap: count the rows they take inside the border.
    let inner = usize::from(frame.area().width.min(70).saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner)).sum();
    let height = u16::try_from(rows + 3).unwrap_or(u16::MAX);
    let area = centered(frame.area(), 70, height);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::bordered()
                .border_style(t.border(true))
                .title(Line::styled(
                    format!(" {} ", clean_name(&c.title)),
                    t.title(),
                )),
        ),
        area,
    );
}

pub fn form(app: &App, f: &Form, frame: &mut Frame) {
    let t = app.theme;
    let title = match &f.kind {
        FormKind::EditTopic { topic } => format!(" Edit topic `{}` ", clean_name(topic)),
        FormKind::NewTopic => " New topic ".to_owned(),
    };
    let heights: Vec<u16> = f
        .fields
        .iter()
        .map(|field| if field.multiline { 6 } else { 3 })
        .collect();
    let total: u16 = heights.iter().sum::<u16>() + 4;
    let area = centered(frame.area(), 72, total);
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .border_style(t.border(true))
        .title(Line::styled(title, t.title()))
        .title_bottom(Line::styled(
            " Tab: field · Enter: save (newline in multi-line) · Ctrl-s: save · Esc ",
            t.muted(),
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut constraints: Vec<Constraint> = heights.iter().map(|h| Constraint::Length(*h)).collect();
    constraints.push(Constraint::Length(2));
    let rows = Layout::vertical(constraints).split(inner);
    for (i, field) in f.fields.iter().enumerate() {
        let mut input = field.input.clone();
        input.set_block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(t.border(i == f.focus))
                .title(field.label),
        );
        if i != f.focus {
            input.set_cursor_style(ratatui::style::Style::new());
        }
        input.set_cursor_line_style(ratatui::style::Style::new());
        frame.render_widget(&input, rows[i]);
    }
    if let Some(err) = &f.error {
        frame.render_widget(
            Paragraph::new(format!("✗ {}", clean_name(err)))
                .style(t.error())
                .wrap(Wrap { trim: false }),
            rows[f.fields.len()],
        );
    }
}
