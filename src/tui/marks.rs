//! The marked subjects of every topic, as slugs (plain state; what the
//! keys do with them is [`super::selection`]).

use std::collections::{BTreeSet, HashMap};

/// The marks of every topic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    by_topic: HashMap<String, BTreeSet<String>>,
    /// (topic, slug) of the row `Space` touched last: where `v` starts.
    pub anchor: Option<(String, String)>,
    /// Set while a dialog asks about an edit of the marks: carrying it out
    /// clears them, cancelling keeps them.
    pub acting: bool,
}

impl Marks {
    /// The marked slugs of `topic` (empty when none).
    pub fn of(&self, topic: &str) -> Vec<String> {
        self.by_topic
            .get(topic)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default()
    }

    pub fn count(&self, topic: &str) -> usize {
        self.by_topic.get(topic).map_or(0, BTreeSet::len)
    }

    pub fn is_marked(&self, topic: &str, slug: &str) -> bool {
        self.by_topic.get(topic).is_some_and(|s| s.contains(slug))
    }

    /// Unmarks `slugs` when every one is marked, else marks them all.
    pub fn toggle(&mut self, topic: &str, slugs: &[String]) {
        let set = self.by_topic.entry(topic.to_owned()).or_default();
        if slugs.iter().all(|s| set.contains(s)) {
            for s in slugs {
                set.remove(s);
            }
        } else {
            set.extend(slugs.iter().cloned());
        }
    }

    pub fn mark(&mut self, topic: &str, slugs: impl IntoIterator<Item = String>) {
        self.by_topic
            .entry(topic.to_owned())
            .or_default()
            .extend(slugs);
    }

    /// Clears `topic`'s marks; true when there were some.
    pub fn clear(&mut self, topic: &str) -> bool {
        self.acting = false;
        if self.anchor.as_ref().is_some_and(|(t, _)| t == topic) {
            self.anchor = None;
        }
        self.by_topic.remove(topic).is_some_and(|s| !s.is_empty())
    }
}
