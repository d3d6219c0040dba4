//! A dialog offering numbered choices: the planner's question (which
//! way to make a change), or the confirmation of one plan.

use jp_kb_core::edit::plan::Plan;

/// A dialog offering numbered choices.
#[derive(Debug, Clone)]
pub struct Choice {
    pub title: String,
    pub lines: Vec<String>,
    pub options: Vec<(String, Plan)>,
    /// The confirmation of its one plan: choosing it carries the plan
    /// out, and its lines are the plan's reasons (asked again when the
    /// count arrives).
    pub confirming: bool,
    /// A confirmation asked only because the section was still being
    /// counted: once it is, the change is made (it was asked for) unless
    /// the count gives a reason to ask; Esc cancels meanwhile.
    pub waiting: bool,
}
