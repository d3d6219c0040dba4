//! The key map as data: one table `(scope, key) → command` with its help
//! text. The loop resolves keys through it and the `?` overlay and footer
//! hints are generated from it, so they cannot disagree. Commands have
//! names ([`Command::name`]), so the table could later be read from a
//! configuration; adding a command is a variant, a row here, and an arm
//! in `update`.

pub mod scope;
pub mod table;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Mode};
use super::command::Command;
use super::pane::Focus;
use scope::{Binding, Scope};

/// Shift is part of the character itself (`G`, `?`), so it is ignored
/// for character keys.
fn normalize(key: &KeyEvent) -> (KeyCode, KeyModifiers) {
    let mut mods =
        key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
    if matches!(key.code, KeyCode::Char(_)) {
        mods.remove(KeyModifiers::SHIFT);
    }
    if key.code == KeyCode::BackTab {
        mods.insert(KeyModifiers::SHIFT);
    }
    (key.code, mods)
}

/// The command for a key in a scope; text scopes pass unbound keys on as
/// [`Command::Input`].
pub fn resolve(table: &[Binding], scope: Scope, key: &KeyEvent) -> Option<Command> {
    let (code, mods) = normalize(key);
    table
        .iter()
        .find(|b| b.scope == scope && b.code == code && b.mods == mods)
        .map(|b| b.command.clone())
        .or_else(|| scope.is_text().then_some(Command::Input(*key)))
}

/// The command bound to a key in a scope (no text fall-through).
fn resolve_bound(table: &[Binding], scope: Scope, key: &KeyEvent) -> Option<Command> {
    let (code, mods) = normalize(key);
    table
        .iter()
        .find(|b| b.scope == scope && b.code == code && b.mods == mods)
        .map(|b| b.command.clone())
}

/// The command for a key in the app's state: while a search shows in the
/// focused preview, its keys (`n`, `N`, `Esc`) first.
pub fn resolve_in(table: &[Binding], app: &App, key: &KeyEvent) -> Option<Command> {
    let found = matches!(app.mode, Mode::Normal)
        && app.focus == Focus::Preview
        && app
            .preview
            .search
            .as_ref()
            .is_some_and(|s| s.tab == app.preview.tab);
    resolve_bound(table, Scope::Everywhere, key)
        .or_else(|| found.then(|| resolve(table, Scope::Found, key)).flatten())
        .or_else(|| resolve(table, Scope::of(&app.mode), key))
}

/// A key as the help shows it (`Ctrl-r`, `PgDn`, `j`).
pub fn key_label(code: KeyCode, mods: KeyModifiers) -> String {
    let name = match code {
        KeyCode::Char(' ') => "Space".to_owned(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::Up => "↑".to_owned(),
        KeyCode::Down => "↓".to_owned(),
        KeyCode::Left => "←".to_owned(),
        KeyCode::Right => "→".to_owned(),
        KeyCode::PageUp => "PgUp".to_owned(),
        KeyCode::PageDown => "PgDn".to_owned(),
        KeyCode::BackTab => return "Shift-Tab".to_owned(),
        other => format!("{other:?}"),
    };
    if mods.contains(KeyModifiers::CONTROL) {
        format!("Ctrl-{name}")
    } else {
        name
    }
}

/// The help rows of a scope: keys sharing a help text are joined
/// (`j / ↓  down`), in table order.
pub fn help_rows(table: &[Binding], scope: Scope) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, &'static str)> = Vec::new();
    for binding in table.iter().filter(|b| b.scope == scope) {
        let label = key_label(binding.code, binding.mods);
        match rows.iter_mut().find(|(_, help)| *help == binding.help) {
            Some((keys, _)) => {
                keys.push_str(" / ");
                keys.push_str(&label);
            }
            None => rows.push((label, binding.help)),
        }
    }
    rows
}

/// The first key bound to a command in a scope (footer hints).
pub fn key_for(table: &[Binding], scope: Scope, command: &Command) -> Option<String> {
    table
        .iter()
        .find(|b| {
            b.scope == scope
                && std::mem::discriminant(&b.command) == std::mem::discriminant(command)
        })
        .map(|b| key_label(b.code, b.mods))
}

#[cfg(test)]
mod tests {
    use super::table::{CTRL, NONE, bindings, c};
    use super::*;
    use crate::tui::pane::Tab;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn resolves_by_scope() {
        let t = bindings();
        let cases: &[(Scope, KeyEvent, &str)] = &[
            (Scope::Normal, key(c('j'), NONE), "MoveDown"),
            (Scope::Normal, key(c('l'), NONE), "ToggleLearned"),
            (Scope::Normal, key(c('r'), CTRL), "Redo"),
            (Scope::Normal, key(c('G'), KeyModifiers::SHIFT), "Bottom"),
            (Scope::Normal, key(c('2'), NONE), "SelectTab(Prompt)"),
            (
                Scope::Normal,
                key(KeyCode::BackTab, KeyModifiers::SHIFT),
                "FocusPrev",
            ),
            (Scope::Help, key(KeyCode::Esc, NONE), "Cancel"),
            (Scope::Choice, key(c('2'), NONE), "Choose(2)"),
            (Scope::Line, key(c('j'), NONE), "Input"),
            (Scope::Form, key(KeyCode::Enter, NONE), "Confirm"),
        ];
        for (scope, k, expected) in cases {
            let got = format!("{:?}", resolve(&t, *scope, k).expect("bound"));
            assert!(got.starts_with(expected), "{scope:?} {k:?}: {got}");
        }
        assert!(resolve(&t, Scope::Normal, &key(c('z'), NONE)).is_none());
        // `l` in a text input types an `l`, it does not toggle learned.
        assert!(matches!(
            resolve(&t, Scope::Line, &key(c('l'), NONE)),
            Some(Command::Input(_))
        ));
    }

    #[test]
    fn a_shown_preview_search_takes_n_and_esc_first() {
        use crate::tui::app::App;
        use crate::tui::preview_search::state::Search;
        let t = bindings();
        let mut app = App::new(crate::tui::theme::Theme { color: true }, (100, 30));
        let n = key(c('n'), NONE);
        let esc = key(KeyCode::Esc, NONE);
        app.focus = Focus::Preview;
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::NewTopic));
        app.preview.search = Some(Search::new("x".into(), app.preview.tab));
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::SearchNext));
        assert_eq!(
            resolve_in(&t, &app, &key(c('N'), KeyModifiers::SHIFT)),
            Some(Command::SearchPrev)
        );
        assert_eq!(resolve_in(&t, &app, &esc), Some(Command::Cancel));
        // Other keys fall through to the main screen's.
        assert_eq!(
            resolve_in(&t, &app, &key(c('l'), NONE)),
            Some(Command::ToggleLearned)
        );
        // Not focused, or on another tab: `n` is "new topic" again.
        app.focus = Focus::Subjects;
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::NewTopic));
        app.focus = Focus::Preview;
        app.preview.tab = Tab::Findings;
        assert_eq!(resolve_in(&t, &app, &n), Some(Command::NewTopic));
    }

    #[test]
    fn no_key_is_bound_twice_in_a_scope() {
        let t = bindings();
        for (i, a) in t.iter().enumerate() {
            for other in &t[i + 1..] {
                assert!(
                    !(a.scope == other.scope && a.code == other.code && a.mods == other.mods),
                    "{:?} {:?} bound twice",
                    a.scope,
                    a.code
                );
            }
        }
    }

    #[test]
    fn help_joins_keys_of_one_action() {
        let rows = help_rows(&bindings(), Scope::Normal);
        assert_eq!(rows[0], ("↓ / j".to_owned(), "down"));
        assert!(rows.iter().any(|(k, h)| k == "Ctrl-r" && *h == "redo"));
        assert_eq!(
            key_for(&bindings(), Scope::Normal, &Command::ToggleHelp).as_deref(),
            Some("?")
        );
    }
}
