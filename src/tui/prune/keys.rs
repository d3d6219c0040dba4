//! The ageing keys: `A` (the subjects pane's age filter), `P` (open the
//! prune view) and the view's own (move, `space` select, `a` all, `s`
//! "not loaded for", `Enter` disable the selection, `Esc` close), and
//! what arrives from the worker.

use super::state::{IDLE_DAYS, Listed, Pruned};
use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::effect::Effect;
use crate::tui::modes::{propose, quit};
use crate::tui::plans;
use jp_kb_core::edit::plan::{Answer, Intent};

/// What to ask the worker after a load: the ages, and the list when the
/// view is open.
pub fn after_load(app: &mut App) -> Vec<Effect> {
    // A failed load has nothing to read ages of.
    if app.loaded.model.is_none() || app.loaded.error.is_some() {
        return Vec::new();
    }
    vec![request(app)]
}

fn request(app: &mut App) -> Effect {
    let list = matches!(app.mode, Mode::Prune).then(|| {
        app.features.prune.requested += 1;
        (app.features.prune.requested, app.features.prune.idle_days())
    });
    Effect::Prune { list }
}

/// `A`: all subjects, the stale ones, the low-confidence ones.
pub fn cycle_filter(app: &mut App) {
    app.features.prune.filter = app.features.prune.filter.next();
    app.features.prune.filter_generation += 1;
    let message = match app.features.prune.filter.title() {
        Some(what) => format!("showing {what} subjects only (A: next)"),
        None => "showing every subject".to_owned(),
    };
    app.set_status(message, false);
    crate::tui::moves::clamp(app);
}

/// `P`: opens the view and asks for its list.
pub fn open(app: &mut App) -> Vec<Effect> {
    if app.loaded.model.is_none() {
        app.set_status("no workspace loaded", true);
        return Vec::new();
    }
    app.mode = Mode::Prune;
    app.features.prune.cursor = 0;
    app.features.prune.plan = None;
    vec![request(app)]
}

/// A key in the view.
pub fn key(app: &mut App, command: &Command) -> Vec<Effect> {
    let len = app
        .features
        .prune
        .listed
        .as_ref()
        .map_or(0, |l| l.candidates.len());
    let last = len.saturating_sub(1);
    let p = &mut app.features.prune;
    match command {
        Command::Quit => return quit(app),
        Command::Cancel => {
            app.mode = Mode::Normal;
            app.features.prune.plan = None;
            return Vec::new();
        }
        Command::MoveDown => p.cursor = (p.cursor + 1).min(last),
        Command::MoveUp => p.cursor = p.cursor.saturating_sub(1),
        Command::PageDown => p.cursor = (p.cursor + 10).min(last),
        Command::PageUp => p.cursor = p.cursor.saturating_sub(10),
        Command::Top => p.cursor = 0,
        Command::Bottom => p.cursor = last,
        Command::ToggleMark => {
            if let Some(on) = p.selected.get_mut(p.cursor) {
                *on = !*on;
            }
            refresh_plan(app);
        }
        Command::MarkShown => {
            let all = p.selected.iter().all(|on| *on);
            p.selected.iter_mut().for_each(|on| *on = !all);
            refresh_plan(app);
        }
        Command::CyclePruneSince => {
            p.idle = (p.idle + 1) % IDLE_DAYS.len();
            return vec![request(app)];
        }
        Command::Confirm => return disable(app),
        _ => {}
    }
    Vec::new()
}

/// `Enter`: the selection disabled, as the plan shown (asked first when
/// the plan has a reason: a topic it empties).
fn disable(app: &mut App) -> Vec<Effect> {
    let Some(plan) = app.features.prune.plan.take() else {
        app.set_status("nothing selected to disable", true);
        return Vec::new();
    };
    app.mode = Mode::Normal;
    let effects = propose(app, plans::propose(Some(Answer::Do(*plan))));
    if !effects.is_empty() {
        app.set_status("disabling the selected subjects… (u undoes)", false);
    }
    effects
}

/// The worker's answer: the ages always, the list when it answers the
/// last request (every candidate selected).
pub fn arrived(app: &mut App, pruned: Pruned) -> Vec<Effect> {
    let current = app.loaded.model.as_ref().map(|m| m.generation);
    if current.is_some_and(|g| g >= pruned.ages.generation) {
        app.features.prune.ages = pruned.ages;
        app.features.prune.filter_generation += 1;
    }
    if let Some(listed) = pruned
        .listed
        .filter(|l: &Listed| l.generation == app.features.prune.requested)
    {
        app.features.prune.selected = vec![true; listed.candidates.len()];
        app.features.prune.cursor = app
            .features
            .prune
            .cursor
            .min(listed.candidates.len().saturating_sub(1));
        app.features.prune.listed = Some(listed);
        refresh_plan(app);
    }
    crate::tui::moves::clamp(app);
    Vec::new()
}

/// The plan of the selection, asked of the planner again (its count is
/// made off the loop: `plan_costs`).
pub fn refresh_plan(app: &mut App) {
    let selection = app.features.prune.selection();
    app.features.prune.plan = if selection.is_empty() {
        None
    } else {
        match plans::ask(
            app,
            &Intent::DisableSubjects {
                subjects: selection,
            },
        ) {
            Some(Answer::Do(plan)) => Some(Box::new(plan)),
            _ => None,
        }
    };
}
