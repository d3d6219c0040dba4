//! Knowledge that ages, in the curator (`docs/facts.md`): each subject's
//! age marks (`⧗` stale: its front matter expired, or a fact of it; `?`
//! low confidence), the `A` filter on them, and the prune view (`P`): the
//! subjects worth pruning (expired, never loaded, or not loaded for a
//! chosen time) with their tokens, disabled as one plan whose exact cost
//! shows before Enter and which `u` undoes in one step.
//!
//! Ages and the view's list are read off the loop (`worker`), reported as
//! [`Event::Pruned`](crate::tui::event::Event); `state` holds them, `keys`
//! answers the view's keys, `view` draws it.

pub mod filter;
pub mod keys;
pub mod state;
pub mod view;
pub mod worker;
