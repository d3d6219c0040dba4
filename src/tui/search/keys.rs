//! The search mode (`S`, issue 17 item 3): a query line over a ranked
//! list of hits across every enabled topic, each with its markers and a
//! snippet whose matched words are marked.
//!
//! Typing changes the query; each change asks the driver for a search
//! ([`Effect::Search`]), which runs on the search worker in the terminal
//! (see `search_worker`): keys never wait on the index. Answers carry the
//! generation of the query they answer, and one that a newer query
//! overtook is dropped, so the list always shows the last query's hits.
//!
//! Two places take the keys: the query line (a text input: ↑/↓ still
//! choose a hit, Enter goes to it) and, after `Tab`, the hit list, where
//! `l`/`d` toggle learned/disabled on the hit through the planner exactly
//! as on a subject row (on the marks of the hit's topic when it has
//! some), `Space` marks the hit's subject as on its row, and `u` undoes. `Enter` shows the hit as a row of
//! its topic on the Subject tab; `Esc` leaves (the query and hits are kept
//! for the next `S`).

use ratatui_textarea::CursorMove;

use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::modes::{propose, quit};
use crate::tui::moves::clamp;
use crate::tui::pane::Focus;
use crate::tui::pane::Tab;
use crate::tui::plans;
use crate::tui::search::state::Found;
use crate::tui::tree::RowKind;
use jp_kb_core::edit::plan::List;
use jp_kb_core::search::{Hit, check_query};

/// Most hits shown (each is read for its snippet and token count).
pub const LIMIT: usize = 40;

/// `S`: opens the mode on the query line, searching the last query again
/// (the files may have changed since).
pub fn open(app: &mut App) -> Vec<Effect> {
    if app.loaded.model.is_none() {
        app.set_status("nothing loaded to search", true);
        return Vec::new();
    }
    app.mode = Mode::Search(false);
    app.features.search.input.move_cursor(CursorMove::End);
    ask(app)
}

/// A command while the mode is open; `hits`: the hit list has the keys.
pub fn key(app: &mut App, command: &Command, hits: bool) -> Vec<Effect> {
    let count = app.features.search.hits.len();
    let step = |by: isize, app: &mut App| {
        app.features.search.selected = app
            .features
            .search
            .selected
            .saturating_add_signed(by)
            .min(count.saturating_sub(1));
    };
    match command {
        Command::Quit => return quit(app),
        Command::Cancel => app.mode = Mode::Normal,
        Command::NextField => app.mode = Mode::Search(!hits),
        Command::MoveDown => step(1, app),
        Command::MoveUp => step(-1, app),
        Command::PageDown => step(10, app),
        Command::PageUp => step(-10, app),
        Command::Top => app.features.search.selected = 0,
        Command::Bottom => app.features.search.selected = count.saturating_sub(1),
        Command::Confirm => jump(app),
        Command::ToggleLearned if hits => return toggle(app, List::Learned),
        Command::ToggleDisabled if hits => return toggle(app, List::Disabled),
        Command::ToggleMark if hits => mark(app),
        Command::Undo if hits => return vec![Effect::Undo],
        Command::Input(key) if !hits => {
            let before = app.features.search.query();
            app.features.search.input.input(*key);
            if app.features.search.query() != before {
                return ask(app);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// Asks for the hits of the current query (or clears them when it is
/// empty or cannot be searched: said on the query line, no search runs).
fn ask(app: &mut App) -> Vec<Effect> {
    let query = app.features.search.query();
    app.features.search.asked += 1;
    app.features.search.asked_query.clone_from(&query);
    let generation = app.features.search.asked;
    if query.trim().is_empty() {
        settle(app, Vec::new(), None);
        return Vec::new();
    }
    if let Err(e) = check_query(&query) {
        settle(app, Vec::new(), Some(e.to_string()));
        return Vec::new();
    }
    vec![Effect::Search { query, generation }]
}

/// Shows `hits` (or `error`) as the answer to the newest query.
fn settle(app: &mut App, hits: Vec<Hit>, error: Option<String>) {
    let s = &mut app.features.search;
    // The same query again: the selection stays on its subject while it
    // is still a hit.
    let keep = s
        .hit()
        .filter(|_| s.asked_query == s.shown_query)
        .map(|h| (h.topic.clone(), h.slug.clone()));
    s.selected = keep
        .and_then(|(t, slug)| hits.iter().position(|h| h.topic == t && h.slug == slug))
        .unwrap_or(0);
    s.hits = hits;
    s.error = error;
    s.shown = s.asked;
    s.shown_query.clone_from(&s.asked_query);
}

/// A search answered: shown when it answers the newest query.
pub fn found(app: &mut App, found: Found) -> Vec<Effect> {
    // Notes are about the index and the model, not the query (a model
    // that cannot be used is said once, by the search that found it):
    // shown even when a newer query overtook this one.
    for note in found.notes {
        app.set_status(format!("search: {note}"), false);
    }
    if found.generation != app.features.search.asked {
        return Vec::new();
    }
    app.features.search.mode = found.mode;
    match found.result {
        Ok(hits) => settle(app, hits, None),
        Err(e) => settle(app, Vec::new(), Some(e)),
    }
    Vec::new()
}

/// After a load (an edit, a change on disk) the hits' markers and
/// snippets may be stale: the open mode searches again.
pub fn after_load(app: &mut App) -> Vec<Effect> {
    if matches!(app.mode, Mode::Search(_)) {
        ask(app)
    } else {
        Vec::new()
    }
}

/// The hit's subject: its topic's index and the subject's index in that
/// topic's resolution.
fn locate(app: &App, hit: &Hit) -> Option<(usize, usize)> {
    let model = app.loaded.model.as_ref()?;
    let t = model.kb.topics.iter().position(|t| t.id() == hit.topic)?;
    let res = model.kb.topics.get(t)?.resolution()?;
    let i = res.subjects().iter().position(|s| s.slug() == hit.slug)?;
    Some((t, i))
}

/// `Enter`: leaves the mode with the hit's topic selected and its row
/// selected (its directories opened, the filter cleared, hidden subjects
/// shown if it is one), on the Subject tab.
fn jump(app: &mut App) {
    let Some(hit) = app.features.search.hit().cloned() else {
        app.set_status("no hit to go to", false);
        return;
    };
    let Some((t, i)) = locate(app, &hit) else {
        app.set_status(
            format!("{}/{} is no longer a subject", hit.topic, hit.slug),
            true,
        );
        return;
    };
    app.mode = Mode::Normal;
    app.topics.selected = t;
    // Brings the topic's own filter in, which is then cleared.
    clamp(app);
    app.subjects.filter.clear();
    let (hidden, rel) = match app.subject(i) {
        Some(s) => (s.hidden, s.rel_path().to_owned()),
        None => return,
    };
    let mut dir = String::new();
    for part in rel
        .split('/')
        .rev()
        .skip(1)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        if !dir.is_empty() {
            dir.push('/');
        }
        dir.push_str(part);
        app.subjects
            .collapsed
            .remove(&(hit.topic.clone(), dir.clone()));
    }
    let mut message = format!("{}/{}", hit.topic, hit.slug);
    if hidden && !app.subjects.show_hidden {
        app.subjects.show_hidden = true;
        message.push_str(" (hidden: showing hidden and disabled subjects)");
    }
    // The usage order (`U`) may leave the hit out: back to every subject.
    app.features.usage.order = crate::tui::usage::Order::All;
    if let Some(row) = app
        .rows()
        .iter()
        .position(|r| r.kind == RowKind::Subject(i))
    {
        app.select_row(row);
    }
    app.focus = Focus::Subjects;
    app.preview.tab = Tab::Subject;
    app.preview.scroll = 0;
    app.set_status(message, false);
    clamp(app);
}

/// `Space` on the hit list: marks or unmarks the hit's subject in its
/// topic (the marks of its row) and moves to the next hit.
fn mark(app: &mut App) {
    let Some(hit) = app.features.search.hit().cloned() else {
        app.set_status("no hit selected", false);
        return;
    };
    if locate(app, &hit).is_none() {
        app.set_status(
            format!("{}/{} is no longer a subject", hit.topic, hit.slug),
            true,
        );
        return;
    }
    app.features
        .marks
        .toggle(&hit.topic, std::slice::from_ref(&hit.slug));
    app.features.marks.anchor = Some((hit.topic.clone(), hit.slug.clone()));
    let last = app.features.search.hits.len().saturating_sub(1);
    app.features.search.selected = (app.features.search.selected + 1).min(last);
    let message = match app.features.marks.count(&hit.topic) {
        0 => format!("no subject of {} marked", hit.topic),
        n => format!(
            "{n} marked in {}: l/d on its hits act on them as one edit",
            hit.topic
        ),
    };
    app.set_status(message, false);
}

/// `l`/`d` on the hit: the same intent as on its subject row: on the
/// marks of the hit's topic when it has some (they go once the edit is
/// made), else on the hit's subject.
fn toggle(app: &mut App, list: List) -> Vec<Effect> {
    let Some(hit) = app.features.search.hit().cloned() else {
        app.set_status("no hit selected", false);
        return Vec::new();
    };
    let marked = app.features.marks.of(&hit.topic);
    let mut on_marks = false;
    let intent = locate(app, &hit).and_then(|(t, i)| {
        let res = app.loaded.model.as_ref()?.kb.topics.get(t)?.resolution()?;
        let marks: Vec<usize> = marked
            .iter()
            .filter_map(|slug| res.subjects().iter().position(|s| s.slug() == slug))
            .collect();
        on_marks = !marks.is_empty();
        let indices = if on_marks { marks } else { vec![i] };
        Some(crate::tui::selection::toggle_intent(
            res,
            hit.topic.clone(),
            &indices,
            list,
        ))
    });
    let Some(intent) = intent else {
        app.set_status(
            format!("{}/{} is no longer a subject", hit.topic, hit.slug),
            true,
        );
        return Vec::new();
    };
    let effects = propose(app, plans::propose(plans::ask(app, &intent)));
    if on_marks && effects.iter().any(|e| matches!(e, Effect::Apply(_))) {
        app.features.marks.clear(&hit.topic);
    }
    effects
}
