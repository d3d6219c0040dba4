//! The planner's [`TokenSource`] in the TUI: the section's count of the
//! last rendered prompt, and the exact counts of planned sections kept in
//! [`PlanCosts`] (counted off the key path, see `plan_costs`). Reads no
//! file.

use super::cost_store::PlanCosts;
use super::model::Model;
use jp_kb_core::check::Thresholds;
use jp_kb_core::edit::plan::{Step, TokenSource};

/// The budget the cost lines and confirmations use: `check`'s default.
pub const BUDGET: usize = Thresholds::DEFAULT_MAX_PROMPT_TOKENS;

/// Token counts as far as the TUI knows them.
pub struct Cached<'a> {
    pub model: &'a Model,
    pub costs: &'a PlanCosts,
}

impl TokenSource for Cached<'_> {
    fn section(&self) -> Option<usize> {
        // An absent section is 0 tokens; one still rendering is unknown.
        self.model.section_tokens()
    }

    fn planned(&self, steps: &[Step]) -> Option<usize> {
        self.costs.get(self.model.generation, steps)
    }
}
