//! `update`: the only place the app state changes. It takes a [`Msg`] (a
//! user [`Command`] or an [`Event`] from outside) and returns effects
//! (writes, reloads, the editor) as data; it never does I/O itself.
//! Moving through the panes is [`super::moves`]'s, the modes over the
//! main screen (filter, tester, dialogs, forms) are [`super::modes`]'s.

use super::app::{App, Mode};
use super::command::Command;
use super::effect::Effect;
use super::event::{Event, Msg};
use super::findings::actions::FindingKey;
use super::forms;
use super::model::{Fetched, LoadOutcome};
use super::modes::{choice, filter, form, propose, quit};
use super::moves::{clamp, cycle_focus, move_by, page, set_collapsed};
use super::pane::Focus;
use super::pane::Tab;
use super::picker::keys as picker_keys;
use super::plans;
use super::tester::keys::tester;
use super::tester::state::Tester;
use jp_kb_core::edit::plan::List;

/// Applies one command or event.
pub fn update(app: &mut App, msg: impl Into<Msg>) -> Vec<Effect> {
    let msg = msg.into();
    if matches!(msg, Msg::Command(Command::Suspend)) {
        // In every mode, before the first load too: the terminal stops.
        return vec![Effect::Suspend];
    }
    let Some(msg) = before_load(app, msg) else {
        return Vec::new();
    };
    let effects = dispatch(app, msg);
    // Whatever changed the rows, the cursor stays on its subject.
    app.follow_cursor();
    super::plan_costs::refresh_header(app);
    effects
}

fn dispatch(app: &mut App, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Event(event) => on_event(app, event),
        Msg::Command(command) if super::readonly::refuse(app, &command) => Vec::new(),
        Msg::Command(command) => match app.mode {
            Mode::Normal => normal(app, &command),
            Mode::Help(_) | Mode::Messages(_) => super::nav::overlay(app, &command),
            Mode::HelpSearch(..) => super::nav::search(app, &command),
            Mode::Filter(_) => filter(app, &command),
            Mode::Pattern(_) => tester(app, &command),
            Mode::Choice(_) => choice(app, &command),
            Mode::Form(_) => form(app, &command),
            Mode::Picker(_) => picker_keys::key(app, &command),
            Mode::PreviewSearch(_) => crate::tui::preview_search::keys::typing(app, &command),
            Mode::Search(hits) => crate::tui::search::keys::key(app, &command, hits),
            Mode::Prune => crate::tui::prune::keys::key(app, &command),
        },
    }
}

fn on_event(app: &mut App, event: Event) -> Vec<Effect> {
    match event {
        Event::Resize(w, h) => {
            app.screen.size = (w, h);
            Vec::new()
        }
        Event::Loaded(outcome) => {
            // Moved in whole: a load always reaches the state (or is
            // dropped by the rule below, its caches still going).
            let outcome = *outcome;
            if outcome.started != 0 && outcome.started < app.loaded.shown {
                // Overtaken by a load that started later (and saw these
                // changes too); its caches still go.
                app.loaded.cache.invalidate(&outcome.changed);
                return Vec::new();
            }
            app.loaded.shown = app.loaded.shown.max(outcome.started);
            let (mut kept, mut listed) = (Vec::new(), None);
            if let Some(loading) = app.loaded.loading.take() {
                app.status.clear();
                (kept, listed) = (loading.kept, loading.listed);
            }
            loaded(app, outcome);
            if let Some(listed) = listed {
                super::listing::keys::reuse_rows(app, listed);
            }
            // The findings depend on everything a load reads.
            app.features.findings.pending = true;
            let mut effects = vec![Effect::Check];
            if app.loaded.model.as_ref().is_some_and(|m| !m.prompt_ready) {
                effects.push(Effect::RenderPrompt);
            }
            effects.extend(crate::tui::search::keys::after_load(app));
            effects.extend(crate::tui::prune::keys::after_load(app));
            // The keys pressed before the load, now on the loaded state,
            // in order (a key's effects after the load's).
            for command in kept {
                app.follow_cursor();
                effects.extend(dispatch(app, Msg::Command(command)));
                super::plan_costs::refresh_header(app);
            }
            effects
        }
        Event::Listed(listed) => {
            super::listing::keys::listed(app, *listed);
            Vec::new()
        }
        Event::Fetched(fetched) => on_fetched(app, *fetched),
        Event::Checked(report) => {
            app.features.findings.set(*report);
            Vec::new()
        }
        Event::Usage(read) => {
            app.features.usage.set(*read);
            clamp(app);
            Vec::new()
        }
        Event::Searched(found) => crate::tui::search::keys::found(app, *found),
        Event::Pruned(pruned) => crate::tui::prune::keys::arrived(app, *pruned),
        Event::Counted(counted) => match super::plan_costs::arrived(app, *counted) {
            Some(plan) => run_waited_plan(app, plan),
            None => Vec::new(),
        },
        Event::FilesChanged(paths) => {
            // Dropped now, not when the reload arrives: a reload worker
            // drops a result a newer change overtook (its paths are not
            // in the newer load's list).
            app.loaded.cache.invalidate(&paths);
            vec![Effect::Reload { paths }]
        }
        Event::Done {
            message,
            error,
            changed,
        } => {
            app.set_status(message, error);
            if changed.is_some() {
                app.preview.config.last_change = changed;
            }
            Vec::new()
        }
    }
}

/// What a read or a render brought in.
fn on_fetched(app: &mut App, fetched: Fetched) -> Vec<Effect> {
    match fetched {
        Fetched::PromptCount(count) => {
            if let Some(model) = &mut app.loaded.model {
                model.set_prompt_count(count);
            }
            if let Some(plan) = super::plan_costs::settle(app) {
                return run_waited_plan(app, plan);
            }
        }
        Fetched::Prompt(prompt) => {
            if let Some(model) = &mut app.loaded.model {
                model.set_prompt(prompt);
            }
            // Plans made while the section was being counted: a
            // change that only waited for the count is made now.
            if let Some(plan) = super::plan_costs::settle(app) {
                crate::tui::preview_search::keys::settle(app);
                return run_waited_plan(app, plan);
            }
        }
        Fetched::PromptHead(part) => {
            if let Some(model) = &mut app.loaded.model {
                model.extend_prompt_head(part);
            }
        }
        Fetched::ClientPrompt(view) => {
            if let Some(model) = &mut app.loaded.model {
                model.set_client_prompt(*view);
            }
        }
        other => app.loaded.cache.insert(other),
    }
    // A search waiting for the text it searches.
    crate::tui::preview_search::keys::settle(app);
    Vec::new()
}

fn loaded(app: &mut App, outcome: LoadOutcome) {
    app.loaded.cache.invalidate(&outcome.changed);
    match outcome.result {
        Ok(model) => {
            let wanted = app
                .topics
                .pending
                .take()
                .or_else(|| app.topic_state().map(|t| t.id().to_owned()));
            app.loaded.model = Some(model);
            if let Some(index) = wanted.and_then(|id| {
                app.loaded
                    .model
                    .as_ref()
                    .and_then(|m| m.kb.topics.iter().position(|t| t.id() == id))
            }) {
                app.topics.selected = index;
            }
            if app.loaded.error.take().is_some() {
                app.set_status("configuration fixed; editing is possible again", false);
            }
        }
        Err(message) => app.loaded.error = Some(message),
    }
    clamp(app);
}

/// While the first load runs in the background: what arrives from
/// workers and the terminal is taken (a file change is dropped: the load
/// under way reads it), quitting and the help act now, every other key
/// is kept for the load (see [`super::listing`]). `None`: nothing more
/// to do.
fn before_load(app: &mut App, msg: Msg) -> Option<Msg> {
    let Some(loading) = &app.loaded.loading else {
        return Some(msg);
    };
    match msg {
        Msg::Event(Event::FilesChanged(_)) => None,
        Msg::Command(command) if !super::listing::keys::acts_now(loading, &app.mode, &command) => {
            super::listing::keys::keep(app, command);
            None
        }
        msg => Some(msg),
    }
}

fn normal(app: &mut App, command: &Command) -> Vec<Effect> {
    if let Some(effects) = crate::tui::preview_search::keys::key(app, command) {
        return effects;
    }
    match crate::tui::findings::actions::key(app, command) {
        Some(FindingKey::Propose(proposal)) => return propose(app, *proposal),
        Some(FindingKey::Effects(effects)) => return effects,
        None => {}
    }
    let page = isize::try_from(page(app)).unwrap_or(1);
    match command {
        Command::Quit => return quit(app),
        Command::MoveUp => move_by(app, -1),
        Command::MoveDown => move_by(app, 1),
        Command::PageUp => move_by(app, -page),
        Command::PageDown => move_by(app, page),
        Command::Top => move_by(app, isize::MIN / 2),
        Command::Bottom => move_by(app, isize::MAX / 2),
        Command::FocusNext => cycle_focus(app, true),
        Command::FocusPrev => cycle_focus(app, false),
        Command::Activate => match app.focus {
            Focus::Topics => app.focus = Focus::Subjects,
            Focus::Subjects => set_collapsed(app, None),
            Focus::Preview if app.preview.tab == Tab::Findings => {
                match crate::tui::findings::actions::jump(app) {
                    Ok(place) => app.set_status(place, false),
                    Err(why) => app.set_status(why, true),
                }
            }
            Focus::Preview => {}
        },
        Command::Cancel => {
            super::nav::back_out(app);
        }
        Command::ToggleMark if app.focus != Focus::Topics => super::selection::toggle_row(app),
        Command::MarkRange if app.focus != Focus::Topics => super::selection::mark_range(app),
        Command::MarkShown if app.focus != Focus::Topics => super::selection::mark_shown(app),
        Command::CycleUsageOrder => cycle_usage(app),
        Command::CycleAgeFilter => crate::tui::prune::keys::cycle_filter(app),
        Command::OpenPrune => return crate::tui::prune::keys::open(app),
        Command::Collapse => set_collapsed(app, Some(true)),
        Command::Expand => set_collapsed(app, Some(false)),
        Command::SelectTab(tab) => {
            app.preview.config.jump = None;
            app.preview.tab = *tab;
            app.preview.scroll = 0;
        }
        Command::NextTab | Command::PrevTab => {
            app.preview.config.jump = None;
            let n = Tab::ALL.len();
            let step = if matches!(command, Command::NextTab) {
                1
            } else {
                n - 1
            };
            app.preview.tab = Tab::ALL[(app.preview.tab.index() + step) % n];
            app.preview.scroll = 0;
        }
        Command::PickTopic(_)
        | Command::PickRow(_)
        | Command::PickTab(_)
        | Command::Scroll { .. } => {
            pointer(app, command);
        }
        other => return commands(app, other),
    }
    clamp(app);
    Vec::new()
}

/// `U`: the next usage order of the subjects pane.
fn cycle_usage(app: &mut App) {
    app.features.usage.order = app.features.usage.order.next();
    let message = if !app.features.usage.is_loaded() {
        "no usage read yet: `jp-kb mcp` records what assistants load".to_owned()
    } else if let Some(label) = app.features.usage.order.label() {
        format!("subjects: {label} (U: next)")
    } else {
        "subjects: all".to_owned()
    };
    app.set_status(message, false);
    app.subjects.row = 0;
}

/// Main-screen actions that edit, open dialogs or change settings.
fn commands(app: &mut App, command: &Command) -> Vec<Effect> {
    match command {
        Command::ToggleLearned => return super::modes::toggle_list(app, List::Learned),
        Command::ToggleDisabled => return super::modes::toggle_list(app, List::Disabled),
        Command::ToggleEnable => return propose(app, plans::toggle_enable(app)),
        Command::Undo | Command::Redo => {
            if let Some(err) = &app.loaded.error {
                app.set_status(
                    format!("read-only until the configuration is fixed: {err}"),
                    true,
                );
                return Vec::new();
            }
            return vec![if matches!(command, Command::Undo) {
                Effect::Undo
            } else {
                Effect::Redo
            }];
        }
        Command::EditTopic => match app.topic_state().map(forms::edit_topic) {
            Some(f) => app.mode = Mode::Form(f),
            None => app.set_status("no topic selected", true),
        },
        Command::NewTopic if app.loaded.model.is_some() => {
            app.mode = Mode::Form(forms::new_topic());
        }
        Command::OpenPatternTester if app.topic_state().is_some() => {
            app.mode = Mode::Pattern(Tester::new());
            app.preview.tab = Tab::Learn;
            app.preview.scroll = 0;
        }
        Command::OpenFilter => {
            // The current filter comes back selected, as in an address
            // bar: typing starts a new filter, an arrow key keeps it to
            // edit (it used to append what was typed to the old one).
            let mut input = ratatui_textarea::TextArea::new(vec![app.subjects.filter.clone()]);
            input.set_selection_style(app.screen.theme.selected(true));
            input.select_all();
            app.mode = Mode::Filter(input);
            app.focus = Focus::Subjects;
        }
        Command::ToggleShowHidden => {
            app.subjects.show_hidden = !app.subjects.show_hidden;
            app.set_status(
                if app.subjects.show_hidden {
                    "showing hidden and disabled subjects"
                } else {
                    "hiding hidden and disabled subjects"
                },
                false,
            );
        }
        Command::OpenEditor => return open_editor(app),
        Command::PickLayer => picker_keys::open(app),
        Command::OpenSearch => return crate::tui::search::keys::open(app),
        Command::Reload => return vec![Effect::Reload { paths: Vec::new() }],
        Command::ToggleFindingsScope => toggle_findings_scope(app),
        Command::CyclePromptView => {
            // From another tab the key first shows the Prompt tab as it
            // was left; on it, the next view.
            if app.preview.tab == Tab::Prompt {
                app.preview.prompt_client =
                    super::client_prompt::next_view(app.preview.prompt_client.as_deref());
            }
            app.preview.tab = Tab::Prompt;
            app.preview.scroll = 0;
        }
        Command::ToggleHelp => {
            super::nav::open_help(app);
        }
        Command::ShowMessages => super::nav::open_messages(app),
        Command::Copy => return super::osc52::copy(app),
        Command::ToggleWrap => {
            app.preview.wrap = !app.preview.wrap;
            app.set_status(
                if app.preview.wrap {
                    "preview: long lines wrap (↪ marks a continuation)"
                } else {
                    "preview: long lines are cut"
                },
                false,
            );
        }
        _ => {}
    }
    clamp(app);
    Vec::new()
}

/// A click or the wheel (mapped through the drawn layout by
/// [`super::mouse`]); only the main screen answers the mouse.
fn pointer(app: &mut App, command: &Command) {
    match *command {
        Command::PickTopic(row) => {
            app.focus = Focus::Topics;
            if let Some(i) = row
                && i != app.topics.selected
            {
                app.topics.selected = i;
                app.subjects.row = 0;
                app.preview.scroll = 0;
            }
        }
        Command::PickRow(row) => {
            app.focus = Focus::Subjects;
            if let Some(i) = row {
                if i == app.subjects.row {
                    set_collapsed(app, None);
                } else {
                    app.subjects.row = i;
                    app.preview.scroll = 0;
                }
            }
        }
        Command::PickTab(tab) => {
            app.focus = Focus::Preview;
            if let Some(tab) = tab {
                app.preview.config.jump = None;
                app.preview.tab = tab;
                app.preview.scroll = 0;
            }
        }
        Command::Scroll { pane, down } => {
            // The wheel scrolls the pane under it; the focus stays.
            let step = if pane == Focus::Preview { 3 } else { 1 };
            let saved = app.focus;
            app.focus = pane;
            move_by(app, if down { step } else { -step });
            app.focus = saved;
        }
        _ => {}
    }
}

/// `t`: shows the Findings tab, switching between every topic's findings
/// and the selected topic's.
fn toggle_findings_scope(app: &mut App) {
    if app.preview.tab == Tab::Findings {
        app.features.findings.only_topic = !app.features.findings.only_topic;
    } else {
        app.preview.tab = Tab::Findings;
    }
    // The findings cursor moves with j/k in the focused preview.
    app.focus = Focus::Preview;
    app.features.findings.cursor = 0;
    app.preview.config.jump = None;
    app.preview.scroll = 0;
    let id = app.topic_state().map(|t| t.id().to_owned());
    let message = match (app.features.findings.only_topic, id) {
        (true, Some(id)) => format!("findings of topic `{id}` only"),
        _ => "findings of every topic".to_owned(),
    };
    app.set_status(message, false);
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;

/// `o`: the selected subject on every tab but Config, which opens the
/// config file (the Learn tab once opened it too).
fn open_editor(app: &mut App) -> Vec<Effect> {
    let subject = match app.focus {
        Focus::Topics => None,
        _ => app
            .selected_subject()
            .and_then(|i| app.subject(i))
            .map(|s| s.path().to_path_buf()),
    };
    let path = match (subject, app.preview.tab) {
        (_, Tab::Config) => app.shown_target(),
        (Some(p), _) => Some(p),
        (None, _) => {
            app.set_status(
                "no subject selected: o opens the selected subject (on the Config tab, the config file)",
                false,
            );
            None
        }
    };
    path.map(Effect::OpenEditor).into_iter().collect()
}

/// Carries out a change that waited for the section's count, as its key
/// would have: the marks it was made on go once it is made (they stayed
/// on screen, offering to undo what had just been done).
fn run_waited_plan(app: &mut App, plan: jp_kb_core::edit::plan::Plan) -> Vec<Effect> {
    let effects = super::modes::run_plan(app, plan);
    super::selection::after_proposal(app, &effects);
    effects
}
