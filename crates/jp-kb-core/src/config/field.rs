//! The fields of a topic table (`[kb.topic.<id>]`): the one home of their
//! TOML keys, their kinds and the orders they are listed in. The loader's
//! unknown-key check, the planner's field edits, `topic set`, `list
//! --json`, `check` and the TUI's forms all take them from here, so a new
//! field is one variant and the compiler finds every `match` to extend.

/// One field of a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TopicField {
    /// `enable`: whether the topic is offered at all (default true).
    Enable,
    /// `title`: the topic's name for the assistant (else its id), shown
    /// beside the id in the list of topics.
    Title,
    /// `introduction`: follows the id in the list of topics, so the
    /// assistant can decide whether to learn it.
    Introduction,
    /// `description`: opens the topic's `learn` listing and its
    /// pre-loaded block.
    Description,
    /// `subjects`: the directory of the topic's subjects, relative to the
    /// workspace root (required).
    Subjects,
    /// `learned`: patterns of subjects pre-loaded into the prompt.
    Learned,
    /// `disabled`: subjects left out of what the assistant is offered.
    Disabled,
}

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldKind {
    /// A boolean (`enable`).
    Flag,
    /// A string.
    Text,
    /// An array of strings (or its `{ value, strategy, dedup }` table
    /// form), which layers combine instead of replacing.
    List,
}

impl TopicField {
    /// Every field, in the order the contract lists them; `check`'s
    /// "valid keys here" hint prints them so (pinned by its snapshot).
    pub const ALL: [TopicField; 7] = [
        TopicField::Enable,
        TopicField::Title,
        TopicField::Introduction,
        TopicField::Description,
        TopicField::Subjects,
        TopicField::Learned,
        TopicField::Disabled,
    ];

    /// The fields holding one value (`topic set`/`unset`, the planner's
    /// field edits), texts first: the order `topic set` offers them and
    /// `list --json` reports their origins.
    pub const SCALARS: [TopicField; 5] = [
        TopicField::Title,
        TopicField::Introduction,
        TopicField::Description,
        TopicField::Subjects,
        TopicField::Enable,
    ];

    /// The lists, each edited entry by entry.
    pub const LISTS: [TopicField; 2] = [TopicField::Learned, TopicField::Disabled];

    /// The free-text metadata the assistant reads (an empty one counts as
    /// unset at load): the texts of the TUI's topic form, in its order.
    pub const METADATA: [TopicField; 3] = [
        TopicField::Title,
        TopicField::Introduction,
        TopicField::Description,
    ];

    /// The TOML key.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            TopicField::Enable => "enable",
            TopicField::Title => "title",
            TopicField::Introduction => "introduction",
            TopicField::Description => "description",
            TopicField::Subjects => "subjects",
            TopicField::Learned => "learned",
            TopicField::Disabled => "disabled",
        }
    }

    /// The field named by its TOML key.
    #[must_use]
    pub fn from_key(key: &str) -> Option<TopicField> {
        TopicField::ALL.into_iter().find(|f| f.key() == key)
    }

    /// What the field holds.
    #[must_use]
    pub fn kind(self) -> FieldKind {
        match self {
            TopicField::Enable => FieldKind::Flag,
            TopicField::Title
            | TopicField::Introduction
            | TopicField::Description
            | TopicField::Subjects => FieldKind::Text,
            TopicField::Learned | TopicField::Disabled => FieldKind::List,
        }
    }

    /// The expected type, as a type error names it.
    #[must_use]
    pub fn expected(self) -> &'static str {
        match self.kind() {
            FieldKind::Flag => "a boolean",
            FieldKind::Text => "a string",
            FieldKind::List => "an array of strings",
        }
    }

    /// The keys of `fields`, joined with `, ` (for "valid keys" hints).
    #[must_use]
    pub fn keys(fields: &[TopicField]) -> String {
        fields
            .iter()
            .map(|f| f.key())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_listed_once_and_found_by_its_key() {
        for f in TopicField::ALL {
            assert_eq!(TopicField::from_key(f.key()), Some(f));
        }
        let mut subsets: Vec<TopicField> = TopicField::SCALARS
            .into_iter()
            .chain(TopicField::LISTS)
            .collect();
        subsets.sort_by_key(|f| f.key());
        let mut all = TopicField::ALL.to_vec();
        all.sort_by_key(|f| f.key());
        assert_eq!(subsets, all);
        assert!(
            TopicField::SCALARS
                .iter()
                .all(|f| f.kind() != FieldKind::List)
        );
        assert!(
            TopicField::METADATA
                .iter()
                .all(|f| f.kind() == FieldKind::Text)
        );
        assert_eq!(TopicField::from_key("learnd"), None);
        assert_eq!(
            TopicField::keys(&TopicField::ALL),
            "enable, title, introduction, description, subjects, learned, disabled"
        );
    }
}
