//! The keys of the search inside a preview: `/` with the preview focused
//! (on the Subject, Prompt, Learn and Config tabs) opens the query line,
//! Enter searches and scrolls to the first match from the top of the
//! view, `n`/`N` go to the next/previous match (wrapping), `Esc` clears.
//! The subjects pane's `/` stays the filter. The matches come from
//! `super::matches` (found once per text, query and geometry); moving
//! between them only changes the scroll.

use ratatui_textarea::TextArea;

use super::matches;
use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::pane::Focus;
use crate::tui::preview_search::state::{SEARCHED, Search};

/// Main-screen keys the preview search takes; `None` for the others.
pub fn key(app: &mut App, command: &Command) -> Option<Vec<Effect>> {
    let shown = app
        .preview
        .search
        .as_ref()
        .is_some_and(|s| s.tab == app.preview.tab);
    let focused = app.focus == Focus::Preview;
    match command {
        Command::OpenFilter if focused && SEARCHED.contains(&app.preview.tab) => {
            app.mode = Mode::PreviewSearch(TextArea::default());
        }
        Command::SearchNext | Command::SearchPrev if focused && shown => {
            step(app, matches!(command, Command::SearchNext));
        }
        Command::Cancel if focused && shown => {
            app.preview.search = None;
            app.set_status("search cleared", false);
        }
        _ => return None,
    }
    Some(Vec::new())
}

/// Keys while the query is typed.
pub fn typing(app: &mut App, command: &Command) -> Vec<Effect> {
    let Mode::PreviewSearch(input) = &mut app.mode else {
        return Vec::new();
    };
    match command {
        Command::Quit => return crate::tui::modes::quit(app),
        Command::Input(key) => {
            input.input(*key);
        }
        Command::Cancel => app.mode = Mode::Normal,
        Command::Confirm => {
            let query = input.lines().join("");
            app.mode = Mode::Normal;
            app.preview.search = None;
            if !query.is_empty() {
                app.preview.search = Some(Search::new(query, app.preview.tab));
                settle(app);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// Scrolls to the first match at or below the top of the view once the
/// searched text is whole (called on Enter and after each read the
/// preview asked for: a prompt is read whole for a search).
pub fn settle(app: &mut App) {
    if !app.preview.search.as_ref().is_some_and(|s| s.pending) {
        return;
    }
    let Some(hits) = matches::hits(app) else {
        return;
    };
    let top = app.preview.scroll;
    let first = hits.hits.iter().position(|h| h.row >= top).unwrap_or(0);
    let query = app
        .preview
        .search
        .as_ref()
        .map(|s| s.query.clone())
        .unwrap_or_default();
    if hits.hits.is_empty() {
        if hits.complete {
            if let Some(s) = &mut app.preview.search {
                s.pending = false;
            }
            app.set_status(format!("no match for `{query}`"), true);
        }
        return;
    }
    if let Some(s) = &mut app.preview.search {
        // Only a whole text ends the wait: a match further up may still
        // come, but the first one below the view is already known.
        s.pending = !hits.complete;
        s.current = first;
    }
    go_to(app, first, hits.hits.len());
}

/// `n` (forward) or `N`: the next or previous match, wrapping around.
fn step(app: &mut App, forward: bool) {
    let Some(hits) = matches::hits(app) else {
        return;
    };
    let n = hits.hits.len();
    if n == 0 {
        let query = app.preview.search.as_ref().map(|s| s.query.clone());
        app.set_status(
            format!("no match for `{}`", query.unwrap_or_default()),
            true,
        );
        return;
    }
    let Some(s) = &mut app.preview.search else {
        return;
    };
    let current = s.current.min(n - 1);
    s.current = if forward {
        (current + 1) % n
    } else {
        (current + n - 1) % n
    };
    s.pending = false;
    let at = s.current;
    go_to(app, at, n);
}

/// Scrolls match `at` of `n` into view, two rows below the top, and says
/// which it is.
fn go_to(app: &mut App, at: usize, n: usize) {
    let Some(hit) = matches::hits(app).and_then(|h| h.hits.get(at).copied()) else {
        return;
    };
    app.preview.scroll = hit.row.saturating_sub(2);
    app.set_status(format!("match {}/{n}", at + 1), false);
}
