//! The search inside a preview (`/` with the preview focused, `n`/`N`):
//! its state, its keys, the matches in the tab's text (from the leaf
//! [`crate::tui::text_layout`]) and how they are drawn.

pub mod keys;
pub mod matches;
pub mod state;
pub mod view;
