//! The knowledge base as it would be after a plan: what the cost of a
//! change is counted on (`docs/editing.md`, "What a change costs").
//!
//! Nothing is written or re-read: each topic a step touches gets the
//! configuration the plan's edits give it — its `learned` and `disabled`
//! lists and its switch replayed as [`super::effect`] replays them for the
//! view change, its metadata set or unset — and is resolved again over
//! the walk it already has. Its `<knowledge>` section is then rendered and
//! counted like any other ([`crate::section_tokens`]), so the figure a
//! person sees before a change is the section's count after it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::KnowledgeBase;
use crate::config::{Origin, Topic, TopicField, Valued};
use crate::edit::ops::{Edit, FieldValue};
use crate::subjects::Resolution;
use crate::topic::TopicState;

use super::Step;
use super::effect::{dedup, replay, topic_of};

/// The knowledge base `steps` would leave (topics in the same order, new
/// ones last).
pub fn planned(kb: &KnowledgeBase, steps: &[Step]) -> KnowledgeBase {
    let mut topics: Vec<TopicState> = kb
        .topics
        .iter()
        .map(|state| {
            let touched = steps
                .iter()
                .flat_map(|s| &s.edits)
                .any(|e| topic_of(e) == Some(state.id()));
            if touched {
                replanned(kb, state, steps)
            } else {
                state.replanned(state.config.clone(), state.resolved().cloned())
            }
        })
        .collect();
    for step in steps {
        for edit in &step.edits {
            if let Some(config) = new_topic(edit, &step.path)
                && !topics.iter().any(|t| t.id() == config.id)
            {
                let state = match kb.topics.first() {
                    // The same walk source as the others (the TUI's cache).
                    Some(other) => other.replanned(config, None),
                    None => TopicState::new(config, kb.root()),
                };
                topics.push(state);
            }
        }
    }
    KnowledgeBase {
        loaded: kb.loaded.clone(),
        topics,
    }
}

fn origin(path: &Path) -> Origin {
    Origin::File {
        path: PathBuf::from(path),
        line: None,
    }
}

/// A touched topic after the steps.
fn replanned(kb: &KnowledgeBase, state: &TopicState, steps: &[Step]) -> TopicState {
    let after = replay(kb, state, steps);
    let mut config = state.config.clone();
    config.learned = after.learned;
    config.disabled = after.disabled;
    if after.enabled != config.enabled() {
        config.enable = Some(Valued::new(after.enabled, config.origin.clone()));
    }
    let mut moved = false;
    for step in steps {
        for edit in step
            .edits
            .iter()
            .filter(|e| topic_of(e) == Some(state.id()))
        {
            let (field, value) = match edit {
                Edit::SetField {
                    field,
                    value: FieldValue::Text(text),
                    ..
                } => (*field, Some(Valued::new(text.clone(), origin(&step.path)))),
                Edit::UnsetField { field, .. } => (*field, None),
                _ => continue,
            };
            match field {
                TopicField::Title => config.title = value,
                TopicField::Introduction => config.introduction = value,
                TopicField::Description => config.description = value,
                TopicField::Subjects => {
                    config.subjects = value;
                    moved = true;
                }
                TopicField::Enable | TopicField::Learned | TopicField::Disabled => {}
            }
        }
    }
    // The walk the topic has, resolved with the new lists (a topic whose
    // directory moves is walked again when it is rendered).
    let resolution = state.resolved().filter(|_| !moved).map(|before| {
        let (learned, disabled) = (dedup(&config.learned), dedup(&config.disabled));
        if learned == before.learned_patterns && disabled == before.disabled_entries {
            Arc::clone(before)
        } else {
            Arc::new(Resolution::new(Arc::clone(&before.walk), learned, disabled))
        }
    });
    state.replanned(config, resolution)
}

/// The topic an [`Edit::AddTopic`] declares.
fn new_topic(edit: &Edit, path: &Path) -> Option<Topic> {
    let Edit::AddTopic {
        id,
        subjects,
        title,
        introduction,
        description,
    } = edit
    else {
        return None;
    };
    let at = origin(path);
    let text = |v: &Option<String>| {
        v.as_ref()
            .filter(|t| !t.is_empty())
            .map(|t| Valued::new(t.clone(), at.clone()))
    };
    let mut topic = Topic::new(id.clone(), at.clone());
    topic.subjects = Some(Valued::new(subjects.clone(), at.clone()));
    topic.title = text(title);
    topic.introduction = text(introduction);
    topic.description = text(description);
    Some(topic)
}
