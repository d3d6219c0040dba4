//! `update`: the only place the app state changes. It returns effects
//! (writes, reloads, the editor) as data and never does I/O itself.

use ratatui::layout::Rect;

use super::action::{Action, Effect, Tab};
use super::app::{App, Focus, Mode, Plan, Tester};
use super::forms;
use super::model::{Fetched, LoadOutcome};
use super::picking;
use super::plans::{self, Proposal};
use super::tree::RowKind;
use super::view;
use crate::edit::plan::List;

/// Applies one action.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    if app.loading.is_some() && !while_loading(&action) {
        // Nothing to act on before the subjects arrive.
        app.set_status(
            "still reading the subjects; try again when they show",
            false,
        );
        return Vec::new();
    }
    match action {
        Action::Resize(w, h) => {
            app.size = (w, h);
            Vec::new()
        }
        Action::Loaded(outcome) => {
            if let Ok(outcome) = std::sync::Arc::try_unwrap(outcome) {
                if outcome.started != 0 && outcome.started < app.shown_load {
                    // Overtaken by a load that started later (and saw
                    // these changes too); its caches still go.
                    app.cache.invalidate(&outcome.changed);
                    return Vec::new();
                }
                app.shown_load = app.shown_load.max(outcome.started);
                if app.loading.take().is_some() {
                    app.status = super::app::Status::default();
                }
                loaded(app, outcome);
                // The findings depend on everything a load reads.
                app.findings.pending = true;
                return vec![Effect::Check];
            }
            Vec::new()
        }
        Action::Fetched(fetched) => {
            match *fetched {
                Fetched::Prompt(prompt) => {
                    if let Some(model) = &mut app.model {
                        model.set_prompt(prompt);
                    }
                }
                Fetched::PromptHead(part) => {
                    if let Some(model) = &mut app.model {
                        model.extend_prompt_head(part);
                    }
                }
                Fetched::ClientPrompt(view) => {
                    if let Some(model) = &mut app.model {
                        model.set_client_prompt(*view);
                    }
                }
                other => app.cache.insert(other),
            }
            Vec::new()
        }
        Action::Checked(report) => {
            app.findings.set(*report);
            Vec::new()
        }
        Action::FilesChanged(paths) => vec![Effect::Reload { paths }],
        Action::Done {
            message,
            error,
            changed,
        } => {
            app.set_status(message, error);
            if changed.is_some() {
                app.last_change = changed;
            }
            Vec::new()
        }
        Action::Click(x, y) => {
            super::mouse::click(app, x, y);
            Vec::new()
        }
        Action::ScrollUp(x, y) => super::mouse::wheel(app, x, y, false),
        Action::ScrollDown(x, y) => super::mouse::wheel(app, x, y, true),
        other => match app.mode {
            Mode::Normal => normal(app, &other),
            Mode::Help => {
                match other {
                    Action::Quit => return quit(app),
                    Action::Cancel | Action::ToggleHelp => app.mode = Mode::Normal,
                    Action::MoveDown => app.help_scroll = app.help_scroll.saturating_add(1),
                    Action::MoveUp => app.help_scroll = app.help_scroll.saturating_sub(1),
                    _ => {}
                }
                Vec::new()
            }
            Mode::Filter(_) => filter(app, &other),
            Mode::Pattern(_) => tester(app, &other),
            Mode::Choice(_) => choice(app, &other),
            Mode::Form(_) => form(app, &other),
            Mode::Picker(_) if matches!(other, Action::Quit) => quit(app),
            Mode::Picker(_) => {
                picking::key(app, &other);
                Vec::new()
            }
        },
    }
}

fn quit(app: &mut App) -> Vec<Effect> {
    app.quit = true;
    vec![Effect::Quit]
}

fn loaded(app: &mut App, outcome: LoadOutcome) {
    app.cache.invalidate(&outcome.changed);
    match outcome.result {
        Ok(model) => {
            let wanted = app
                .pending_topic
                .take()
                .or_else(|| app.topic_state().map(|t| t.id().to_owned()));
            app.model = Some(model);
            if let Some(index) = wanted.and_then(|id| {
                app.model
                    .as_ref()
                    .and_then(|m| m.kb.topics.iter().position(|t| t.id() == id))
            }) {
                app.topic = index;
            }
            if app.load_error.take().is_some() {
                app.set_status("configuration fixed; editing is possible again", false);
            }
        }
        Err(message) => {
            // Paths inside the workspace are shown relative to it.
            let message = match &app.model {
                Some(m) => message.replace(&format!("{}/", m.kb.root().display()), ""),
                None => message,
            };
            app.load_error = Some(message);
        }
    }
    clamp(app);
}

/// The actions taken while the first load runs in the background:
/// quitting, resizing, the help, and what arrives from workers.
fn while_loading(action: &Action) -> bool {
    matches!(
        action,
        Action::Quit
            | Action::Resize(..)
            | Action::ToggleHelp
            | Action::Cancel
            | Action::Loaded(_)
            | Action::Fetched(_)
            | Action::Checked(_)
            | Action::Done { .. }
    )
}

pub(super) fn topic_count(app: &App) -> usize {
    app.model.as_ref().map_or(0, |m| m.kb.topics.len())
}

pub(super) fn clamp(app: &mut App) {
    app.topic = app.topic.min(topic_count(app).saturating_sub(1));
    app.row = app.row.min(app.rows().len().saturating_sub(1));
}

pub(super) fn areas(app: &App) -> view::Areas {
    view::areas(
        Rect::new(0, 0, app.size.0, app.size.1),
        app.banner.is_some() || app.load_error.is_some(),
        topic_count(app),
    )
}

fn page(app: &App) -> usize {
    let a = areas(app);
    let rect = match app.focus {
        Focus::Topics => a.topics,
        Focus::Subjects => a.subjects,
        Focus::Preview => a.preview,
    };
    usize::from(rect.height.saturating_sub(3)).max(1)
}

/// Moves the focused pane's selection (or the preview's scroll) by
/// `delta` rows; `None` jumps to the end.
pub(super) fn move_by(app: &mut App, delta: isize) {
    let step = |cur: usize, len: usize| -> usize {
        let last = len.saturating_sub(1);
        cur.saturating_add_signed(delta).min(last)
    };
    match app.focus {
        Focus::Topics => {
            let new = step(app.topic, topic_count(app));
            if new != app.topic {
                app.topic = new;
                app.row = 0;
                app.scroll = 0;
            }
        }
        Focus::Subjects => {
            let new = step(app.row, app.rows().len());
            if new != app.row {
                app.row = new;
                app.scroll = 0;
            }
        }
        Focus::Preview => {
            let scroll = isize::try_from(app.scroll).unwrap_or(0) + delta;
            app.scroll = u16::try_from(scroll.max(0)).unwrap_or(u16::MAX);
        }
    }
}

fn cycle_focus(app: &mut App, forward: bool) {
    app.focus = match (app.focus, forward) {
        (Focus::Topics, true) | (Focus::Preview, false) => Focus::Subjects,
        (Focus::Subjects, true) | (Focus::Topics, false) => Focus::Preview,
        (Focus::Preview, true) | (Focus::Subjects, false) => Focus::Topics,
    };
}

pub(super) fn set_collapsed(app: &mut App, collapse: Option<bool>) {
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
                app.collapsed.insert((id, rel));
            } else {
                app.collapsed.remove(&(id, rel));
            }
        }
        RowKind::Subject(_) if collapse == Some(true) => {
            // Left on a subject goes to its directory's row.
            let rows = app.rows();
            if let Some(parent) = rows[..app.row]
                .iter()
                .rposition(|r| r.depth < row.depth && matches!(r.kind, RowKind::Dir(_)))
            {
                app.row = parent;
            }
        }
        RowKind::Subject(_) => {
            if collapse.is_none() {
                app.tab = Tab::Subject;
                app.focus = Focus::Preview;
            }
        }
    }
}

fn run_plan(app: &mut App, plan: Plan) -> Vec<Effect> {
    if let Some(err) = &app.load_error {
        app.set_status(
            format!("read-only until the configuration is fixed: {err}"),
            true,
        );
        return Vec::new();
    }
    for note in &plan.notes {
        // Shown now; the save's summary replaces it when it lands.
        app.set_status(format!("note: {note}"), false);
    }
    plan.steps
        .into_iter()
        .map(|s| Effect::ApplyEdit {
            file: s.path,
            edits: s.edits,
            declare: s.declare,
        })
        .collect()
}

fn propose(app: &mut App, proposal: Proposal) -> Vec<Effect> {
    match proposal {
        Proposal::Apply(plan) => run_plan(app, plan),
        Proposal::Ask(choice) => {
            app.mode = Mode::Choice(choice);
            Vec::new()
        }
        Proposal::Note(why) => {
            app.set_status(why, false);
            Vec::new()
        }
        Proposal::Refuse(why) => {
            app.set_status(why, true);
            Vec::new()
        }
    }
}

fn normal(app: &mut App, action: &Action) -> Vec<Effect> {
    let page = isize::try_from(page(app)).unwrap_or(1);
    match action {
        Action::Quit => return quit(app),
        Action::MoveUp => move_by(app, -1),
        Action::MoveDown => move_by(app, 1),
        Action::PageUp => move_by(app, -page),
        Action::PageDown => move_by(app, page),
        Action::Top => move_by(app, isize::MIN / 2),
        Action::Bottom => move_by(app, isize::MAX / 2),
        Action::FocusNext => cycle_focus(app, true),
        Action::FocusPrev => cycle_focus(app, false),
        Action::Activate => match app.focus {
            Focus::Topics => app.focus = Focus::Subjects,
            Focus::Subjects => set_collapsed(app, None),
            Focus::Preview => {}
        },
        Action::Collapse => set_collapsed(app, Some(true)),
        Action::Expand => set_collapsed(app, Some(false)),
        Action::SelectTab(tab) => {
            app.tab = *tab;
            app.scroll = 0;
        }
        Action::NextTab | Action::PrevTab => {
            let n = Tab::ALL.len();
            let step = if matches!(action, Action::NextTab) {
                1
            } else {
                n - 1
            };
            app.tab = Tab::ALL[(app.tab.index() + step) % n];
            app.scroll = 0;
        }
        other => return commands(app, other),
    }
    clamp(app);
    Vec::new()
}

/// Main-screen actions that edit, open dialogs or change settings.
fn commands(app: &mut App, action: &Action) -> Vec<Effect> {
    match action {
        Action::ToggleLearned => return propose(app, plans::toggle(app, List::Learned)),
        Action::ToggleDisabled => return propose(app, plans::toggle(app, List::Disabled)),
        Action::ToggleEnable => return propose(app, plans::toggle_enable(app)),
        Action::Undo | Action::Redo => {
            if let Some(err) = &app.load_error {
                app.set_status(
                    format!("read-only until the configuration is fixed: {err}"),
                    true,
                );
                return Vec::new();
            }
            return vec![if matches!(action, Action::Undo) {
                Effect::Undo
            } else {
                Effect::Redo
            }];
        }
        Action::EditTopic => match forms::edit_topic(app) {
            Some(f) => app.mode = Mode::Form(f),
            None => app.set_status("no topic selected", true),
        },
        Action::NewTopic if app.model.is_some() => app.mode = Mode::Form(forms::new_topic()),
        Action::OpenPatternTester if app.topic_state().is_some() => {
            app.mode = Mode::Pattern(Tester {
                input: ratatui_textarea::TextArea::default(),
                to_disabled: false,
                cost: Vec::new(),
            });
            app.tab = Tab::Learn;
            app.scroll = 0;
        }
        Action::OpenFilter => {
            let input = ratatui_textarea::TextArea::new(vec![app.filter.clone()]);
            let mut input = input;
            input.move_cursor(ratatui_textarea::CursorMove::End);
            app.mode = Mode::Filter(input);
            app.focus = Focus::Subjects;
        }
        Action::ToggleShowHidden => {
            app.show_hidden = !app.show_hidden;
            app.set_status(
                if app.show_hidden {
                    "showing hidden and disabled subjects"
                } else {
                    "hiding hidden and disabled subjects"
                },
                false,
            );
        }
        Action::OpenEditor => {
            let subject = match app.focus {
                Focus::Topics => None,
                _ => app
                    .selected_subject()
                    .and_then(|i| app.subject(i))
                    .map(|s| s.path().to_path_buf()),
            };
            let path = match (subject, app.tab) {
                (Some(p), tab) if tab != Tab::Config => Some(p),
                _ => app.shown_target(),
            };
            if let Some(path) = path {
                return vec![Effect::OpenEditor(path)];
            }
        }
        Action::PickLayer => picking::open(app),
        Action::Reload => return vec![Effect::Reload { paths: Vec::new() }],
        Action::ToggleFindingsScope => super::findings::toggle_scope(app),
        Action::CyclePromptView => {
            // From another tab the key first shows the Prompt tab as it
            // was left; on it, the next view.
            if app.tab == Tab::Prompt {
                app.prompt_client = super::client_prompt::next_view(app.prompt_client.as_deref());
            }
            app.tab = Tab::Prompt;
            app.scroll = 0;
        }
        Action::ToggleHelp => {
            app.help_scroll = 0;
            app.mode = Mode::Help;
        }
        _ => {}
    }
    clamp(app);
    Vec::new()
}

fn filter(app: &mut App, action: &Action) -> Vec<Effect> {
    let Mode::Filter(input) = &mut app.mode else {
        return Vec::new();
    };
    match action {
        Action::Quit => return quit(app),
        Action::Cancel => {
            app.filter.clear();
            app.mode = Mode::Normal;
        }
        Action::Confirm => app.mode = Mode::Normal,
        Action::Input(key) => {
            input.input(*key);
            app.filter = input.lines().join("");
            // Land on the first matching subject, not its directory.
            app.row = app
                .rows()
                .iter()
                .position(|r| matches!(r.kind, RowKind::Subject(_)))
                .unwrap_or(0);
        }
        _ => {}
    }
    clamp(app);
    Vec::new()
}

fn tester(app: &mut App, action: &Action) -> Vec<Effect> {
    let Mode::Pattern(t) = &mut app.mode else {
        return Vec::new();
    };
    match action {
        Action::Quit => quit(app),
        Action::Cancel => {
            app.mode = Mode::Normal;
            Vec::new()
        }
        Action::NextField => {
            t.to_disabled = !t.to_disabled;
            plans::refresh_tester_cost(app);
            Vec::new()
        }
        Action::Input(key) => {
            t.input.input(*key);
            app.scroll = 0;
            plans::refresh_tester_cost(app);
            Vec::new()
        }
        Action::Confirm => {
            let (pattern, to_disabled) = (t.pattern(), t.to_disabled);
            let proposal = plans::add_pattern(app, &pattern, to_disabled);
            if matches!(proposal, Proposal::Apply(_) | Proposal::Ask(_)) {
                app.mode = Mode::Normal;
            }
            propose(app, proposal)
        }
        _ => Vec::new(),
    }
}

fn choice(app: &mut App, action: &Action) -> Vec<Effect> {
    let Mode::Choice(c) = &app.mode else {
        return Vec::new();
    };
    match action {
        Action::Quit => quit(app),
        Action::Cancel => {
            app.mode = Mode::Normal;
            app.set_status("cancelled", false);
            Vec::new()
        }
        Action::Choose(n) if *n >= 1 && *n <= c.options.len() => {
            let plan = c.options[*n - 1].1.clone();
            app.mode = Mode::Normal;
            // An option that removes pre-loaded subjects, turns a topic
            // off or crosses the budget asks once more.
            if plan.confirm.is_empty() {
                run_plan(app, plan)
            } else {
                app.mode = Mode::Choice(plans::confirm(plan));
                Vec::new()
            }
        }
        // Enter confirms a dialog with one option (the confirmation).
        Action::Confirm if c.options.len() == 1 => {
            let plan = c.options[0].1.clone();
            app.mode = Mode::Normal;
            run_plan(app, plan)
        }
        _ => Vec::new(),
    }
}

fn form(app: &mut App, action: &Action) -> Vec<Effect> {
    let Mode::Form(f) = &mut app.mode else {
        return Vec::new();
    };
    let n = f.fields.len();
    match action {
        Action::Quit => return quit(app),
        Action::Cancel => app.mode = Mode::Normal,
        Action::NextField => f.focus = (f.focus + 1) % n,
        Action::PrevField => f.focus = (f.focus + n - 1) % n,
        Action::Confirm if f.fields[f.focus].multiline => {
            f.fields[f.focus].input.insert_newline();
        }
        Action::Confirm | Action::Save => {
            let f = f.clone();
            match plans::submit(app, &f) {
                Proposal::Refuse(why) => {
                    if let Mode::Form(open) = &mut app.mode {
                        open.error = Some(why);
                    }
                }
                proposal => {
                    if let (super::app::FormKind::NewTopic, Proposal::Apply(_)) =
                        (&f.kind, &proposal)
                    {
                        app.pending_topic = Some(f.fields[0].value().trim().to_owned());
                    }
                    app.mode = Mode::Normal;
                    return propose(app, proposal);
                }
            }
        }
        Action::Input(key) => {
            f.error = None;
            f.fields[f.focus].input.input(*key);
        }
        _ => {}
    }
    Vec::new()
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
