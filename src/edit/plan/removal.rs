//! Removing an entry, or un-learning a subject, from what a person names
//! (an entry or a subject's slug) to concrete `(file, Edit)` pairs, using
//! the effective configuration's origins.

use std::path::{Path, PathBuf};

use crate::config::{Origin, Valued};
use crate::edit::glob_fix::unlearn_via_glob;
use crate::edit::ops::Edit;
use crate::edit::target::{editable, origins_of};
use crate::subjects::PatternList;
use crate::subjects::pattern::find_exact;
use crate::topic::TopicState;

/// One edit of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub path: PathBuf,
    pub edit: Edit,
}

/// A subject learned through a glob: it cannot be un-learned by removing a
/// line, so both fixes are offered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobChoice {
    pub slug: String,
    pub pattern: String,
    pub origin: Origin,
    /// Drop the pattern (un-learns everything it selects).
    pub remove_pattern: Planned,
    /// Replace the pattern by the slugs it selects, minus this one.
    pub expand: Planned,
    pub replacement: Vec<String>,
}

/// What removing an entry (or un-learning a subject) takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    Edits(Vec<Planned>),
    /// Nothing to remove; the message says why.
    Nothing(String),
    /// Learned through a glob (only for `learned`).
    ViaGlob(Box<GlobChoice>),
    /// It comes only from arguments or read-only layers.
    NotInAFile(String),
}

/// Which list of a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    Learned,
    Disabled,
}

impl List {
    pub fn key(self) -> &'static str {
        match self {
            List::Learned => "learned",
            List::Disabled => "disabled",
        }
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

fn remove_edit(list: List, topic: &str, value: &str) -> Edit {
    list_edit(list, topic, vec![value.to_owned()], false)
}

/// Plans removing `value` from a topic's `learned` or `disabled`. When
/// `value` is not an entry but names a subject, the entry that selects the
/// subject is looked up: an exact entry written differently is removed; a
/// glob gives [`Removal::ViaGlob`].
pub fn plan_removal(state: &TopicState, root: &Path, list: List, value: &str) -> Removal {
    let id = state.id();
    let items: &[Valued<String>] = match list {
        List::Learned => &state.config.learned,
        List::Disabled => &state.config.disabled,
    };
    let key = format!("kb.topic.{id}.{}", list.key());
    if items.iter().any(|v| v.value == value) {
        return from_origins(items, value, list, id, &key, root);
    }
    let Some(resolution) = state.resolution() else {
        return Removal::Nothing(format!("`{value}` is not in {key}"));
    };
    let subjects = resolution.subjects();
    let Some(index) = find_exact(subjects, value) else {
        return Removal::Nothing(format!("`{value}` is not in {key} and names no subject"));
    };
    let slug = subjects[index].slug().to_owned();
    let by = match list {
        List::Learned => resolution
            .learned_by
            .get(index)
            .map(|b| (b.pattern, b.glob)),
        List::Disabled => resolution
            .disabled_by
            .get(index)
            .map(|d| (d, PatternList::new(&resolution.disabled_entries).is_glob(d))),
    };
    let Some((entry_index, glob)) = by else {
        return Removal::Nothing(format!(
            "subject `{slug}` is not {}",
            if list == List::Learned {
                "learned"
            } else {
                "disabled"
            }
        ));
    };
    let entries = match list {
        List::Learned => &resolution.learned_patterns,
        List::Disabled => &resolution.disabled_entries,
    };
    let entry = entries[entry_index].clone();
    if !glob || list == List::Disabled {
        // An exact entry written another way (`.internal-notes`), or a
        // disabled glob: removing the entry is the fix.
        return from_origins(items, &entry, list, id, &key, root);
    }
    let (files, others) = origins_of(items, &entry);
    let Some(file) = files.first() else {
        return Removal::NotInAFile(not_in_a_file(&entry, &key, &others, root));
    };
    let origin = items
        .iter()
        .find(|v| v.value == entry && editable(&v.origin) == Some(file.as_path()))
        .map_or_else(
            || Origin::File {
                path: file.clone(),
                line: None,
            },
            |v| v.origin.clone(),
        );
    let matched: Vec<String> = PatternList::new(std::slice::from_ref(&entry))
        .select_per_pattern(subjects, &|i| !resolution.is_disabled(i))
        .into_iter()
        .flatten()
        .map(|i| subjects[i].slug().to_owned())
        .collect();
    let file_patterns: Vec<String> = items
        .iter()
        .filter(|v| editable(&v.origin) == Some(file.as_path()))
        .map(|v| v.value.clone())
        .collect();
    match unlearn_via_glob(id, &file_patterns, &entry, &matched, &slug) {
        Ok(fix) => Removal::ViaGlob(Box::new(GlobChoice {
            slug,
            pattern: entry,
            origin,
            remove_pattern: Planned {
                path: file.clone(),
                edit: fix.remove_pattern,
            },
            expand: Planned {
                path: file.clone(),
                edit: fix.replace_pattern,
            },
            replacement: fix.replacement,
        })),
        Err(e) => Removal::Nothing(e.to_string()),
    }
}

fn from_origins(
    items: &[Valued<String>],
    value: &str,
    list: List,
    id: &str,
    key: &str,
    root: &Path,
) -> Removal {
    let (files, others) = origins_of(items, value);
    if files.is_empty() {
        return Removal::NotInAFile(not_in_a_file(value, key, &others, root));
    }
    Removal::Edits(
        files
            .into_iter()
            .map(|path| Planned {
                path,
                edit: remove_edit(list, id, value),
            })
            .collect(),
    )
}

fn not_in_a_file(value: &str, key: &str, others: &[Origin], root: &Path) -> String {
    let from: Vec<String> = others.iter().map(|o| o.display_relative(root)).collect();
    format!(
        "`{value}` in {key} comes from {}, not from a TOML file jp-kb can edit; drop that argument or edit that file",
        from.join(", ")
    )
}
