//! The texts the assistant sees (contract §5), byte-exact. Every function
//! here is pure: it formats data the caller has already resolved and read,
//! so the CLI, the TUI and the MCP server cannot disagree.

pub mod knowledge;
pub mod learn;
pub mod tool;

pub use knowledge::{AvailableTopic, Piece, PreloadedTopic, knowledge_pieces, render_menu};
pub use learn::{render_listing, render_loaded};
pub use tool::{
    TOOL_NAME, render_tool_definition, tool_definition, tool_description, tool_parameters,
};

// Titles, introductions and descriptions arrive here already normalised
// (trailing line breaks trimmed, blank values unset) by
// `config::merge::normalise`, the one place that rule lives.
