//! What the loads brought: the last good load ([`Model`]), the first
//! load while it runs ([`Loading`]), why the last one failed, and what
//! was read for the screen since ([`Cache`]). Only `update` changes it,
//! from the events the driver's loads and reads report.

use super::listing::state::Loading;
use super::model::{Cache, Model};
use jp_kb_core::subjects::TopicState;

/// The loads' side of the state.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The last good load (None before the first success).
    pub model: Option<Model>,
    /// Set while the first load runs in the background (the terminal):
    /// the screen shows the configuration's topics, then the selected
    /// topic's listing; keys are kept until the load arrives.
    pub loading: Option<Loading>,
    /// Why the last load failed: the screen is read-only until fixed.
    pub error: Option<String>,
    /// When the load shown started (see `LoadOutcome::started`).
    pub shown: u64,
    /// What the workers read for previews and rows since.
    pub cache: Cache,
}

impl Loaded {
    /// Topic `index` of the last good load.
    pub fn topic(&self, index: usize) -> Option<&TopicState> {
        self.model.as_ref()?.kb.topics.get(index)
    }

    /// How many topics the last good load has.
    pub fn topic_count(&self) -> usize {
        self.model.as_ref().map_or(0, |m| m.kb.topics.len())
    }

    /// The index of topic `id` in the last good load.
    pub fn topic_index(&self, id: &str) -> Option<usize> {
        self.model
            .as_ref()?
            .kb
            .topics
            .iter()
            .position(|t| t.id() == id)
    }
}
