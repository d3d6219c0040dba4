//! The texts the assistant sees (contract §5), byte-exact. Every function
//! here is pure: it formats data the caller has already resolved and read,
//! so the CLI, the TUI and the MCP server cannot disagree.

pub mod knowledge;
pub mod learn;
pub mod tool;

pub use knowledge::{
    AvailableTopic, Piece, PreloadedTopic, knowledge_pieces, render_knowledge, render_menu,
};
pub use learn::{render_listing, render_loaded};
pub use tool::{render_tool_definition, tool_definition, tool_description, tool_parameters};

/// Optional metadata with trailing line breaks removed; an empty value
/// counts as unset (a blank `description = ""` must not add empty lines).
pub fn clean(text: Option<&str>) -> Option<&str> {
    text.map(|t| t.trim_end_matches(['\n', '\r']))
        .filter(|t| !t.is_empty())
}
