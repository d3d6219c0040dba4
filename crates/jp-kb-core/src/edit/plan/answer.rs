//! The planner's answers as types a front end matches on: why it refuses
//! ([`Refusal`], whose `Display` is a plain sentence without any front
//! end's command names — the CLI and the TUI add their own hints), and
//! the ways to do what was asked when there are several
//! ([`Alternative`], each with a [`AlternativeKind`] to pick it by, never
//! a position).

use crate::config::{Origin, TopicField};
use crate::topic::TopicError;

use super::topic_id::TopicIdError;
use super::{List, Plan};

/// Why the planner will not make a change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// No topic has this id.
    #[error("unknown topic `{topic}`; valid topics: {}", known_topics(.known))]
    UnknownTopic {
        /// The id asked for.
        topic: String,
        /// Every topic's id.
        known: Vec<String>,
    },
    /// Nothing was typed.
    #[error("type a pattern first")]
    NoPattern,
    /// Pre-loading a subject a `disabled` entry turns off changes nothing.
    #[error("`{slug}` is disabled by `{entry}`: disabled beats learned; enable it first")]
    DisabledBeatsLearned {
        /// The subject's slug.
        slug: String,
        /// The `disabled` entry that turns it off.
        entry: String,
    },
    /// The topic's directory could not be walked.
    #[error("topic `{topic}`: its subjects cannot be read")]
    SubjectsUnreadable {
        /// The topic's id.
        topic: String,
    },
    /// A directory with nothing to change under it.
    #[error("nothing to change for `{dir}/`")]
    NothingUnder {
        /// The directory, relative to the topic's `subjects`.
        dir: String,
    },
    /// A title or introduction with a line break.
    #[error("{} must be a single line", .field.key())]
    MultiLine {
        /// The field.
        field: TopicField,
    },
    /// A new topic's id is not usable.
    #[error(transparent)]
    InvalidTopicId(TopicIdError),
    /// A new topic's id is taken.
    #[error("topic `{topic}` already exists (declared at {declared})")]
    TopicExists {
        /// The topic's id.
        topic: String,
        /// Where it is declared: the file (relative to the workspace root
        /// when inside it) and line.
        declared: Origin,
    },
    /// A new `subjects` value is empty.
    #[error("the subjects directory is required")]
    SubjectsRequired,
    /// A `subjects` value that is absolute, leaves the workspace, or is
    /// not a directory.
    #[error(transparent)]
    Subjects(TopicError),
    /// An entry that no TOML file jp-kb can edit holds (`--cfg`, `-k`, a
    /// JSON or YAML layer).
    #[error(
        "`{entry}` in kb.topic.{topic}.{} comes from {}, not from a TOML file jp-kb can edit; drop that argument or edit that file",
        .list.key(),
        joined(.origins)
    )]
    NotEditable {
        /// The topic's id.
        topic: String,
        /// The list holding the entry.
        list: List,
        /// The entry.
        entry: String,
        /// Where it is set (files relative to the workspace root when
        /// inside it).
        origins: Vec<Origin>,
    },
}

fn joined(origins: &[Origin]) -> String {
    origins
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn known_topics(known: &[String]) -> String {
    if known.is_empty() {
        "(none)".to_owned()
    } else {
        known.join(", ")
    }
}

/// What kind of way to do what was asked an [`Alternative`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AlternativeKind {
    /// Remove the glob that selects the named subjects (and every other
    /// subject it selects).
    RemoveGlob,
    /// Replace the glob by the other slugs it selects.
    ExpandGlob,
    /// One of a directory's ways: a `dir/**` entry.
    DirectoryGlob,
    /// One of a directory's ways: its subjects slug by slug.
    DirectorySlugs,
    /// One of a directory's ways: remove the entries under it.
    DirectoryRemove,
}

/// One way to do what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Alternative {
    /// What this option does, to match on (never its position).
    pub kind: AlternativeKind,
    /// A sentence for a person.
    pub label: String,
    /// The plan carrying the option out.
    pub plan: Plan,
}
