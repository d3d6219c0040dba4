//! The layer picker (`f`): which configuration file new entries go to.
//! Its state (the rows, the filter), its keys and its box as drawn.

pub mod keys;
pub mod state;
pub mod view;
