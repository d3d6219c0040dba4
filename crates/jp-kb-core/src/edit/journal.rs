//! An in-memory undo/redo journal of saved edits. Each change remembers
//! the file's bytes before and after; undo and redo write them back
//! through `write_atomic`. When the file was changed since (by hand or by
//! another program), they re-apply themselves on top of that change when
//! it touched other lines ([`crate::edit::merge`]); otherwise that file's
//! history is dropped, so nothing is ever clobbered.
//! Every write, undo and redo holds the directory's write lock
//! ([`crate::edit::lock`]), like the CLI's.

use std::path::{Path, PathBuf};

use crate::edit::error::{EditError, JournalError, SaveError, WriteError};
use crate::edit::ops::{Applied, Edit};
use crate::edit::place::Boundaries;
use crate::edit::write::{Saved, read_guarded, remove_checked, save, save_with, write_atomic};

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
/// Every write, undo and redo lands inside the journal's
/// [`Boundaries`] (the workspace and the person's own JP directories).
#[derive(Debug, Clone)]
pub struct Journal {
    bounds: Boundaries,
    done: Vec<Change>,
    undone: Vec<Change>,
}

impl Journal {
    /// A journal whose writes may land only inside `bounds`.
    #[must_use]
    pub fn new(bounds: Boundaries) -> Self {
        Self {
            bounds,
            done: Vec::new(),
            undone: Vec::new(),
        }
    }

    /// Where this journal's writes may land.
    pub fn bounds(&self) -> &Boundaries {
        &self.bounds
    }

    /// Sets where writes may land (a front end that learns the workspace
    /// root only once it has loaded).
    pub fn set_bounds(&mut self, bounds: Boundaries) {
        self.bounds = bounds;
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
        let saved = save(&self.bounds, path, edit)?;
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
        let saved = save_with(&self.bounds, path, compute)?;
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

    /// Restores the file as it was before the last change. `Ok(None)` when
    /// there is nothing to undo. A file changed outside jp-kb since gets
    /// the undo merged into that change.
    ///
    /// # Errors
    /// `HistoryDropped` when the outside change touched the lines the undo
    /// writes (every change of that file is then forgotten); `Changed` when
    /// the file changes again during the undo; `Write`.
    pub fn undo(&mut self) -> Result<Option<&Change>, JournalError> {
        let Some(c) = self.done.last() else {
            return Ok(None);
        };
        let bounds = &self.bounds;
        let redo = match restore(bounds, &c.path, Some(&c.after), c.before.as_deref(), "undo") {
            Ok(()) => None,
            Err(JournalError::Changed { path, action }) => {
                let Some((current, merged)) =
                    rebase(bounds, &path, Some(&c.after), c.before.as_deref())?
                else {
                    return Err(self.drop_file(path, action));
                };
                Some(Change {
                    before: Some(merged),
                    after: current,
                    ..c.clone()
                })
            }
            Err(e) => return Err(e),
        };
        if let Some(c) = self.done.pop() {
            self.undone.push(redo.unwrap_or(c));
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
        let bounds = &self.bounds;
        let undo = match restore(bounds, &c.path, c.before.as_deref(), Some(&c.after), "redo") {
            Ok(()) => None,
            Err(JournalError::Changed { path, action }) => {
                let Some((current, merged)) =
                    rebase(bounds, &path, c.before.as_deref(), Some(&c.after))?
                else {
                    return Err(self.drop_file(path, action));
                };
                Some(Change {
                    before: Some(current),
                    after: merged,
                    ..c.clone()
                })
            }
            Err(e) => return Err(e),
        };
        if let Some(c) = self.undone.pop() {
            self.done.push(undo.unwrap_or(c));
        }
        Ok(self.done.last())
    }

    /// Forgets every change of `path` (its history no longer matches the
    /// file), keeping the other files'.
    fn drop_file(&mut self, path: PathBuf, action: &'static str) -> JournalError {
        self.done.retain(|c| c.path != path);
        self.undone.retain(|c| c.path != path);
        JournalError::HistoryDropped { path, action }
    }
}

/// What the file held before a merged undo or redo, and what it holds after.
type Rebased = (Vec<u8>, Vec<u8>);

/// The file at `path` changed from `expected`: writes `expected → target`
/// merged into what it holds now. `Ok(Some((now, merged)))` when written,
/// `Ok(None)` when the changes touch the same lines (or a side is not
/// text, or the file is gone).
fn rebase(
    bounds: &Boundaries,
    path: &Path,
    expected: Option<&[u8]>,
    target: Option<&[u8]>,
) -> Result<Option<Rebased>, JournalError> {
    let (Some(expected), Some(target)) = (expected, target) else {
        return Ok(None);
    };
    let Ok(Some(current)) = read_guarded(bounds, path) else {
        return Ok(None);
    };
    let texts = (
        std::str::from_utf8(expected),
        std::str::from_utf8(target),
        std::str::from_utf8(&current),
    );
    let (Ok(base), Ok(ours), Ok(theirs)) = texts else {
        return Ok(None);
    };
    let Some(merged) = crate::edit::merge::merge_toml(base, ours, theirs) else {
        return Ok(None);
    };
    let merged = merged.into_bytes();
    restore(bounds, path, Some(&current), Some(&merged), "re-apply")?;
    Ok(Some((current, merged)))
}

/// Puts `target` in place of `expected` (`None`: absent).
fn restore(
    bounds: &Boundaries,
    path: &Path,
    expected: Option<&[u8]>,
    target: Option<&[u8]>,
    action: &'static str,
) -> Result<(), JournalError> {
    let result = match (target, expected) {
        (Some(bytes), _) => write_atomic(bounds, path, expected, bytes),
        (None, Some(current)) => remove_checked(bounds, path, current),
        (None, None) => Ok(()),
    };
    result.map_err(|e| match e {
        WriteError::Conflict { path } => JournalError::Changed { path, action },
        other => JournalError::Write(other),
    })
}
