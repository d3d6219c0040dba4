//! The pattern tester's state: the glob typed, which list Enter adds it
//! to, and what that would change (computed when the pattern or the list
//! changes, never per frame).

use ratatui_textarea::TextArea;

use jp_kb_core::edit::plan::Plan;

/// The pattern tester: a glob, and where Enter adds it.
#[derive(Debug, Clone)]
pub struct Tester {
    pub input: TextArea<'static>,
    pub to_disabled: bool,
    /// What Enter would change (the planner's cost lines), computed when
    /// the pattern or the mode changes, not per frame.
    pub cost: Vec<String>,
    /// The plan Enter would carry out (its count is asked for).
    pub plan: Option<Box<Plan>>,
}

impl Default for Tester {
    fn default() -> Self {
        Self::new()
    }
}

impl Tester {
    /// An empty tester (pre-loading).
    pub fn new() -> Self {
        Self {
            input: TextArea::default(),
            to_disabled: false,
            cost: Vec::new(),
            plan: None,
        }
    }

    pub fn pattern(&self) -> String {
        self.input.lines().join("")
    }
}
