//! An in-memory undo/redo journal of saved edits. Each change remembers
//! the file's bytes before and after; undo and redo write them back
//! through `write_atomic`, and refuse when the file was changed since
//! (by hand or by another program), so they never clobber anything.
//! Every write, undo and redo holds the directory's write lock
//! ([`crate::edit::lock`]), like the CLI's.

use std::path::{Path, PathBuf};

use crate::edit::error::{EditError, JournalError, SaveError, WriteError};
use crate::edit::ops::{Applied, Edit};
use crate::edit::write::{Saved, remove_checked, save, save_with, write_atomic};

/// One saved edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: PathBuf,
    /// `None`: the edit created the file (undo removes it again).
    pub before: Option<Vec<u8>>,
    pub after: Vec<u8>,
    pub summary: String,
}

impl From<Saved> for Change {
    fn from(s: Saved) -> Self {
        Change {
            path: s.path,
            before: s.before,
            after: s.after,
            summary: s.applied.summary,
        }
    }
}

/// Undo and redo stacks. Recording a new change clears the redo stack.
#[derive(Debug, Default, Clone)]
pub struct Journal {
    done: Vec<Change>,
    undone: Vec<Change>,
}

impl Journal {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    pub fn record(&mut self, change: Change) {
        self.done.push(change);
        self.undone.clear();
    }

    /// [`save`], recording the change when something was written.
    ///
    /// # Errors
    /// As [`save`].
    pub fn save(&mut self, path: &Path, edit: &Edit) -> Result<Saved, SaveError> {
        let saved = save(path, edit)?;
        if saved.applied.changed {
            self.record(Change::from(saved.clone()));
        }
        Ok(saved)
    }

    /// [`save_with`], recording the change when something was written.
    ///
    /// # Errors
    /// As [`save_with`].
    pub fn save_with(
        &mut self,
        path: &Path,
        compute: &mut dyn FnMut(&str) -> Result<Applied, EditError>,
    ) -> Result<Saved, SaveError> {
        let saved = save_with(path, compute)?;
        if saved.applied.changed {
            self.record(Change::from(saved.clone()));
        }
        Ok(saved)
    }

    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The change `undo` would revert.
    #[must_use]
    pub fn next_undo(&self) -> Option<&Change> {
        self.done.last()
    }

    /// The change `redo` would re-apply.
    #[must_use]
    pub fn next_redo(&self) -> Option<&Change> {
        self.undone.last()
    }

    /// Restores the file as it was before the last change. `Ok(None)` when
    /// there is nothing to undo.
    ///
    /// # Errors
    /// `Changed` when the file no longer holds the change's result (the
    /// change stays undoable after the file is put back); `Write`.
    pub fn undo(&mut self) -> Result<Option<&Change>, JournalError> {
        let Some(c) = self.done.last() else {
            return Ok(None);
        };
        restore(&c.path, Some(&c.after), c.before.as_deref(), "undo")?;
        if let Some(c) = self.done.pop() {
            self.undone.push(c);
        }
        Ok(self.undone.last())
    }

    /// Re-applies the last undone change.
    ///
    /// # Errors
    /// As [`Journal::undo`].
    pub fn redo(&mut self) -> Result<Option<&Change>, JournalError> {
        let Some(c) = self.undone.last() else {
            return Ok(None);
        };
        restore(&c.path, c.before.as_deref(), Some(&c.after), "redo")?;
        if let Some(c) = self.undone.pop() {
            self.done.push(c);
        }
        Ok(self.done.last())
    }
}

/// Puts `target` in place of `expected` (`None`: absent).
fn restore(
    path: &Path,
    expected: Option<&[u8]>,
    target: Option<&[u8]>,
    action: &'static str,
) -> Result<(), JournalError> {
    let result = match (target, expected) {
        (Some(bytes), _) => write_atomic(path, expected, bytes),
        (None, Some(current)) => remove_checked(path, current),
        (None, None) => Ok(()),
    };
    result.map_err(|e| match e {
        WriteError::Conflict { path } => JournalError::Changed { path, action },
        other => JournalError::Write(other),
    })
}
