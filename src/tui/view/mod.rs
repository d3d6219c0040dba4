//! Drawing: state in, frame out, no I/O. One module per pane; this one
//! lays the screen out and stacks overlays.

mod client_prompt;
mod dialogs;
mod findings;
mod help;
pub mod markdown;
pub mod picker;
pub mod preview;
mod status;
mod subjects;
mod topics;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::action::Tab;
use super::app::{App, Focus, Mode};
use crate::display::clean_text;

pub use preview::tab_at;

/// Where each pane goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub banner: Option<Rect>,
    pub topics: Rect,
    pub subjects: Rect,
    pub preview: Rect,
    pub status: Rect,
}

/// Lays the screen out; `update` uses the same function to map clicks.
pub fn areas(area: Rect, banner: bool, topics: usize) -> Areas {
    let [banner_area, main, status] = Layout::vertical([
        Constraint::Length(u16::from(banner)),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .areas(area);
    let left_pct = if area.width >= 120 { 34 } else { 42 };
    let [left, preview] =
        Layout::horizontal([Constraint::Percentage(left_pct), Constraint::Fill(1)]).areas(main);
    let wanted = u16::try_from(topics)
        .unwrap_or(u16::MAX)
        .saturating_add(2)
        .max(3);
    let max = (left.height * 2 / 5).max(3);
    let [topics_area, subjects] =
        Layout::vertical([Constraint::Length(wanted.min(max)), Constraint::Fill(1)]).areas(left);
    Areas {
        banner: banner.then_some(banner_area),
        topics: topics_area,
        subjects,
        preview,
        status,
    }
}

/// The first visible row of a list of `len` rows, `height` tall, that
/// keeps `selected` in view (stateless, so clicks can recompute it).
pub fn list_offset(selected: usize, height: usize, len: usize) -> usize {
    if height == 0 || len <= height {
        return 0;
    }
    selected
        .saturating_add(1)
        .saturating_sub(height)
        .min(len - height)
}

/// A bordered block whose border shows focus.
fn pane<'a>(app: &App, title: Line<'a>, focus: Focus) -> Block<'a> {
    let focused = app.focus == focus && matches!(app.mode, Mode::Normal | Mode::Filter(_));
    Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.border(focused))
        .title(title)
}

/// Draws the whole screen.
pub fn render(app: &App, frame: &mut Frame) {
    let topic_count = app.model.as_ref().map_or_else(
        || app.loading.as_ref().map_or(0, |l| l.topics.len()),
        |m| m.kb.topics.len(),
    );
    let a = areas(
        frame.area(),
        app.banner.is_some() || app.load_error.is_some(),
        topic_count,
    );
    if let Some(area) = a.banner {
        let line = match (&app.load_error, &app.banner) {
            (Some(_), _) if app.model.is_none() => Line::styled(
                "✗ the configuration cannot be loaded; fix it (the screen updates by itself)",
                app.theme.error(),
            ),
            (Some(err), _) => Line::from(vec![
                Span::styled("✗ READ-ONLY ", app.theme.error()),
                Span::styled(
                    format!(
                        "config error, showing the last good state: {}",
                        clean_text(err, false)
                    ),
                    app.theme.error(),
                ),
            ]),
            (None, Some(note)) => Line::styled(
                format!("ⓘ {}", clean_text(note, false)),
                app.theme.warning(),
            ),
            (None, None) => Line::default(),
        };
        frame.render_widget(Paragraph::new(line), area);
    }
    if let (None, None, Some(loading)) = (&app.model, &app.load_error, &app.loading) {
        topics::render_loading(app, loading, frame, a.topics);
        subjects::render_loading(app, loading, frame, a.subjects);
        frame.render_widget(
            Block::bordered()
                .border_style(app.theme.border(false))
                .title(Line::styled(" Preview ", app.theme.title())),
            a.preview,
        );
    } else if app.model.is_none() {
        let main = Rect {
            y: a.topics.y,
            height: a.status.y.saturating_sub(a.topics.y),
            ..frame.area()
        };
        let text = app.load_error.as_deref().unwrap_or("loading…");
        frame.render_widget(
            Paragraph::new(clean_text(text, true).into_owned())
                .style(app.theme.error())
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" The workspace cannot be loaded ")),
            main,
        );
    } else {
        topics::render(app, frame, a.topics);
        subjects::render(app, frame, a.subjects);
        preview::render(app, frame, a.preview);
    }
    status::render(app, frame, a.status);
    match &app.mode {
        Mode::Help => help::render(app, frame),
        Mode::Choice(c) => dialogs::choice(app, c, frame),
        Mode::Form(f) => dialogs::form(app, f, frame),
        Mode::Picker(p) => picker::render(app, p, frame),
        Mode::Normal | Mode::Filter(_) | Mode::Pattern(_) => {}
    }
}

/// A centered rectangle of at most `w`×`h` cells.
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// Tab labels as drawn in a row `width` cells wide: ` 1 Subject `, else
/// `1 Subject`, else `1Subj`, else `1Sub`; clicks map through the same
/// labels.
fn tab_labels(width: u16) -> Vec<String> {
    let label = |i: usize, t: &Tab, form: usize| -> String {
        let n = i + 1;
        match form {
            0 => format!(" {n} {} ", t.label()),
            1 => format!("{n} {}", t.label()),
            f => format!("{n}{}", &t.label()[..6 - f]),
        }
    };
    let all = |form| -> Vec<String> {
        Tab::ALL
            .iter()
            .enumerate()
            .map(|(i, t)| label(i, t, form))
            .collect()
    };
    for form in 0..3 {
        let labels = all(form);
        let needed: usize = labels.iter().map(|l| l.chars().count() + 1).sum();
        if needed <= usize::from(width) {
            return labels;
        }
    }
    all(3)
}
