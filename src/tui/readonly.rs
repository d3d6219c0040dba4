//! `--read-only`: browsing a shared tree with every edit refused. One
//! check before the modes handle an action (the keys that would edit),
//! and one in `update::run_plan` behind it, so no path writes.

use super::app::{App, Mode};
use super::command::Command;

/// What the status line says when an edit is refused.
pub const REFUSED: &str =
    "read-only (--read-only): edits are refused; start without --read-only to edit";

/// The banner of a `--read-only` session.
pub const BANNER: &str = "READ-ONLY (--read-only): browsing only, every edit is refused";

/// True (and the status says why) when `action` would edit in a
/// `--read-only` session.
pub fn refuse(app: &mut App, action: &Command) -> bool {
    if !app.screen.read_only {
        return false;
    }
    let edits = match app.mode {
        Mode::Normal => matches!(
            action,
            Command::ToggleLearned
                | Command::ToggleDisabled
                | Command::ToggleEnable
                | Command::Undo
                | Command::Redo
                | Command::EditTopic
                | Command::NewTopic
                | Command::OpenEditor
                | Command::FixFinding
                // Where edits go means nothing when none is made.
                | Command::PickLayer
        ),
        // Enter in the pattern tester adds the pattern.
        Mode::Pattern(_) => matches!(action, Command::Confirm),
        Mode::Choice(_) => matches!(action, Command::Choose(_)),
        Mode::Form(_) => matches!(action, Command::Confirm | Command::Save),
        // `l`/`d`/`u` on the search mode's hit list.
        Mode::Search(true) => matches!(
            action,
            Command::ToggleLearned | Command::ToggleDisabled | Command::Undo
        ),
        _ => false,
    };
    if edits {
        app.set_status(REFUSED, true);
    }
    edits
}
