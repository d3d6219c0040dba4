//! The pattern tester (`g`): a glob typed against the topic's subjects,
//! what Enter would add to `learned` or `disabled` and what it costs.
//! Its state, its keys and its panel as drawn.

pub mod keys;
pub mod state;
pub mod view;
