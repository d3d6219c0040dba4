//! The footer's key hints, for the focused pane and the mode (no
//! `l learn · d disable` on the Findings tab, the pattern tester's keys
//! while it is open), generated from the key table; and a long status
//! message cut at a word (kept whole in the message log, `M`).

use crate::tui::app::{App, Focus, Mode};
use crate::tui::command::{Command, Tab};
use crate::tui::keymap::{Scope, bindings, key_for};

/// The hints for what the keyboard talks to now, joined with ` · `.
pub fn hints(app: &App) -> String {
    let table = bindings();
    let hint = |scope: Scope, a: Command, what: &str| {
        key_for(&table, scope, &a)
            .map(|k| format!("{k} {what}"))
            .unwrap_or_default()
    };
    let normal = |a: Command, what: &str| hint(Scope::Normal, a, what);
    let hints: Vec<String> = match &app.mode {
        Mode::Filter(_) => vec![
            "type to filter".to_owned(),
            "Enter keep".to_owned(),
            "Esc clear".to_owned(),
        ],
        Mode::Pattern(t) => vec![
            format!(
                "Enter add to {}",
                if t.to_disabled { "disabled" } else { "learned" }
            ),
            "Tab learned/disabled".to_owned(),
            "Esc close".to_owned(),
        ],
        Mode::Help | Mode::Messages | Mode::HelpSearch(..) => vec![
            "↑↓ PgDn/PgUp g/G scroll".to_owned(),
            "/ search".to_owned(),
            "n/N next/previous".to_owned(),
            "Esc close".to_owned(),
        ],
        // A confirmation (one option) takes Enter.
        Mode::Choice(c) if c.options.len() == 1 => {
            vec!["1/Enter confirm".to_owned(), "Esc cancel".to_owned()]
        }
        Mode::Choice(_) => vec!["1-9 choose".to_owned(), "Esc cancel".to_owned()],
        Mode::Picker(_) => vec![
            "↑↓ j/k move".to_owned(),
            hint(Scope::Picker, Command::Confirm, "use this file"),
            hint(Scope::Picker, Command::Cancel, "keep the current one"),
        ],
        Mode::Search(false) => vec![
            "type to search".to_owned(),
            "↑↓ choose".to_owned(),
            hint(Scope::Search, Command::Confirm, "go to"),
            hint(Scope::Search, Command::NextField, "hits (l/d)"),
            hint(Scope::Search, Command::Cancel, "close"),
        ],
        Mode::Search(true) => vec![
            "↑↓ j/k choose".to_owned(),
            hint(Scope::SearchHits, Command::ToggleLearned, "learn"),
            hint(Scope::SearchHits, Command::ToggleDisabled, "disable"),
            hint(Scope::SearchHits, Command::Undo, "undo"),
            hint(Scope::SearchHits, Command::Confirm, "go to"),
            hint(Scope::SearchHits, Command::NextField, "query"),
            hint(Scope::SearchHits, Command::Cancel, "close"),
        ],
        Mode::Form(_) => vec![
            "Tab next field".to_owned(),
            "Ctrl-s save".to_owned(),
            "Esc cancel".to_owned(),
        ],
        Mode::Normal => {
            let mut v = vec![normal(Command::ToggleHelp, "help")];
            if app.preview.tab == Tab::Prompt {
                v.push(normal(Command::CyclePromptView, "prompt as…"));
            }
            match (app.focus, app.preview.tab) {
                (Focus::Preview, tab) => {
                    if tab == Tab::Findings {
                        v.push(normal(Command::ToggleFindingsScope, "all/this topic"));
                    }
                    v.extend([
                        normal(Command::ToggleWrap, "wrap"),
                        normal(Command::Copy, "copy"),
                        "Esc back".to_owned(),
                    ]);
                }
                (_, Tab::Findings) => v.extend([
                    normal(Command::ToggleFindingsScope, "all/this topic"),
                    normal(Command::Copy, "copy"),
                ]),
                _ => v.extend([
                    normal(Command::ToggleLearned, "learn"),
                    normal(Command::ToggleDisabled, "disable"),
                    normal(Command::Undo, "undo"),
                ]),
            }
            v.push(normal(Command::Quit, "quit"));
            v
        }
    };
    hints.join(" · ")
}

/// `message` when it fits in `room` columns, else cut at the last word
/// that fits, with `…` (cut mid-word only when one word is too long).
pub fn cut_at_word(message: &str, room: usize) -> String {
    use ratatui::text::Span;
    let width = |s: &str| Span::raw(s).width();
    if width(message) <= room {
        return message.to_owned();
    }
    let keep = room.saturating_sub(1);
    let mut end = 0;
    let mut last_space = None;
    for (i, ch) in message.char_indices() {
        let next = i + ch.len_utf8();
        if width(&message[..next]) > keep {
            break;
        }
        if ch == ' ' {
            last_space = Some(i);
        }
        end = next;
    }
    let cut = last_space.filter(|&s| s > 0).unwrap_or(end);
    format!("{}…", message[..cut].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_cut_at_a_word() {
        assert_eq!(cut_at_word("short", 10), "short");
        assert_eq!(cut_at_word("added `a` to the list", 12), "added `a`…");
        assert_eq!(cut_at_word("abcdefghij", 5), "abcd…");
        assert_eq!(cut_at_word("", 0), "");
    }
}
