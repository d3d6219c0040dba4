//! `connect`'s and `sync`'s writes carried out by the edit core's one
//! [`apply`](crate::edit::apply), like every curation edit: each file
//! checked (inside the boundaries, still what was read, valid JSON/TOML)
//! before any is written, under the directory locks, never half of them,
//! and recorded as one undo step.

use crate::edit::apply::{ApplyError, Written};
use crate::edit::journal::Journal;
use crate::edit::plan::{Plan, Step};

use super::connect::{FileWrite, Part};

/// The step writing `write`: its whole new content, over the bytes that
/// were read when it was planned.
pub fn step(write: &FileWrite) -> Step {
    let summary = match (write.part, write.before.is_some()) {
        (_, false) => "created",
        (Part::Generated, true) => "rewritten",
        (Part::Entry, true) => "jp-kb's entry rewritten, every other byte kept",
    };
    Step::whole_file(
        write.path.clone(),
        write.before.clone(),
        write.after.clone(),
        format!("a file {} needs", write.client.name()),
        summary.to_owned(),
    )
}

/// Writes `writes` (those that change anything) as one plan. Returns
/// what each written file became, in order; on an error nothing is left
/// changed.
///
/// # Errors
/// [`ApplyError`]: a file leading out of the journal's boundaries, changed
/// since it was read, or not writable.
pub fn write_all<'a>(
    writes: impl IntoIterator<Item = &'a FileWrite>,
    journal: &mut Journal,
) -> Result<Vec<Written>, ApplyError> {
    let plan = Plan {
        steps: writes
            .into_iter()
            .filter(|w| w.changed())
            .map(step)
            .collect(),
        ..Plan::default()
    };
    if plan.steps.is_empty() {
        return Ok(Vec::new());
    }
    crate::edit::apply(&plan, journal)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::clients::connect::Client;
    use crate::edit::Boundaries;

    fn write(path: std::path::PathBuf, before: Option<&str>, after: &str) -> FileWrite {
        FileWrite {
            client: Client::named("claude-code").unwrap(),
            path,
            part: Part::Entry,
            before: before.map(str::to_owned),
            after: after.to_owned(),
            notes: Vec::new(),
        }
    }

    /// Issue 25 ("one apply"): `connect`'s files are one plan: one undo
    /// step, every file checked before any is written, an invalid JSON
    /// file or one changed since it was read refused with nothing written.
    #[test]
    fn client_files_are_one_checked_plan_and_one_undo_step() {
        let dir = tempfile::tempdir().unwrap();
        let (json, md) = (dir.path().join(".mcp.json"), dir.path().join("r/x.md"));
        let mut journal = Journal::new(Boundaries::new([dir.path().to_path_buf()]));
        let writes = [
            write(json.clone(), None, "{\"mcpServers\": {}}\n"),
            write(md.clone(), None, "# section\n"),
        ];
        assert_eq!(write_all(&writes, &mut journal).unwrap().len(), 2);
        assert_eq!(journal.undo().unwrap().unwrap().len(), 2);
        assert!(!json.exists() && !md.exists());

        let bad = [
            write(md.clone(), None, "# section\n"),
            write(json.clone(), None, "{not json"),
        ];
        assert!(write_all(&bad, &mut journal).is_err());
        assert!(!md.exists(), "half of a plan was written");

        std::fs::write(&json, "{}\n").unwrap();
        let stale = [write(json.clone(), Some("{\"a\": 1}\n"), "{\"b\": 2}\n")];
        let err = write_all(&stale, &mut journal).unwrap_err();
        assert!(
            err.to_string().contains("changed since it was read"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&json).unwrap(), "{}\n");
    }
}
