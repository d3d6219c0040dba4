//! The state each feature owns beside the panes: the Findings tab's
//! check report, the search mode, the usage ledger's tally, the exact
//! costs of the plans on screen, the marked subjects, the subjects' ages
//! and the prune view. Each type lives in its feature's module; the app
//! holds one of each.

use super::cost_store::PlanCosts;
use super::findings::state::Findings;
use super::marks::Marks;
use super::prune::state::PruneState;
use super::search::state::SearchState;
use super::usage::UsageState;

/// One state per feature.
#[derive(Debug, Default)]
pub struct Features {
    /// What `jp-kb check` found at the last load (the Findings tab).
    pub findings: Findings,
    /// The search mode's query and hits, kept between visits (`S`).
    pub search: SearchState,
    /// What the usage ledger says, and the subjects pane's usage order.
    pub usage: UsageState,
    /// Exact counts of the plans on screen (issue 26 item 1).
    pub costs: PlanCosts,
    /// Marked subjects, per topic (`Space`, `v`, `Ctrl-a`).
    pub marks: Marks,
    /// Subjects' ages (marks, the `A` filter) and the prune view (`P`).
    pub prune: PruneState,
}
