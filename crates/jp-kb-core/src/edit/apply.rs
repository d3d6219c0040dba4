//! Carrying out a plan: the one way every front end (the CLI, the TUI,
//! `connect`'s and `sync`'s callers) turns a [`Plan`] into writes.
//!
//! Every step is checked before anything is written: the file may be
//! created (`target::creatable`), lies inside the journal's boundaries,
//! reads as UTF-8, and its edits apply and give valid TOML. Then each file
//! is saved (under its directory's lock, re-read and re-applied once if
//! another program changed it meanwhile); a failure after the first write
//! puts the files already written back, so a plan never half-applies. The
//! changes become one undo step.

use std::path::PathBuf;

use crate::edit::error::{EditError, SaveError, WriteError};
use crate::edit::journal::{Change, Journal};
use crate::edit::plan::Plan;
use crate::edit::write::{read_contained, save_with, write_atomic};

/// Why a plan was not carried out. When this is returned, no file is
/// changed (the ones written before the failure were put back).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// A file the plan would create would hide another one.
    #[error(transparent)]
    NotCreatable(#[from] crate::edit::target::WouldHide),
    /// A step cannot be computed (its file does not parse, a value has a
    /// wrong type, …), found before anything was written.
    #[error("{}: {source}", path.display())]
    Edit {
        /// The step's file.
        path: PathBuf,
        /// Why its edits do not apply.
        #[source]
        source: EditError,
    },
    /// Reading or writing a file failed.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// Reading a file failed before anything was written.
    #[error(transparent)]
    Read(#[from] WriteError),
}

/// What one file of a plan became.
pub use crate::edit::write::Saved as Written;

/// Carries `plan` out: checks every step, writes each file, and records
/// the plan as one undo step in `journal`. Returns what each file became
/// (unchanged files included, `applied.changed` false).
///
/// # Errors
/// [`ApplyError`]; nothing is left changed.
pub fn apply(plan: &Plan, journal: &mut Journal) -> Result<Vec<Written>, ApplyError> {
    check(plan, journal)?;
    let mut saved: Vec<Written> = Vec::new();
    for step in &plan.steps {
        match save_with(journal.bounds(), &step.path, &mut |source| {
            step.apply(source)
        }) {
            Ok(s) => saved.push(s),
            Err(e) => {
                roll_back(journal, &saved);
                return Err(ApplyError::Save(e));
            }
        }
    }
    journal.record_step(
        saved
            .iter()
            .filter(|s| s.applied.changed)
            .cloned()
            .map(Change::from)
            .collect(),
    );
    Ok(saved)
}

/// Every step computed on the file as it is now, nothing written.
fn check(plan: &Plan, journal: &Journal) -> Result<(), ApplyError> {
    for step in &plan.steps {
        crate::edit::target::creatable(&step.path)?;
        journal.bounds().resolve(&step.path)?;
        let current = read_contained(journal.bounds(), &step.path)?;
        let text = match &current {
            Some(bytes) => std::str::from_utf8(bytes).map_err(|_| {
                ApplyError::Save(SaveError::NotUtf8 {
                    path: step.path.clone(),
                })
            })?,
            None => "",
        };
        let edit_err = |source| ApplyError::Edit {
            path: step.path.clone(),
            source,
        };
        let applied = step.apply(text).map_err(edit_err)?;
        if applied.changed {
            crate::edit::valid::parses(&step.path, &applied.text).map_err(edit_err)?;
        }
    }
    Ok(())
}

/// Puts back the files a failed plan already wrote (each only if it still
/// holds what was written).
fn roll_back(journal: &Journal, saved: &[Written]) {
    for s in saved.iter().rev().filter(|s| s.applied.changed) {
        let _ = match &s.before {
            Some(before) => write_atomic(journal.bounds(), &s.path, Some(&s.after), before),
            None => crate::edit::write::remove_checked(journal.bounds(), &s.path, &s.after),
        };
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::edit::Boundaries;
    use crate::edit::ops::Edit;
    use crate::edit::plan::Step;

    fn step(path: &std::path::Path, pattern: &str) -> Step {
        Step {
            path: path.to_path_buf(),
            edits: vec![Edit::AddLearned {
                topic: "p".into(),
                patterns: vec![pattern.into()],
            }],
            reason: String::new(),
            declare: false,
        }
    }

    const TOPIC: &str = "[kb.topic.p]\nsubjects = \"kb\"\n";

    #[test]
    fn a_two_file_plan_is_one_undo_step_and_never_half_applies() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.toml"), dir.path().join("b.toml"));
        std::fs::write(&a, TOPIC).unwrap();
        std::fs::write(&b, TOPIC).unwrap();
        let mut journal = Journal::new(Boundaries::new([dir.path().to_path_buf()]));
        let plan = Plan {
            steps: vec![step(&a, "x"), step(&b, "y")],
            ..Plan::default()
        };
        apply(&plan, &mut journal).unwrap();
        assert!(std::fs::read_to_string(&a).unwrap().contains("\"x\""));
        assert!(std::fs::read_to_string(&b).unwrap().contains("\"y\""));
        let undone = journal.undo().unwrap().unwrap().len();
        assert_eq!(undone, 2);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), TOPIC);
        assert_eq!(std::fs::read_to_string(&b).unwrap(), TOPIC);
        assert!(!journal.can_undo());
        journal.redo().unwrap();
        assert!(std::fs::read_to_string(&b).unwrap().contains("\"y\""));

        // The second file does not parse: nothing is written at all.
        std::fs::write(&b, "[kb.topic.p\n").unwrap();
        let before_a = std::fs::read_to_string(&a).unwrap();
        let plan = Plan {
            steps: vec![step(&a, "z"), step(&b, "z")],
            ..Plan::default()
        };
        let err = apply(&plan, &mut journal).unwrap_err();
        assert!(err.to_string().contains("b.toml"), "{err}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), before_a);
    }
}
