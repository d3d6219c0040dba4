//! Which list of a topic an entry goes to, and the edit that adds or
//! removes entries.

use crate::config::TopicField;
use crate::edit::ops::Edit;

/// Which list of a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum List {
    /// `learned`: pre-loaded into the system prompt.
    Learned,
    /// `disabled`: never shown.
    Disabled,
}

impl List {
    /// The topic field this list is.
    pub fn field(self) -> TopicField {
        match self {
            List::Learned => TopicField::Learned,
            List::Disabled => TopicField::Disabled,
        }
    }

    /// The TOML key (also the word for a subject on the list: "learned").
    pub fn key(self) -> &'static str {
        self.field().key()
    }
}

/// Adds `entries` to, or removes them from, a topic's list.
pub fn list_edit(list: List, topic: &str, entries: Vec<String>, add: bool) -> Edit {
    let topic = topic.to_owned();
    match (list, add) {
        (List::Learned, true) => Edit::AddLearned {
            topic,
            patterns: entries,
        },
        (List::Learned, false) => Edit::RemoveLearned {
            topic,
            patterns: entries,
        },
        (List::Disabled, true) => Edit::AddDisabled {
            topic,
            slugs: entries,
        },
        (List::Disabled, false) => Edit::RemoveDisabled {
            topic,
            slugs: entries,
        },
    }
}
