//! `update`: the only place the app state changes. It returns effects
//! (writes, reloads, the editor) as data and never does I/O itself.

use ratatui::layout::Rect;

use super::action::{Action, Effect, Tab};
use super::app::{App, Focus, Mode, Plan, Tester};
use super::edits::{self, Proposal};
use super::forms;
use super::model::LoadOutcome;
use super::tree::RowKind;
use super::view;

/// Applies one action.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Resize(w, h) => {
            app.size = (w, h);
            Vec::new()
        }
        Action::Loaded(outcome) => {
            if let Ok(outcome) = std::sync::Arc::try_unwrap(outcome) {
                loaded(app, outcome);
            }
            Vec::new()
        }
        Action::Fetched(fetched) => {
            app.cache.insert(*fetched);
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
            click(app, x, y);
            Vec::new()
        }
        Action::ScrollUp(x, y) => wheel(app, x, y, false),
        Action::ScrollDown(x, y) => wheel(app, x, y, true),
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

fn topic_count(app: &App) -> usize {
    app.model.as_ref().map_or(0, |m| m.kb.topics.len())
}

fn clamp(app: &mut App) {
    app.topic = app.topic.min(topic_count(app).saturating_sub(1));
    app.row = app.row.min(app.rows().len().saturating_sub(1));
}

fn areas(app: &App) -> view::Areas {
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
fn move_by(app: &mut App, delta: isize) {
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

fn set_collapsed(app: &mut App, collapse: Option<bool>) {
    let (Some(row), Some(id)) = (
        app.selected_row(),
        app.topic_state().map(|t| t.id().to_owned()),
    ) else {
        return;
    };
    match row.kind {
        RowKind::Dir { rel, collapsed, .. } => {
            let want = collapse.unwrap_or(!collapsed);
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
                .rposition(|r| r.depth < row.depth && matches!(r.kind, RowKind::Dir { .. }))
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
    plan.into_iter()
        .map(|(file, edits)| Effect::ApplyEdit { file, edits })
        .collect()
}

fn propose(app: &mut App, proposal: Proposal) -> Vec<Effect> {
    match proposal {
        Proposal::Apply(plan) => run_plan(app, plan),
        Proposal::Ask(choice) => {
            app.mode = Mode::Choice(choice);
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
        Action::ToggleLearned => return propose(app, edits::toggle_learned(app)),
        Action::ToggleDisabled => return propose(app, edits::toggle_disabled(app)),
        Action::ToggleEnable => return propose(app, edits::toggle_enable(app)),
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
                    .map(|s| s.path.clone()),
            };
            let path = match (subject, app.tab) {
                (Some(p), tab) if tab != Tab::Config => Some(p),
                _ => app.shown_target(),
            };
            if let Some(path) = path {
                return vec![Effect::OpenEditor(path)];
            }
        }
        Action::CycleTarget => cycle_target(app),
        Action::Reload => return vec![Effect::Reload { paths: Vec::new() }],
        Action::ToggleHelp => {
            app.help_scroll = 0;
            app.mode = Mode::Help;
        }
        _ => {}
    }
    clamp(app);
    Vec::new()
}

fn cycle_target(app: &mut App) {
    let Some(model) = &app.model else { return };
    let files = model.editable_files();
    let current = app.shown_target();
    let next = current
        .and_then(|c| files.iter().position(|f| *f == c))
        .map_or(0, |i| (i + 1) % files.len());
    let file = files[next].clone();
    let shown = model.show(&file);
    app.target = Some(file);
    app.set_status(format!("new entries now go to {shown}"), false);
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
            Vec::new()
        }
        Action::Input(key) => {
            t.input.input(*key);
            app.scroll = 0;
            Vec::new()
        }
        Action::Confirm => {
            let (pattern, to_disabled) = (t.pattern(), t.to_disabled);
            let proposal = edits::add_pattern(app, &pattern, to_disabled);
            if matches!(proposal, Proposal::Apply(_)) {
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
            match forms::submit(app, &f) {
                Ok(plan) if plan.is_empty() => {
                    app.mode = Mode::Normal;
                    app.set_status("nothing changed", false);
                }
                Ok(plan) => {
                    if let super::app::FormKind::NewTopic = f.kind {
                        app.pending_topic = Some(f.fields[0].value().trim().to_owned());
                    }
                    app.mode = Mode::Normal;
                    return run_plan(app, plan);
                }
                Err(why) => {
                    if let Mode::Form(open) = &mut app.mode {
                        open.error = Some(why);
                    }
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

fn click(app: &mut App, x: u16, y: u16) {
    if !matches!(app.mode, Mode::Normal) {
        return;
    }
    let a = areas(app);
    let pos = ratatui::layout::Position { x, y };
    if a.topics.contains(pos) {
        app.focus = Focus::Topics;
        if let Some(i) = row_at(a.topics, y, app.topic, topic_count(app)) {
            if i != app.topic {
                app.topic = i;
                app.row = 0;
                app.scroll = 0;
            }
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
        if y == a.preview.y + 1 {
            if let Some(tab) = view::tab_at(a.preview, x) {
                app.tab = tab;
                app.scroll = 0;
            }
        }
    }
    clamp(app);
}

fn wheel(app: &mut App, x: u16, y: u16, down: bool) -> Vec<Effect> {
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

#[cfg(test)]
mod tests {
    //! `update` on its own: action sequences in, state and effects out,
    //! with no model, no terminal and no file system.

    use std::path::PathBuf;

    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::tui::app::Choice;
    use crate::tui::edit_bridge::Edit;
    use crate::tui::theme::Theme;

    fn app() -> App {
        App::new(Theme { color: true }, (100, 30))
    }

    fn run(app: &mut App, actions: Vec<Action>) -> Vec<Effect> {
        actions.into_iter().flat_map(|a| update(app, a)).collect()
    }

    fn key(ch: char) -> Action {
        Action::Input(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE))
    }

    #[test]
    fn focus_and_tabs_cycle() {
        let mut app = app();
        run(&mut app, vec![Action::FocusNext, Action::FocusNext]);
        assert_eq!(app.focus, Focus::Preview);
        run(&mut app, vec![Action::FocusNext]);
        assert_eq!(app.focus, Focus::Topics);
        run(&mut app, vec![Action::FocusPrev]);
        assert_eq!(app.focus, Focus::Preview);
        run(
            &mut app,
            vec![Action::SelectTab(Tab::Tool), Action::NextTab],
        );
        assert_eq!(app.tab, Tab::Config);
        run(&mut app, vec![Action::NextTab]);
        assert_eq!(app.tab, Tab::Subject);
        run(&mut app, vec![Action::PrevTab]);
        assert_eq!(app.tab, Tab::Config);
    }

    #[test]
    fn preview_scrolls_and_tab_change_resets_scroll() {
        let mut app = app();
        app.focus = Focus::Preview;
        run(
            &mut app,
            vec![Action::MoveDown, Action::MoveDown, Action::PageDown],
        );
        assert!(app.scroll > 2, "{}", app.scroll);
        run(&mut app, vec![Action::MoveUp]);
        let before = app.scroll;
        run(&mut app, vec![Action::Top]);
        assert_eq!(app.scroll, 0);
        assert!(before > 0);
        run(
            &mut app,
            vec![Action::PageDown, Action::SelectTab(Tab::Prompt)],
        );
        assert_eq!(app.scroll, 0);
    }

    #[test]
    fn help_opens_scrolls_and_closes() {
        let mut app = app();
        run(
            &mut app,
            vec![Action::ToggleHelp, Action::MoveDown, Action::MoveDown],
        );
        assert!(matches!(app.mode, Mode::Help));
        assert_eq!(app.help_scroll, 2);
        // Keys of the main screen do nothing under the overlay.
        assert!(run(&mut app, vec![Action::ToggleLearned]).is_empty());
        run(&mut app, vec![Action::Cancel]);
        assert!(matches!(app.mode, Mode::Normal));
    }

    #[test]
    fn filter_types_live_and_escape_clears() {
        let mut app = app();
        run(&mut app, vec![Action::OpenFilter, key('m'), key('j')]);
        assert_eq!(app.filter, "mj");
        assert_eq!(app.focus, Focus::Subjects);
        run(&mut app, vec![Action::Confirm]);
        assert!(matches!(app.mode, Mode::Normal));
        assert_eq!(app.filter, "mj");
        run(&mut app, vec![Action::OpenFilter, Action::Cancel]);
        assert_eq!(app.filter, "");
    }

    #[test]
    fn quit_from_every_mode() {
        for open in [Action::ToggleHelp, Action::OpenFilter] {
            let mut app = app();
            let effects = run(&mut app, vec![open, Action::Quit]);
            assert_eq!(effects, vec![Effect::Quit]);
            assert!(app.quit);
        }
    }

    fn choice() -> Choice {
        let edit = |p: &str| Edit::RemoveLearned {
            topic: "t".into(),
            patterns: vec![p.into()],
        };
        Choice {
            title: "x".into(),
            lines: vec![],
            options: vec![
                (
                    "one".into(),
                    vec![(PathBuf::from("a.toml"), vec![edit("a")])],
                ),
                (
                    "two".into(),
                    vec![(PathBuf::from("b.toml"), vec![edit("b")])],
                ),
            ],
        }
    }

    #[test]
    fn a_choice_returns_the_chosen_plan_as_effects() {
        let mut app = app();
        app.mode = Mode::Choice(choice());
        assert!(run(&mut app, vec![Action::Choose(3)]).is_empty());
        let effects = run(&mut app, vec![Action::Choose(2)]);
        assert_eq!(
            effects,
            vec![Effect::ApplyEdit {
                file: "b.toml".into(),
                edits: vec![Edit::RemoveLearned {
                    topic: "t".into(),
                    patterns: vec!["b".into()]
                }]
            }]
        );
        assert!(matches!(app.mode, Mode::Normal));
    }

    #[test]
    fn read_only_refuses_edits_and_undo() {
        let mut app = app();
        app.load_error = Some(".jp/config.toml:3:1: invalid TOML".into());
        app.mode = Mode::Choice(choice());
        assert!(run(&mut app, vec![Action::Choose(1)]).is_empty());
        assert!(app.status.error);
        assert!(app.status.message.contains("read-only"));
        assert!(run(&mut app, vec![Action::Undo, Action::Redo]).is_empty());
    }

    #[test]
    fn files_changed_asks_for_a_reload_and_edits_refuse_without_a_model() {
        let mut app = app();
        let effects = run(&mut app, vec![Action::FilesChanged(vec!["x".into()])]);
        assert_eq!(
            effects,
            vec![Effect::Reload {
                paths: vec!["x".into()]
            }]
        );
        assert!(run(&mut app, vec![Action::ToggleLearned]).is_empty());
        assert!(app.status.error);
        assert_eq!(run(&mut app, vec![Action::Undo]), vec![Effect::Undo]);
    }

    #[test]
    fn done_sets_status_and_remembers_the_change() {
        let mut app = app();
        let changed = crate::tui::action::ChangedFile {
            path: "c.toml".into(),
            before: "a".into(),
            after: "b".into(),
        };
        run(
            &mut app,
            vec![Action::Done {
                message: "added".into(),
                error: false,
                changed: Some(changed.clone()),
            }],
        );
        assert_eq!(app.status.message, "added");
        assert_eq!(app.last_change, Some(changed));
    }
}
