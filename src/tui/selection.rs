//! Marked subjects (issue 16 item 3): `Space` marks or unmarks the
//! selected subject (on a directory, the subjects under it) and moves
//! down, `v` marks every subject row from the last one `Space` touched to
//! the cursor, `Ctrl-a` marks every subject row shown (the filtered rows,
//! when a filter is set). While a topic has marks, `l`/`d` act on them as
//! one planner intent — one write, one undo step — and the marks go once
//! the edit is carried out; `Esc` clears them first.
//!
//! Marks are slugs, kept per topic: they survive reloads, filtering and
//! collapsing (a slug that no longer exists is ignored when acting).

use super::app::{App, Mode};
use super::effect::Effect;
use super::tree::RowKind;
use jp_kb_core::edit::plan::{Intent, List};

/// The slugs a row stands for: a subject's own, or every subject under a
/// directory (collapsed or not, whatever the filter shows).
fn row_slugs(app: &App, row: usize) -> Vec<String> {
    let (Some(res), Some(r)) = (app.resolution(), app.rows().get(row).cloned()) else {
        return Vec::new();
    };
    match &r.kind {
        RowKind::Subject(i) => res
            .subjects()
            .get(*i)
            .map(|s| vec![s.slug().to_owned()])
            .unwrap_or_default(),
        RowKind::Dir(dir) => {
            let prefix = format!("{}/", dir.rel);
            res.subjects()
                .iter()
                .filter(|s| s.rel_path().starts_with(&prefix))
                .map(|s| s.slug().to_owned())
                .collect()
        }
    }
}

fn topic_id(app: &App) -> Option<String> {
    app.topic_state().map(|t| t.id().to_owned())
}

/// `Space`: marks or unmarks the selected row, then moves down.
pub fn toggle_row(app: &mut App) {
    let Some(topic) = topic_id(app) else { return };
    let row = app.subjects.row;
    let slugs = row_slugs(app, row);
    if slugs.is_empty() {
        return;
    }
    app.features.marks.toggle(&topic, &slugs);
    if let Some(first) = slugs.first() {
        app.features.marks.anchor = Some((topic.clone(), first.clone()));
    }
    let last = app.rows().len().saturating_sub(1);
    app.subjects.row = (row + 1).min(last);
    say_count(app, &topic);
}

/// `v`: marks every subject row between the anchor and the cursor (the
/// cursor's row alone when there is no anchor in this topic).
pub fn mark_range(app: &mut App) {
    let Some(topic) = topic_id(app) else { return };
    let rows = app.rows();
    let cursor = app.subjects.row.min(rows.len().saturating_sub(1));
    let from = app
        .features
        .marks
        .anchor
        .as_ref()
        .filter(|(t, _)| *t == topic)
        .and_then(|(_, slug)| {
            let res = app.resolution()?;
            rows.iter().position(|r| match r.kind {
                RowKind::Subject(i) => res.subjects().get(i).is_some_and(|s| s.slug() == slug),
                RowKind::Dir(_) => false,
            })
        })
        .unwrap_or(cursor);
    let (lo, hi) = (from.min(cursor), from.max(cursor));
    let slugs: Vec<String> = (lo..=hi)
        .filter(|&r| matches!(rows.get(r).map(|r| &r.kind), Some(RowKind::Subject(_))))
        .flat_map(|r| row_slugs(app, r))
        .collect();
    app.features.marks.mark(&topic, slugs);
    say_count(app, &topic);
}

/// `Ctrl-a`: marks every subject row shown (with a filter, the rows it
/// keeps).
pub fn mark_shown(app: &mut App) {
    let Some(topic) = topic_id(app) else { return };
    let rows = app.rows();
    let slugs: Vec<String> = (0..rows.len())
        .filter(|&r| matches!(rows[r].kind, RowKind::Subject(_)))
        .flat_map(|r| row_slugs(app, r))
        .collect();
    app.features.marks.mark(&topic, slugs);
    say_count(app, &topic);
}

fn say_count(app: &mut App, topic: &str) {
    let n = app.features.marks.count(topic);
    let message = match n {
        0 => "no subject marked".to_owned(),
        1 => "1 subject marked: l/d act on it · Esc clears".to_owned(),
        n => format!("{n} subjects marked: l/d act on them as one edit · Esc clears"),
    };
    app.set_status(message, false);
}

/// What `l`/`d` mean for the marked subjects of the selected topic, or
/// `None` when it has none: when every marked subject is already in the
/// list, taking them all out; else adding the ones not in it yet.
pub fn intent(app: &App, list: List) -> Option<Intent> {
    let topic = topic_id(app)?;
    let res = app.resolution()?;
    let marked = app.features.marks.of(&topic);
    let indices: Vec<usize> = marked
        .iter()
        .filter_map(|slug| res.subjects().iter().position(|s| s.slug() == slug))
        .collect();
    if indices.is_empty() {
        return None;
    }
    Some(toggle_intent(res, topic, &indices, list))
}

/// Before `l`/`d`: whether the marks are what it acts on.
pub fn start_acting(app: &mut App) {
    app.features.marks.acting = topic_id(app).is_some_and(|t| app.features.marks.count(&t) > 0);
}

/// After an edit of the marks was proposed or a dialog about it answered:
/// carried out, the marks go; a dialog still open keeps them (and the
/// flag); anything else (a refusal, a cancel) keeps the marks.
pub fn after_proposal(app: &mut App, effects: &[Effect]) {
    if !app.features.marks.acting || matches!(app.mode, Mode::Choice(_)) {
        return;
    }
    app.features.marks.acting = false;
    if effects.iter().any(|e| matches!(e, Effect::Apply(_)))
        && let Some(topic) = topic_id(app)
    {
        app.features.marks.clear(&topic);
    }
}

/// What `l`/`d` mean for subjects `indices` of `topic` (a row, a hit or
/// the marks): when every one is already in the list, taking them all
/// out; else adding the ones not in it yet.
pub fn toggle_intent(
    res: &jp_kb_core::subjects::Resolution,
    topic: String,
    indices: &[usize],
    list: List,
) -> Intent {
    let on = |i: usize| match list {
        List::Learned => res.is_learned(i),
        List::Disabled => res.is_disabled(i),
        // The TUI's keys toggle only the two lists above.
        _ => false,
    };
    let slug = |&i: &usize| res.subjects()[i].slug().to_owned();
    if indices.iter().all(|&i| on(i)) {
        Intent::Remove {
            list,
            topic,
            entries: indices.iter().map(slug).collect(),
        }
    } else {
        Intent::Add {
            list,
            topic,
            entries: indices.iter().filter(|&&i| !on(i)).map(slug).collect(),
        }
    }
}
