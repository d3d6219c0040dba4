//! The ageing state: each subject's marks, the `A` filter, and the prune
//! view's list, selection and planned change.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::tui::tree::Row;

use jp_kb_core::edit::plan::Plan;
use jp_kb_core::usage::stale::Candidate;

/// A subject's age, as its marks show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct AgeMark {
    /// Its front matter expired, or a fact of it did.
    pub stale: bool,
    /// Its confidence (or a fact's) is below 0.5.
    pub low: bool,
}

/// Each enabled topic's subjects' marks (only those with a mark), as of
/// load `generation`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ages {
    pub generation: u64,
    pub by_topic: HashMap<String, HashMap<String, AgeMark>>,
}

impl Ages {
    pub fn of(&self, topic: &str, slug: &str) -> AgeMark {
        self.by_topic
            .get(topic)
            .and_then(|m| m.get(slug))
            .copied()
            .unwrap_or_default()
    }
}

/// What the subjects pane shows by age (`A` cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum AgeFilter {
    #[default]
    All,
    Stale,
    Low,
}

impl AgeFilter {
    #[must_use]
    pub fn next(self) -> Self {
        match self {
            AgeFilter::All => AgeFilter::Stale,
            AgeFilter::Stale => AgeFilter::Low,
            AgeFilter::Low => AgeFilter::All,
        }
    }

    /// Whether a subject with `mark` is shown.
    pub fn keeps(self, mark: AgeMark) -> bool {
        match self {
            AgeFilter::All => true,
            AgeFilter::Stale => mark.stale,
            AgeFilter::Low => mark.low,
        }
    }

    /// The pane title's note; `None` for every subject.
    pub fn title(self) -> Option<&'static str> {
        match self {
            AgeFilter::All => None,
            AgeFilter::Stale => Some("stale"),
            AgeFilter::Low => Some("low confidence"),
        }
    }
}

/// The view's list: the candidates of one request.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The request it answers.
    pub generation: u64,
    pub candidates: Vec<Candidate>,
    /// Whether the ledger holds anything (else nothing is "never loaded").
    pub recorded: bool,
    /// When it was made (UTC seconds): "last loaded … ago".
    pub now: u64,
}

/// What the worker reports: the ages, and the list when one was asked.
#[derive(Debug)]
pub struct Pruned {
    pub ages: Ages,
    pub listed: Option<Listed>,
}

/// The choices of "not loaded for": none, then 30, 90, 180 days.
pub const IDLE_DAYS: [Option<u64>; 4] = [None, Some(30), Some(90), Some(180)];

/// The prune view and the ages.
#[derive(Debug, Default)]
pub struct PruneState {
    pub ages: Ages,
    pub filter: AgeFilter,
    /// Counts the filter's changes and the ages' arrivals (the rows
    /// depend on both).
    pub filter_generation: u64,
    /// Index in [`IDLE_DAYS`].
    pub idle: usize,
    /// The last list request (a list answering an older one is dropped).
    pub requested: u64,
    pub listed: Option<Listed>,
    pub selected: Vec<bool>,
    pub cursor: usize,
    /// Disabling the selection, as planned (its cost counted off the loop).
    pub plan: Option<Box<Plan>>,
    /// The `A` filter's last rows (`super::filter`), and the rows they
    /// were made from.
    pub rows_memo: RefCell<Option<(FilterKey, Rc<Vec<Row>>)>>,
    pub rows_source: RefCell<Option<Rc<Vec<Row>>>>,
}

impl PruneState {
    pub fn idle_days(&self) -> Option<u64> {
        IDLE_DAYS.get(self.idle).copied().flatten()
    }

    /// The selected candidates, as `(topic, slug)`.
    pub fn selection(&self) -> Vec<(String, String)> {
        let Some(listed) = &self.listed else {
            return Vec::new();
        };
        listed
            .candidates
            .iter()
            .zip(&self.selected)
            .filter(|(_, on)| **on)
            .map(|(c, _)| (c.topic.clone(), c.slug.clone()))
            .collect()
    }
}

/// What the filtered rows were made from (`filter::filtered`'s memo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterKey {
    pub rows: usize,
    pub filter: AgeFilter,
    pub generation: u64,
    pub topic: String,
}
