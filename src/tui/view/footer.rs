//! The footer's key hints, for the focused pane and the mode (no
//! `l learn · d disable` on the Findings tab, the pattern tester's keys
//! while it is open), generated from the key table; and a long status
//! message cut at a word (kept whole in the message log, `M`).

use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::keymap::key_for;
use crate::tui::keymap::scope::Scope;
use crate::tui::keymap::table::bindings;
use crate::tui::pane::Focus;
use crate::tui::pane::Tab;

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
        Mode::PreviewSearch(_) => vec![
            "type to search the preview".to_owned(),
            "Enter find".to_owned(),
            "Esc cancel".to_owned(),
        ],
        Mode::Filter(_) => vec![
            "type to filter".to_owned(),
            "Enter keep".to_owned(),
            "Esc clear".to_owned(),
        ],
        // `--read-only`: the tester shows what a pattern selects; Enter
        // would be refused, so it is not offered.
        Mode::Pattern(_) if app.screen.read_only => vec![
            "read-only: patterns are tried, not added".to_owned(),
            "Tab learned/disabled".to_owned(),
            "PgDn/PgUp scroll the result".to_owned(),
            "Esc close".to_owned(),
        ],
        Mode::Pattern(t) => vec![
            format!(
                "Enter add to {}",
                if t.to_disabled { "disabled" } else { "learned" }
            ),
            "Tab learned/disabled".to_owned(),
            "PgDn/PgUp scroll the result".to_owned(),
            "Esc close".to_owned(),
        ],
        Mode::Help(_) | Mode::Messages(_) | Mode::HelpSearch(..) => vec![
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
            "type to filter".to_owned(),
            "↑↓ PgUp/PgDn Home/End move".to_owned(),
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
        Mode::Search(true) if app.screen.read_only => vec![
            "↑↓ j/k choose".to_owned(),
            hint(Scope::SearchHits, Command::Confirm, "go to"),
            hint(Scope::SearchHits, Command::NextField, "query"),
            hint(Scope::SearchHits, Command::Cancel, "close"),
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
        Mode::Prune => vec![
            hint(Scope::Prune, Command::ToggleMark, "select"),
            hint(Scope::Prune, Command::MarkShown, "all"),
            hint(Scope::Prune, Command::CyclePruneSince, "not loaded for"),
            hint(Scope::Prune, Command::Confirm, "disable"),
            hint(Scope::Prune, Command::Cancel, "close"),
        ],
        Mode::Form(_) => vec![
            "Tab next field".to_owned(),
            "Ctrl-s save".to_owned(),
            "Esc cancel".to_owned(),
        ],
        Mode::Normal => normal_hints(app, &normal),
    };
    hints.join(" · ")
}

/// The main screen's hints: what the focused pane and tab take.
fn normal_hints(app: &App, normal: &dyn Fn(Command, &str) -> String) -> Vec<String> {
    let ro = app.screen.read_only;
    let mut fix_at = None;
    let mut v = vec![normal(Command::ToggleHelp, "help")];
    if app.preview.tab == Tab::Prompt {
        v.push(normal(Command::CyclePromptView, "prompt as…"));
    }
    match (app.focus, app.preview.tab) {
        (Focus::Preview, tab) => {
            if app.preview.search.as_ref().is_some_and(|s| s.tab == tab) {
                v.push("n/N next/previous match".to_owned());
            } else if crate::tui::preview_search::state::SEARCHED.contains(&tab) {
                v.push(normal(Command::OpenFilter, "search"));
            }
            if tab == Tab::Findings {
                // The fix key is named only here, with what it does; its
                // slug is cut to what the footer leaves (below).
                if let Some(fix) = crate::tui::findings::shown::fix(app).filter(|_| !ro) {
                    fix_at = Some((v.len(), fix));
                    v.push(String::new());
                }
                v.push(normal(Command::Activate, "go to"));
                if !ro {
                    v.push(normal(Command::OpenEditor, "edit at line"));
                }
                v.push(normal(Command::ToggleFindingsScope, "all/this topic"));
            }
            v.extend([
                normal(Command::ToggleWrap, "wrap"),
                normal(Command::Copy, "copy"),
                if app.preview.search.as_ref().is_some_and(|s| s.tab == tab) {
                    "Esc clear search".to_owned()
                } else {
                    "Esc back".to_owned()
                },
            ]);
        }
        (_, Tab::Findings) => v.extend([
            normal(Command::ToggleFindingsScope, "all/this topic"),
            normal(Command::Copy, "copy"),
        ]),
        _ => v.extend(subject_hints(app, &normal)),
    }
    v.push(normal(Command::Quit, "quit"));
    if let Some((at, fix)) = fix_at {
        // The other hints keep their place: the fix's name gets the
        // columns they leave (at least a few characters of it).
        // The status message shares the row (`message   hints`).
        let message = match width(app.status.line()) {
            0 => 0,
            n => n + 3,
        };
        let others: Vec<&str> = v
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != at)
            .map(|(_, h)| h.as_str())
            .collect();
        let key = normal(Command::FixFinding, "");
        let used = message + width(&others.join(" · ")) + width(" · ") + width(&key);
        // At least room for a short entry whole (`disable "logo"`): a
        // long one is cut, a short one never.
        let room = usize::from(app.screen.size.0)
            .saturating_sub(used)
            .max(FIX_FLOOR);
        v[at] = format!("{key}{}", fix.label_within(room));
    }
    v
}

/// Columns the fix's name always gets, whatever the other hints take.
const FIX_FLOOR: usize = 32;

fn width(s: &str) -> usize {
    ratatui::text::Span::raw(s).width()
}

/// The subjects pane's hints: what `l`/`d` act on (the marks, if any).
fn subject_hints(app: &App, normal: &dyn Fn(Command, &str) -> String) -> Vec<String> {
    let marked = app
        .topic_state()
        .map_or(0, |t| app.features.marks.count(t.id()));
    if app.screen.read_only {
        // Nothing here edits: the browsing keys instead.
        vec![
            normal(Command::OpenFilter, "filter"),
            "read-only".to_owned(),
        ]
    } else if marked > 0 {
        vec![
            format!("l/d: the {marked} marked"),
            normal(Command::ToggleMark, "(un)mark"),
            "Esc clear marks".to_owned(),
        ]
    } else {
        vec![
            normal(Command::ToggleLearned, "learn"),
            normal(Command::ToggleDisabled, "disable"),
            normal(Command::Undo, "undo"),
        ]
    }
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
