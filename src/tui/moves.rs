//! Moving through the screen: the selection in the focused pane, paging
//! by what fits, opening and closing directories. Helpers of `update`
//! (they change the state), with no effects.

use super::app::App;
use super::pane::{Focus, Tab};
use super::tree::RowKind;

pub fn topic_count(app: &App) -> usize {
    app.loaded.model.as_ref().map_or(0, |m| m.kb.topics.len())
}

pub fn clamp(app: &mut App) {
    super::filter::follow_topic(app);
    app.topics.selected = app.topics.selected.min(topic_count(app).saturating_sub(1));
    app.subjects.row = app.subjects.row.min(app.rows().len().saturating_sub(1));
}

pub fn page(app: &App) -> usize {
    let rect = app.areas().of(app.focus);
    usize::from(rect.height.saturating_sub(3)).max(1)
}

/// Moves the focused pane's selection (or the preview's scroll) by
/// `delta` rows; `None` jumps to the end.
pub fn move_by(app: &mut App, delta: isize) {
    let step = |cur: usize, len: usize| -> usize {
        let last = len.saturating_sub(1);
        cur.saturating_add_signed(delta).min(last)
    };
    match app.focus {
        Focus::Topics => {
            let new = step(app.topics.selected, topic_count(app));
            if new != app.topics.selected {
                app.topics.selected = new;
                app.subjects.row = 0;
                app.preview.scroll = 0;
            }
        }
        Focus::Subjects => {
            let new = step(app.subjects.row, app.rows().len());
            if new != app.subjects.row {
                app.subjects.row = new;
                app.preview.scroll = 0;
            }
        }
        Focus::Preview if app.preview.tab == Tab::Findings => {
            crate::tui::findings::actions::move_cursor(app, delta);
        }
        Focus::Preview => {
            // From the scroll drawn: after `G` (which asks for the end,
            // however far the text turns out to reach) `k` moves up from
            // the last page.
            let drawn = app
                .screen
                .drawn
                .preview_max_scroll
                .map_or(app.preview.scroll, |max| app.preview.scroll.min(max));
            app.preview.scroll = drawn.saturating_add_signed(delta);
        }
    }
}

pub fn cycle_focus(app: &mut App, forward: bool) {
    app.focus = match (app.focus, forward) {
        (Focus::Topics, true) | (Focus::Preview, false) => Focus::Subjects,
        (Focus::Subjects, true) | (Focus::Topics, false) => Focus::Preview,
        (Focus::Preview, true) | (Focus::Subjects, false) => Focus::Topics,
    };
}

pub fn set_collapsed(app: &mut App, collapse: Option<bool>) {
    let (Some(row), Some(id)) = (
        app.selected_row(),
        app.topic_state().map(|t| t.id().to_owned()),
    ) else {
        return;
    };
    match row.kind {
        RowKind::Dir(dir) => {
            let want = collapse.unwrap_or(!dir.collapsed);
            let rel = dir.rel;
            if want {
                app.subjects.collapsed.insert((id, rel));
            } else {
                app.subjects.collapsed.remove(&(id, rel));
            }
        }
        RowKind::Subject(_) if collapse == Some(true) => {
            // Left on a subject goes to its directory's row.
            let rows = app.rows();
            if let Some(parent) = rows[..app.subjects.row]
                .iter()
                .rposition(|r| r.depth < row.depth && matches!(r.kind, RowKind::Dir(_)))
            {
                app.subjects.row = parent;
            }
        }
        RowKind::Subject(_) => {
            if collapse.is_none() {
                app.preview.tab = Tab::Subject;
                app.focus = Focus::Preview;
            }
        }
    }
}
