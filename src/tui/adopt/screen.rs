//! The first-run screen's loop: take the terminal, draw, read one key,
//! update, until the person adopts, declines or quits; then hand the
//! terminal back (the curator takes it again).

use std::path::Path;

use ratatui::crossterm::event::{self, Event, KeyEventKind};

use jp_kb_core::adopt::{apply, find};

use super::keys;
use super::state::{AdoptScreen, Outcome};
use super::view;
use crate::tui::lifecycle;

/// What the person chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Nothing to adopt here: the screen was not shown.
    NothingFound,
    /// Adopted: the workspace exists now; the line for the banner.
    Adopted(String),
    /// Not now: open the demo.
    Declined,
    Quit,
}

/// What marks a directory as a repository worth walking: a git
/// repository, or an instruction file or directory at its top. `.claude/`
/// alone is not one: it is also Claude Code's per-user directory in
/// `$HOME`.
const REPOSITORY_MARKS: &[&str] = &[
    ".git",
    "CLAUDE.md",
    "AGENTS.md",
    ".cursor",
    ".cursorrules",
    ".windsurf",
    ".windsurfrules",
    ".github",
];

/// Whether `root` looks like a repository. `jp-kb tui` in `$HOME` or `/`
/// must open at once, not after a walk of every file below.
fn looks_like_a_repository(root: &Path) -> bool {
    REPOSITORY_MARKS
        .iter()
        .any(|mark| root.join(mark).symlink_metadata().is_ok())
}

/// Offers to adopt what other assistants read under `root` (canonical).
pub fn offer(root: &Path) -> Result<Choice, String> {
    if !looks_like_a_repository(root) {
        return Ok(Choice::NothingFound);
    }
    let Some(mut screen) = AdoptScreen::new(root.to_path_buf(), find(root)) else {
        return Ok(Choice::NothingFound);
    };
    let mut terminal = match lifecycle::start() {
        Ok(terminal) => terminal,
        Err(e) => {
            lifecycle::finish();
            return Err(format!("cannot set up the terminal: {e}"));
        }
    };
    let outcome = (|| -> std::io::Result<Outcome> {
        loop {
            lifecycle::poll()?;
            lifecycle::draw(&mut terminal, |frame| {
                screen.page = view::render(&screen, frame);
            })?;
            if let Event::Key(key) = event::read()?
                && key.kind != KeyEventKind::Release
                && let Some(ask) = keys::ask(&key)
                && let Some(outcome) = screen.update(ask)
            {
                return Ok(outcome);
            }
        }
    })();
    lifecycle::finish();
    match outcome.map_err(|e| format!("the TUI stopped: {e}"))? {
        Outcome::Accept(plan) => {
            apply(root, &plan).map_err(|e| e.to_string())?;
            Ok(Choice::Adopted(format!(
                "adopted {} files in place: topics {} in .jp/kb.toml",
                plan.adopted().count(),
                plan.topics
                    .iter()
                    .map(|t| t.id)
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        Outcome::Decline => Ok(Choice::Declined),
        Outcome::Quit => Ok(Choice::Quit),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_a_repository_is_walked() {
        let dir = tempfile::tempdir().unwrap();
        // Claude Code's per-user directory, as in `$HOME`: not a repository.
        std::fs::create_dir_all(dir.path().join(".claude/rules")).unwrap();
        std::fs::write(dir.path().join(".claude/CLAUDE.md"), "mine").unwrap();
        assert!(!looks_like_a_repository(dir.path()));
        assert_eq!(offer(dir.path()).unwrap(), Choice::NothingFound);
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        assert!(looks_like_a_repository(dir.path()));
    }
}
