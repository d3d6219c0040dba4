//! Dialogs: numbered choices (the glob fixes, directory toggles) and the
//! topic forms with their validation error.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::dialog::Choice;
use crate::tui::forms::{Form, FormKind};
use crate::tui::layout::centered;
use jp_kb_core::display::clean_name;

pub fn choice(app: &App, c: &Choice, frame: &mut Frame) {
    let t = app.screen.theme;
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
        // Why a plan would ask first, said under its option: choosing the
        // option is the confirmation (a confirmation dialog shows them as
        // its own lines).
        if !c.confirming {
            for reason in &plan.confirm {
                lines.push(Line::styled(
                    format!("     ⚠ {}", clean_name(&crate::hints::confirm(reason))),
                    t.warning(),
                ));
            }
        }
        // How often what it changes was loaded (the usage ledger).
        if let Some(note) = app.features.usage.plan_note(&plan.effect) {
            lines.push(Line::styled(
                format!("     {}", clean_name(&note)),
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
    let t = app.screen.theme;
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
    let error_rows = if f.error.is_some() { 2 } else { 0 };
    let heights = field_heights(&heights, f.focus, inner.height.saturating_sub(error_rows));
    let mut y = inner.y;
    let mut rows = Vec::new();
    for h in heights.iter().copied().chain([error_rows]) {
        let h = h.min(inner.bottom().saturating_sub(y));
        rows.push(Rect {
            y,
            height: h,
            ..inner
        });
        y += h;
    }
    for (i, field) in f.fields.iter().enumerate() {
        if rows[i].height < 3 {
            // Too small for a bordered input: `label: value` on one row
            // (the focused field always gets a whole input).
            let value = field.input.lines().first().cloned().unwrap_or_default();
            frame.render_widget(
                Paragraph::new(format!("{}: {}", field.label, clean_name(&value))).style(t.muted()),
                rows[i],
            );
            continue;
        }
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

/// Rows for each form field in `available` rows: each wants `wanted`
/// (3 for one line, more for a multi-line field); when they do not fit,
/// each gets a bordered input of 3 rows (the focused one first) and what
/// is left, or, on a very small screen, the others one row each, so the
/// focused field's typed text never has zero height (issue 16).
pub fn field_heights(wanted: &[u16], focus: usize, available: u16) -> Vec<u16> {
    let n = u16::try_from(wanted.len()).unwrap_or(u16::MAX);
    if wanted.iter().sum::<u16>() <= available {
        return wanted.to_vec();
    }
    if available >= 3 * n {
        let mut h = vec![3u16; wanted.len()];
        let mut extra = available - 3 * n;
        let order = std::iter::once(focus).chain((0..wanted.len()).filter(|&i| i != focus));
        for i in order {
            let more = wanted[i].saturating_sub(3).min(extra);
            h[i] += more;
            extra -= more;
        }
        return h;
    }
    let mut h = vec![1u16; wanted.len()];
    if let Some(f) = h.get_mut(focus) {
        *f = available.saturating_sub(n - 1).max(1);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::field_heights;

    #[test]
    fn the_focused_field_always_has_room_to_type() {
        assert_eq!(field_heights(&[3, 6, 6], 1, 20), [3, 6, 6]);
        assert_eq!(field_heights(&[3, 6, 6], 1, 10), [3, 4, 3]);
        assert_eq!(field_heights(&[3, 6, 6], 2, 6), [1, 1, 4]);
    }
}
