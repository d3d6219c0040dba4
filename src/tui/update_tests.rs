//! `update` on its own: command and event sequences in, state and effects out,
//! with no model, no terminal and no file system.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::tui::dialog::Choice;
use crate::tui::edit_bridge::Edit;
use crate::tui::theme::Theme;

fn app() -> App {
    App::new(Theme { color: true }, (100, 30))
}

fn run<M: Into<Msg>>(app: &mut App, msgs: Vec<M>) -> Vec<Effect> {
    msgs.into_iter().flat_map(|m| update(app, m)).collect()
}

fn key(ch: char) -> Command {
    Command::Input(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE))
}

#[test]
fn focus_and_tabs_cycle() {
    let mut app = app();
    run(&mut app, vec![Command::FocusNext, Command::FocusNext]);
    assert_eq!(app.focus, Focus::Preview);
    run(&mut app, vec![Command::FocusNext]);
    assert_eq!(app.focus, Focus::Topics);
    run(&mut app, vec![Command::FocusPrev]);
    assert_eq!(app.focus, Focus::Preview);
    run(
        &mut app,
        vec![Command::SelectTab(Tab::Config), Command::NextTab],
    );
    assert_eq!(app.preview.tab, Tab::Findings);
    run(&mut app, vec![Command::NextTab]);
    assert_eq!(app.preview.tab, Tab::Subject);
    run(&mut app, vec![Command::PrevTab]);
    assert_eq!(app.preview.tab, Tab::Findings);
}

#[test]
fn preview_scrolls_and_tab_change_resets_scroll() {
    let mut app = app();
    app.focus = Focus::Preview;
    run(
        &mut app,
        vec![Command::MoveDown, Command::MoveDown, Command::PageDown],
    );
    assert!(app.preview.scroll > 2, "{}", app.preview.scroll);
    run(&mut app, vec![Command::MoveUp]);
    let before = app.preview.scroll;
    run(&mut app, vec![Command::Top]);
    assert_eq!(app.preview.scroll, 0);
    assert!(before > 0);
    run(
        &mut app,
        vec![Command::PageDown, Command::SelectTab(Tab::Prompt)],
    );
    assert_eq!(app.preview.scroll, 0);
}

#[test]
fn help_opens_scrolls_and_closes() {
    let mut app = app();
    run(
        &mut app,
        vec![Command::ToggleHelp, Command::MoveDown, Command::MoveDown],
    );
    assert!(matches!(app.mode, Mode::Help(_)));
    assert!(matches!(&app.mode, Mode::Help(p) if p.scroll == 2));
    // Keys of the main screen do nothing under the overlay.
    assert!(run(&mut app, vec![Command::ToggleLearned]).is_empty());
    run(&mut app, vec![Command::Cancel]);
    assert!(matches!(&app.mode, Mode::Normal));
}

#[test]
fn filter_types_live_and_escape_clears() {
    let mut app = app();
    run(&mut app, vec![Command::OpenFilter, key('m'), key('j')]);
    assert_eq!(app.subjects.filter.as_str(), "mj");
    assert_eq!(app.focus, Focus::Subjects);
    run(&mut app, vec![Command::Confirm]);
    assert!(matches!(&app.mode, Mode::Normal));
    assert_eq!(app.subjects.filter.as_str(), "mj");
    run(&mut app, vec![Command::OpenFilter, Command::Cancel]);
    assert_eq!(app.subjects.filter.as_str(), "");
}

#[test]
fn quit_from_every_mode() {
    for open in [Command::ToggleHelp, Command::OpenFilter] {
        let mut app = app();
        let effects = run(&mut app, vec![open, Command::Quit]);
        assert_eq!(effects, vec![Effect::Quit]);
        assert!(app.screen.quit);
    }
}

fn plan(file: &str, edit: Edit) -> jp_kb_core::edit::plan::Plan {
    jp_kb_core::edit::plan::Plan::new(vec![jp_kb_core::edit::plan::Step::new(
        PathBuf::from(file),
        vec![edit],
        "",
    )])
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
            ("one".into(), plan("a.toml", edit("a"))),
            ("two".into(), plan("b.toml", edit("b"))),
        ],
        confirming: false,
        waiting: false,
    }
}

#[test]
fn a_choice_returns_the_chosen_plan_as_effects() {
    let mut app = app();
    app.mode = Mode::Choice(choice());
    assert!(run(&mut app, vec![Command::Choose(3)]).is_empty());
    let effects = run(&mut app, vec![Command::Choose(2)]);
    assert_eq!(
        effects,
        vec![Effect::Apply(Box::new(plan(
            "b.toml",
            Edit::RemoveLearned {
                topic: "t".into(),
                patterns: vec!["b".into()]
            }
        )))]
    );
    assert!(matches!(&app.mode, Mode::Normal));
}

#[test]
fn read_only_refuses_edits_and_undo() {
    let mut app = app();
    app.loaded.error = Some(".jp/config.toml:3:1: invalid TOML".into());
    app.mode = Mode::Choice(choice());
    assert!(run(&mut app, vec![Command::Choose(1)]).is_empty());
    assert!(app.status.is_error());
    assert!(app.status.line().contains("read-only"));
    assert!(run(&mut app, vec![Command::Undo, Command::Redo]).is_empty());
}

#[test]
fn files_changed_asks_for_a_reload_and_edits_refuse_without_a_model() {
    let mut app = app();
    let effects = run(&mut app, vec![Event::FilesChanged(vec!["x".into()])]);
    assert_eq!(
        effects,
        vec![Effect::Reload {
            paths: vec!["x".into()]
        }]
    );
    assert!(run(&mut app, vec![Command::ToggleLearned]).is_empty());
    assert!(app.status.is_error());
    assert_eq!(run(&mut app, vec![Command::Undo]), vec![Effect::Undo]);
}

#[test]
fn done_sets_status_and_remembers_the_change() {
    let mut app = app();
    let changed = crate::tui::effect::ChangedFile {
        path: "c.toml".into(),
        before: "a".into(),
        after: "b".into(),
    };
    run(
        &mut app,
        vec![Event::Done {
            message: "added".into(),
            error: false,
            changed: Some(changed.clone()),
        }],
    );
    assert_eq!(app.status.line(), "added");
    assert_eq!(app.preview.config.last_change.as_ref(), Some(&changed));
}

/// Issue 37 item 5: Ctrl-z is in the key table (so `?` lists it, under
/// "Everywhere") and suspends in every mode, the filter's text entry
/// included, leaving the state as it was.
#[test]
fn ctrl_z_suspends_in_every_mode_from_the_key_table() {
    use crate::tui::keymap::{help_rows, resolve_in, scope::Scope, table::bindings};
    let table = bindings();
    let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
    let mut app = app();
    for setup in [Vec::new(), vec![Command::OpenFilter, key('a')]] {
        run(&mut app, setup);
        let command = resolve_in(&table, &app, &ctrl_z);
        assert_eq!(command, Some(Command::Suspend), "{:?}", &app.mode);
        let filter = app.subjects.filter.as_str().to_owned();
        assert_eq!(run(&mut app, vec![Command::Suspend]), vec![Effect::Suspend]);
        assert_eq!(app.subjects.filter.as_str(), filter);
    }
    assert!(
        help_rows(&table, Scope::Everywhere)
            .iter()
            .any(|(keys, help)| keys == "Ctrl-z" && help.contains("suspend")),
        "the help lists Ctrl-z"
    );
}
