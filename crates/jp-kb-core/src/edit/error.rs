//! Errors of the editing layer. Each names what it is about: the TOML key
//! and its line:column for edit errors, the file path for I/O errors.
//! The splice layer's own errors ([`jp_kb_toml::TomlError`]) become the
//! [`EditError`] variants of the same name and message.

use std::path::PathBuf;

use crate::config::{FieldKind, TopicField};

/// Why an edit could not be computed. Nothing is written when one occurs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// The input is not valid TOML.
    #[error("invalid TOML at line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's words.
        message: String,
    },
    /// A value has a type the edit cannot work with; it is left alone.
    #[error(
        "`{key}` at line {line}, column {column} is {found}, expected {expected}; nothing changed"
    )]
    WrongType {
        /// The dotted key of the value.
        key: String,
        /// 1-based line of the value.
        line: usize,
        /// 1-based column of the value.
        column: usize,
        /// What the value is (`a string`, …).
        found: &'static str,
        /// What the edit needs there.
        expected: &'static str,
    },
    /// The edit needs a topic this file does not define.
    #[error("topic `{topic}` is not defined in this file{}", known_topics(.known))]
    TopicNotFound {
        /// The topic's id.
        topic: String,
        /// The topics the file does define.
        known: Vec<String>,
    },
    /// `AddTopic` for an id the file already has.
    #[error("topic `{topic}` already exists at line {line}, column {column}")]
    TopicExists {
        /// The topic's id.
        topic: String,
        /// 1-based line of its declaration.
        line: usize,
        /// 1-based column of its declaration.
        column: usize,
    },
    /// The edit itself makes no sense (empty id, text for `enable`, …).
    #[error("invalid edit: {0}")]
    InvalidEdit(BadEdit),
    /// The file no longer holds what was read when the change was
    /// computed ([`crate::edit::Edit::WholeFile`]); it is left alone.
    #[error("the file changed since it was read; not overwritten")]
    Changed,
    /// jp-kb could not produce a correct result; the input is untouched.
    #[error("internal error, nothing changed: {0}")]
    Internal(String),
}

/// What makes an edit senseless, whatever the file holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BadEdit {
    /// The edit names no topic.
    #[error("the topic id is empty")]
    EmptyTopicId,
    /// An addition or removal with nothing to add or remove.
    #[error("no pattern or slug given")]
    NothingGiven,
    /// A list field set or unset as a whole.
    #[error("`{}` is a list: add or remove its entries", .0.key())]
    ListField(TopicField),
    /// A value of the wrong kind for the field (text for `enable`, a flag
    /// for a text).
    #[error("`{}` takes {}", .0.key(), if .0.kind() == FieldKind::Flag { "true or false" } else { "text" })]
    WrongValue(TopicField),
}

impl From<jp_kb_toml::TomlError> for EditError {
    fn from(e: jp_kb_toml::TomlError) -> Self {
        match e {
            jp_kb_toml::TomlError::WrongType {
                key,
                line,
                column,
                found,
                expected,
            } => Self::WrongType {
                key,
                line,
                column,
                found,
                expected,
            },
            jp_kb_toml::TomlError::Internal(message) => Self::Internal(message),
        }
    }
}

fn known_topics(known: &[String]) -> String {
    if known.is_empty() {
        " (it defines no topic)".to_owned()
    } else {
        format!(" (topics here: {})", known.join(", "))
    }
}

/// Why an atomic write did not happen. The target file is unchanged.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The file no longer holds the bytes the caller read.
    #[error("{}: the file changed since it was read; not overwritten", path.display())]
    Conflict {
        /// The file.
        path: PathBuf,
    },
    /// Another writer held the directory's lock for the whole wait.
    #[error(
        "{}: another program kept {} locked for {:.1} s while saving{}; nothing written, try again once it has finished",
        path.display(),
        dir.display(),
        waited.as_secs_f64(),
        holder.as_ref().map(|h| format!(" (held by {h})")).unwrap_or_default()
    )]
    Locked {
        /// The file to write.
        path: PathBuf,
        /// The directory whose lock was held.
        dir: PathBuf,
        /// How long it waited for the lock.
        waited: std::time::Duration,
        /// Who may hold it, where that can be known (boxed: errors stay
        /// small).
        holder: Option<Box<jp_kb_fs::Holder>>,
    },
    /// The file, or a directory on its path, resolves outside the
    /// directories jp-kb may write in (a symbolic link leading out).
    #[error(
        "{}: leads to {}, outside the workspace (and your own JP directories); nothing written. \
         A symbolic link on its path leads out: remove it, or replace it by a real file or directory",
        path.display(),
        target.display()
    )]
    Outside {
        /// The file as named.
        path: PathBuf,
        /// Where it really leads.
        target: PathBuf,
    },
    /// An I/O step failed; `action` says which.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done (`create the temporary file`, …).
        action: &'static str,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
}

/// Why `save` did not write.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The file cannot be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not UTF-8.
    #[error("{}: not valid UTF-8, so not valid TOML; nothing written", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// The edit cannot be applied to the file.
    #[error("{}: {source}", path.display())]
    Edit {
        /// The file.
        path: PathBuf,
        /// Why the edit does not apply.
        #[source]
        source: EditError,
    },
    /// Another program changed the file twice while jp-kb was saving.
    #[error("{}: the file kept changing while being saved (re-read and re-applied once); nothing written, try again", path.display())]
    Conflict {
        /// The file.
        path: PathBuf,
    },
    /// Writing the file failed.
    #[error(transparent)]
    Write(WriteError),
}

/// Why an undo or redo was refused or failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The file no longer holds what the journal expects.
    #[error("{}: changed since jp-kb edited it; refusing to {action}", path.display())]
    Changed {
        /// The file.
        path: PathBuf,
        /// `undo` or `redo`.
        action: &'static str,
    },
    /// Changed outside jp-kb in the lines the undo or redo would change:
    /// that file's history is gone (said once; other files keep theirs).
    #[error(
        "{}: changed outside jp-kb where this {action} would write; dropped the undo history of this file (other files keep theirs)",
        path.display()
    )]
    HistoryDropped {
        /// The file.
        path: PathBuf,
        /// `undo` or `redo`.
        action: &'static str,
    },
    /// Writing the file back failed.
    #[error(transparent)]
    Write(WriteError),
}
