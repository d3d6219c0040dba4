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
use crate::edit::write::{Saved, read_contained, remove_checked, save, save_with, write_atomic};

/// One saved edit.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// The file.
    pub path: PathBuf,
    /// `None`: the edit created the file (undo removes it again).
    pub before: Option<Vec<u8>>,
    /// What the change wrote.
    pub after: Vec<u8>,
    /// What changed, in one line.
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

/// Undo and redo stacks of steps: a step is what one plan changed (one
/// [`Change`] per file), undone and redone as a whole. Recording a new
/// step clears the redo stack. Every write, undo and redo lands inside
/// the journal's [`Boundaries`] (the workspace and the person's own JP
/// directories).
#[derive(Debug, Clone)]
pub struct Journal {
    bounds: Boundaries,
    done: Vec<Vec<Change>>,
    undone: Vec<Vec<Change>>,
}

/// Which way a step is being put back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Undo,
    Redo,
}

impl Way {
    fn action(self) -> &'static str {
        match self {
            Way::Undo => "undo",
            Way::Redo => "redo",
        }
    }

    /// What the file must hold now, and what it gets.
    fn ends(self, c: &Change) -> (Option<&[u8]>, Option<&[u8]>) {
        match self {
            Way::Undo => (Some(&c.after), c.before.as_deref()),
            Way::Redo => (c.before.as_deref(), Some(&c.after)),
        }
    }
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

    /// Records one change as its own step.
    pub fn record(&mut self, change: Change) {
        self.record_step(vec![change]);
    }

    /// Records the changes of one plan as one step (nothing when empty).
    pub fn record_step(&mut self, changes: Vec<Change>) {
        if changes.is_empty() {
            return;
        }
        self.done.push(changes);
        self.undone.clear();
    }

    /// [`save`], recording the change when something was written.
    ///
    /// # Errors
    /// As [`save`].
    // Behind the façade: a plan is carried out by `apply`, whole.
    #[doc(hidden)]
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
    #[doc(hidden)]
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

    /// Whether there is a step to undo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// Whether there is an undone step to redo.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Restores the files of the last step as they were before it.
    /// `Ok(None)` when there is nothing to undo. A one-file step whose file
    /// was changed outside jp-kb since gets the undo merged into that
    /// change; a step of several files is put back only when every file
    /// still holds what the step wrote (never half of it).
    ///
    /// # Errors
    /// `HistoryDropped` when the outside change touched the lines the undo
    /// writes (every change of that file is then forgotten); `Changed` when
    /// a file changed (a several-file step is then kept, untouched);
    /// `Write`.
    pub fn undo(&mut self) -> Result<Option<&[Change]>, JournalError> {
        let Some(step) = self.done.last().cloned() else {
            return Ok(None);
        };
        let back = self.put_back(&step, Way::Undo)?;
        self.done.pop();
        self.undone.push(back);
        Ok(self.undone.last().map(Vec::as_slice))
    }

    /// Re-applies the last undone step.
    ///
    /// # Errors
    /// As [`Journal::undo`].
    pub fn redo(&mut self) -> Result<Option<&[Change]>, JournalError> {
        let Some(step) = self.undone.last().cloned() else {
            return Ok(None);
        };
        let back = self.put_back(&step, Way::Redo)?;
        self.undone.pop();
        self.done.push(back);
        Ok(self.done.last().map(Vec::as_slice))
    }

    /// Writes one step back `way`; returns the step as it now stands (a
    /// merged change keeps the outside edit in its bytes).
    fn put_back(&mut self, step: &[Change], way: Way) -> Result<Vec<Change>, JournalError> {
        if let [c] = step {
            return self.put_back_one(c, way).map(|c| vec![c]);
        }
        let bounds = &self.bounds;
        // Every file first: a step is put back whole or not at all.
        for c in step {
            let (now, _) = way.ends(c);
            let current = read_contained(bounds, &c.path).map_err(JournalError::Write)?;
            if current.as_deref() != now {
                return Err(JournalError::Changed {
                    path: c.path.clone(),
                    action: way.action(),
                });
            }
        }
        let mut written: Vec<&Change> = Vec::new();
        for c in step.iter().rev() {
            let (now, then) = way.ends(c);
            if let Err(e) = restore(bounds, &c.path, now, then, way.action()) {
                // Changed in between: the files already written go back.
                for done in written {
                    let (now, then) = way.ends(done);
                    let _ = restore(bounds, &done.path, then, now, way.action());
                }
                return Err(e);
            }
            written.push(c);
        }
        Ok(step.to_vec())
    }

    fn put_back_one(&mut self, c: &Change, way: Way) -> Result<Change, JournalError> {
        let bounds = &self.bounds;
        let (now, then) = way.ends(c);
        match restore(bounds, &c.path, now, then, way.action()) {
            Ok(()) => Ok(c.clone()),
            Err(JournalError::Changed { path, action }) => {
                let Some((current, merged)) = rebase(bounds, &path, now, then)? else {
                    return Err(self.drop_file(path, action));
                };
                Ok(match way {
                    Way::Undo => Change {
                        before: Some(merged),
                        after: current,
                        ..c.clone()
                    },
                    Way::Redo => Change {
                        before: Some(current),
                        after: merged,
                        ..c.clone()
                    },
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Forgets every change of `path` (its history no longer matches the
    /// file), keeping the other files'; a step left empty goes.
    fn drop_file(&mut self, path: PathBuf, action: &'static str) -> JournalError {
        for stack in [&mut self.done, &mut self.undone] {
            for step in stack.iter_mut() {
                step.retain(|c| c.path != path);
            }
            stack.retain(|step| !step.is_empty());
        }
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
    let Ok(Some(current)) = read_contained(bounds, path) else {
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
