//! The Findings tab: what `jp-kb check` reports (state, read on the check
//! worker), what a key does with a finding (fix, jump, filter) and the
//! finding's texts (the tab, markers, the status span).

pub mod actions;
pub mod shown;
pub mod state;
pub mod text;
