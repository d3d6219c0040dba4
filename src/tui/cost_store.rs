//! The exact costs kept for the plans on screen (issue 26 item 1), as
//! data: the counts of the shown load by the plans' steps, and the subject
//! header's plan. A leaf the state holds ([`super::app::App::costs`]);
//! what fills it and reads it is [`super::plan_costs`].

use jp_kb_core::edit::plan::{Plan, Step};

/// Counts kept per load: more plans than a screen shows at once.
const KEPT: usize = 64;

/// Counts that arrived: the section's tokens after each plan's steps.
#[derive(Debug)]
pub struct Counted {
    pub generation: u64,
    pub counts: Vec<(Vec<Step>, usize)>,
}

/// What `l` does to the selection now (the subject header's line).
#[derive(Debug, Clone)]
pub struct Header {
    pub(super) key: HeaderKey,
    /// `l (learn)`, `l (the 3 marked)`.
    pub label: String,
    pub what: HeaderWhat,
}

#[derive(Debug, Clone)]
pub enum HeaderWhat {
    Plan(Box<Plan>),
    /// `l` asks which way (each option shows its cost).
    Asks,
}

/// What the header's plan depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct HeaderKey {
    pub(super) generation: u64,
    pub(super) topic: String,
    pub(super) subject: usize,
    pub(super) marks: Vec<String>,
    pub(super) target: Option<std::path::PathBuf>,
    pub(super) section: Option<usize>,
}

/// The counts of the shown load, newest last.
#[derive(Debug, Clone, Default)]
pub struct PlanCosts {
    generation: u64,
    counts: Vec<(Vec<Step>, usize)>,
    pub header: Option<Header>,
}

impl PlanCosts {
    /// The section's tokens after `steps` on load `generation`, if counted.
    pub fn get(&self, generation: u64, steps: &[Step]) -> Option<usize> {
        if generation != self.generation {
            return None;
        }
        self.counts
            .iter()
            .rev()
            .find(|(s, _)| s.as_slice() == steps)
            .map(|(_, n)| *n)
    }

    pub(super) fn insert(&mut self, counted: Counted) {
        if counted.generation != self.generation {
            self.generation = counted.generation;
            self.counts.clear();
        }
        for (steps, n) in counted.counts {
            self.counts.retain(|(s, _)| *s != steps);
            self.counts.push((steps, n));
        }
        let over = self.counts.len().saturating_sub(KEPT);
        self.counts.drain(..over);
    }
}
