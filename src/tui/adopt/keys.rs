//! The first-run screen's keys, as data: one table, which also gives the
//! footer its hints.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::state::Ask;

/// `(key, ask, hint)`; a hint is shown for the first key of each ask
/// that has one.
pub const BINDINGS: &[(KeyCode, Ask, &str)] = &[
    (KeyCode::Enter, Ask::Accept, "adopt"),
    (KeyCode::Char(' '), Ask::Cycle, "pre-load/learnable/skip"),
    (KeyCode::Char('g'), Ask::Gated, "gated files"),
    (KeyCode::Esc, Ask::Decline, "not now (demo)"),
    (KeyCode::Char('n'), Ask::Decline, ""),
    (KeyCode::Char('q'), Ask::Quit, "quit"),
    (KeyCode::Up, Ask::Up, ""),
    (KeyCode::Char('k'), Ask::Up, ""),
    (KeyCode::Down, Ask::Down, ""),
    (KeyCode::Char('j'), Ask::Down, ""),
    (KeyCode::PageUp, Ask::PageUp, ""),
    (KeyCode::PageDown, Ask::PageDown, ""),
    (KeyCode::Home, Ask::First, ""),
    (KeyCode::End, Ask::Last, ""),
];

/// The ask for a key press, if any (Ctrl-c quits).
pub fn ask(key: &KeyEvent) -> Option<Ask> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Ask::Quit);
    }
    BINDINGS
        .iter()
        .find(|(code, _, _)| *code == key.code)
        .map(|(_, ask, _)| *ask)
}

/// `Enter adopt  Space pre-load/learnable/skip  …`.
pub fn hints() -> String {
    BINDINGS
        .iter()
        .filter(|(_, _, hint)| !hint.is_empty())
        .map(|(code, _, hint)| format!("{} {hint}", name(*code)))
        .collect::<Vec<_>>()
        .join("  ")
}

fn name(code: KeyCode) -> String {
    match code {
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char(c) => c.to_string(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_resolve_through_the_table() {
        let press = |code| KeyEvent::new(code, KeyModifiers::NONE);
        assert_eq!(ask(&press(KeyCode::Enter)), Some(Ask::Accept));
        assert_eq!(ask(&press(KeyCode::Char('j'))), Some(Ask::Down));
        assert_eq!(ask(&press(KeyCode::Char('x'))), None);
        assert_eq!(
            ask(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Ask::Quit)
        );
        assert_eq!(
            hints(),
            "Enter adopt  Space pre-load/learnable/skip  g gated files  Esc not now (demo)  q quit"
        );
    }
}
