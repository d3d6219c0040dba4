//! Mouse clicks and the wheel, mapped through the same layout the views
//! draw with (`view::areas`, `view::list_offset`).

use ratatui::layout::Rect;

use super::action::Effect;
use super::app::{App, Focus, Mode};
use super::update::{areas, clamp, move_by, set_collapsed, topic_count};
use super::view;

/// The list row under screen row `y` of a bordered list `area`.
fn row_at(area: Rect, y: u16, selected: usize, len: usize) -> Option<usize> {
    let top = area.y + 1;
    let height = area.height.saturating_sub(2);
    if y < top || y >= top + height {
        return None;
    }
    let offset = view::list_offset(selected, usize::from(height), len);
    let i = offset + usize::from(y - top);
    (i < len).then_some(i)
}

pub fn click(app: &mut App, x: u16, y: u16) {
    if !matches!(app.mode, Mode::Normal) {
        return;
    }
    let a = areas(app);
    let pos = ratatui::layout::Position { x, y };
    if a.topics.contains(pos) {
        app.focus = Focus::Topics;
        if let Some(i) = row_at(a.topics, y, app.topic, topic_count(app))
            && i != app.topic
        {
            app.topic = i;
            app.row = 0;
            app.scroll = 0;
        }
    } else if a.subjects.contains(pos) {
        app.focus = Focus::Subjects;
        if let Some(i) = row_at(a.subjects, y, app.row, app.rows().len()) {
            if i == app.row {
                set_collapsed(app, None);
            } else {
                app.row = i;
                app.scroll = 0;
            }
        }
    } else if a.preview.contains(pos) {
        app.focus = Focus::Preview;
        if y == a.preview.y + 1
            && let Some(tab) = view::tab_at(a.preview, x)
        {
            app.tab = tab;
            app.scroll = 0;
        }
    }
    clamp(app);
}

pub fn wheel(app: &mut App, x: u16, y: u16, down: bool) -> Vec<Effect> {
    if !matches!(app.mode, Mode::Normal) {
        return Vec::new();
    }
    let a = areas(app);
    let pos = ratatui::layout::Position { x, y };
    let saved = app.focus;
    let (focus, step) = if a.topics.contains(pos) {
        (Focus::Topics, 1)
    } else if a.subjects.contains(pos) {
        (Focus::Subjects, 1)
    } else if a.preview.contains(pos) {
        (Focus::Preview, 3)
    } else {
        return Vec::new();
    };
    app.focus = focus;
    move_by(app, if down { step } else { -step });
    app.focus = saved;
    clamp(app);
    Vec::new()
}
