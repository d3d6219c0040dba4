//! The one door from the TUI to config files. Every change the curator
//! makes is a plan, carried out here by the edit core's one
//! [`jp_kb_core::internal::edit::apply`] (every step checked before anything is
//! written, a failure puts back what was written, one undo step per plan)
//! as the CLI's. Nothing else in the TUI writes a file.

use std::path::PathBuf;

pub use jp_kb_core::edit::plan::FieldValue;
use jp_kb_core::edit::plan::Plan;
use jp_kb_core::edit::{ApplyError, Change, JournalError};
pub use jp_kb_core::edit::{Edit, Journal};
use jp_kb_core::internal::edit::Saved;

/// What a plan, undo or redo did to one file, as text for the status line
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

    fn from_saved(saved: &Saved) -> Self {
        Self {
            path: saved.path.clone(),
            before: saved.before.as_deref().map(text),
            after: text(&saved.after),
            changed: saved.applied.changed,
            summary: saved.applied.summary.clone(),
        }
    }
}

/// Carries `plan` out through the edit core's `apply`; one entry per file,
/// in the plan's order. Recorded in `journal` as one undo step.
pub fn apply(journal: &mut Journal, plan: &Plan) -> Result<Vec<WrittenChange>, ApplyError> {
    jp_kb_core::internal::edit::apply(plan, journal)
        .map(|saved| saved.iter().map(WrittenChange::from_saved).collect())
}

/// Undoes the last step; `Ok(None)` when there is nothing to undo.
pub fn undo(journal: &mut Journal) -> Result<Option<Vec<WrittenChange>>, JournalError> {
    journal
        .undo()
        .map(|step| step.map(|s| s.iter().map(WrittenChange::from_change).collect()))
}

/// Redoes the last undone step.
pub fn redo(journal: &mut Journal) -> Result<Option<Vec<WrittenChange>>, JournalError> {
    journal
        .redo()
        .map(|step| step.map(|s| s.iter().map(WrittenChange::from_change).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_kb_core::edit::plan::Step;

    fn plan(path: &std::path::Path, edits: Vec<Edit>) -> Plan {
        Plan::new(vec![Step::new(path.to_path_buf(), edits, "")])
    }

    fn journal(dir: &tempfile::TempDir) -> Journal {
        Journal::new(jp_kb_core::edit::Boundaries::new([dir
            .path()
            .to_path_buf()]))
    }

    #[test]
    fn several_edits_are_one_write_and_one_undo_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let original = "[kb.topic.p] # keep\nsubjects = \"kb\"\ndisabled = [\"a/*\"]\n";
        std::fs::write(&path, original).unwrap();
        let mut journal = journal(&dir);
        let saved = apply(
            &mut journal,
            &plan(
                &path,
                vec![
                    Edit::RemoveDisabled {
                        topic: "p".into(),
                        slugs: vec!["a/*".into()],
                    },
                    Edit::AddDisabled {
                        topic: "p".into(),
                        slugs: vec!["a/x".into()],
                    },
                ],
            ),
        )
        .unwrap();
        assert!(saved[0].changed);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[kb.topic.p] # keep\nsubjects = \"kb\"\ndisabled = [\"a/x\"]\n"
        );
        let undone = undo(&mut journal).unwrap().unwrap();
        assert_eq!(undone[0].before.as_deref(), Some(original));
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
        let mut journal = journal(&dir);
        let edit = Edit::AddLearned {
            topic: "p".into(),
            patterns: vec!["a".into()],
        };
        assert!(apply(&mut journal, &plan(&path, vec![edit.clone(), edit])).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "x = [\n");
        assert!(!journal.can_undo());
    }
}
