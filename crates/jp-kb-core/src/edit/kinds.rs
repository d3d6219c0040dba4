//! What an edit of a topic can be, and what applying one gives: the
//! types shared by `ops` (which applies them) and the modules it applies
//! them with (`fields`, `topic`, `verify`), kept apart so none of those
//! imports `ops` back. The fields themselves are
//! [`TopicField`](crate::config::TopicField)'s.

use crate::config::TopicField;

/// One change to a topic of a TOML file, or a whole file replaced: what
/// a plan's [`Step`](crate::edit::plan::Step) does to its file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Edit {
    /// Append patterns to `learned` (those already there are skipped).
    AddLearned {
        /// The topic's id.
        topic: String,
        /// The patterns (slugs or globs), in order.
        patterns: Vec<String>,
    },
    /// Remove every occurrence of the patterns from `learned`.
    RemoveLearned {
        /// The topic's id.
        topic: String,
        /// The patterns, as written in the file.
        patterns: Vec<String>,
    },
    /// Replace the first occurrence of `pattern` in `learned`, in place,
    /// by `with` (skipping entries already present); later occurrences
    /// are removed. An empty `with` removes the pattern.
    ReplaceLearned {
        /// The topic's id.
        topic: String,
        /// The pattern replaced, as written in the file.
        pattern: String,
        /// What takes its place, in order.
        with: Vec<String>,
    },
    /// Append slugs to `disabled`.
    AddDisabled {
        /// The topic's id.
        topic: String,
        /// The subjects' slugs.
        slugs: Vec<String>,
    },
    /// Remove slugs from `disabled`.
    RemoveDisabled {
        /// The topic's id.
        topic: String,
        /// The entries, as written in the file.
        slugs: Vec<String>,
    },
    /// Add a topic; an error when the file already defines `id`.
    AddTopic {
        /// The new topic's id.
        id: String,
        /// Its `subjects` directory, relative to the workspace root.
        subjects: String,
        /// Its `title`, if any.
        title: Option<String>,
        /// Its `introduction`, if any.
        introduction: Option<String>,
        /// Its `description`, if any.
        description: Option<String>,
    },
    /// Set a one-value field (one of [`TopicField::SCALARS`]), replacing
    /// its value in place when present.
    SetField {
        /// The topic's id.
        topic: String,
        /// The field.
        field: TopicField,
        /// Its new value.
        value: FieldValue,
    },
    /// Remove a one-value field (nothing changes when it is not set).
    UnsetField {
        /// The topic's id.
        topic: String,
        /// The field.
        field: TopicField,
    },
    /// Remove every line and entry defining the topic.
    RemoveTopic {
        /// The topic's id.
        topic: String,
    },
    /// The whole file becomes `text`, when it still holds `expected`
    /// (`None`: missing or empty): the files `connect` and `sync` write
    /// (client files), computed from the disk before the plan and so
    /// refused when another program changed them since.
    WholeFile {
        /// What the file must still hold (`None`: missing or empty).
        expected: Option<String>,
        /// Its new content.
        text: String,
        /// What the change is, for the person (`updated`, `created`).
        summary: String,
    },
}

/// The fields of a new topic ([`Edit::AddTopic`]) with their values, in
/// the order they are written: the metadata, then `subjects`.
pub(crate) fn new_topic_fields<'a>(
    subjects: &'a str,
    title: Option<&'a str>,
    introduction: Option<&'a str>,
    description: Option<&'a str>,
) -> [(TopicField, Option<&'a str>); 4] {
    [
        (TopicField::Title, title),
        (TopicField::Introduction, introduction),
        (TopicField::Description, description),
        (TopicField::Subjects, Some(subjects)),
    ]
}

/// A field's new value: `Bool` for `enable`, `Text` for the others.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldValue {
    /// A text (`title`, `introduction`, `description`, `subjects`).
    Text(String),
    /// A flag (`enable`).
    Bool(bool),
}

/// What applying an [`Edit`] (or a step's edits) to a file's text gives.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Applied {
    /// The new file content (the input itself when nothing changed).
    pub text: String,
    /// False when the edit was already true of the file.
    pub changed: bool,
    /// One line for the user, e.g. "added `maintainers/*` to
    /// kb.topic.project.learned".
    pub summary: String,
}
