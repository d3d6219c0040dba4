//! The one door from the TUI to config files. Every change the curator
//! makes is a plan step — one file, one or more [`Edit`]s — saved here
//! through the edit core (`crate::edit`: format-preserving `apply`,
//! atomic `write_atomic` with conflict check, the undo [`Journal`]) and
//! recorded as one undo step. Nothing else in the TUI writes a file.

use std::path::{Path, PathBuf};

use crate::edit::Change;
use crate::edit::plan::Step;
pub use crate::edit::{Edit, FieldValue, Journal};

/// What a save, undo or redo did to one file, as text for the status line
/// and the Config tab's highlight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenChange {
    pub path: PathBuf,
    /// `None`: the file did not exist.
    pub before: Option<String>,
    pub after: String,
    pub changed: bool,
    pub summary: String,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl WrittenChange {
    fn from_change(change: &Change) -> Self {
        Self {
            path: change.path.clone(),
            before: change.before.as_deref().map(text),
            after: text(&change.after),
            changed: true,
            summary: change.summary.clone(),
        }
    }
}

/// Applies `edits` in order to the file at `path` (missing: empty) and
/// writes the result once, atomically, under the edit core's write lock; a
/// concurrent change by another program is re-read and the edits
/// re-applied once. Recorded in `journal` as one step.
pub fn save(
    journal: &mut Journal,
    path: &Path,
    edits: &[Edit],
    declare: bool,
) -> Result<WrittenChange, String> {
    crate::edit::target::creatable(path)?;
    let step = Step {
        path: path.to_path_buf(),
        edits: edits.to_vec(),
        reason: String::new(),
        declare,
    };
    let saved = journal
        .save_with(path, &mut |source| step.apply(source))
        .map_err(|e| e.to_string())?;
    Ok(WrittenChange {
        path: saved.path,
        before: saved.before.as_deref().map(text),
        after: text(&saved.after),
        changed: saved.applied.changed,
        summary: saved.applied.summary,
    })
}

/// Undoes the last step; `Ok(None)` when there is nothing to undo.
pub fn undo(journal: &mut Journal) -> Result<Option<WrittenChange>, String> {
    journal
        .undo()
        .map(|c| c.map(WrittenChange::from_change))
        .map_err(|e| e.to_string())
}

/// Redoes the last undone step.
pub fn redo(journal: &mut Journal) -> Result<Option<WrittenChange>, String> {
    journal
        .redo()
        .map(|c| c.map(WrittenChange::from_change))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_edits_are_one_write_and_one_undo_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let original = "[kb.topic.p] # keep\nsubjects = \"kb\"\ndisabled = [\"a/*\"]\n";
        std::fs::write(&path, original).unwrap();
        let mut journal = Journal::new(crate::edit::Boundaries::new([dir.path().to_path_buf()]));
        let saved = save(
            &mut journal,
            &path,
            &[
                Edit::RemoveDisabled {
                    topic: "p".into(),
                    slugs: vec!["a/*".into()],
                },
                Edit::AddDisabled {
                    topic: "p".into(),
                    slugs: vec!["a/x".into()],
                },
            ],
            false,
        )
        .unwrap();
        assert!(saved.changed);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[kb.topic.p] # keep\nsubjects = \"kb\"\ndisabled = [\"a/x\"]\n"
        );
        let undone = undo(&mut journal).unwrap().unwrap();
        assert_eq!(undone.before.as_deref(), Some(original));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
        assert!(undo(&mut journal).unwrap().is_none());
        redo(&mut journal).unwrap();
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("[\"a/x\"]")
        );
    }

    #[test]
    fn an_invalid_file_is_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "x = [\n").unwrap();
        let mut journal = Journal::new(crate::edit::Boundaries::new([dir.path().to_path_buf()]));
        let edit = Edit::AddLearned {
            topic: "p".into(),
            patterns: vec!["a".into()],
        };
        assert!(save(&mut journal, &path, &[edit.clone(), edit], false).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "x = [\n");
        assert!(!journal.can_undo());
    }
}
