//! jp-kb: computes, for a JP workspace, exactly what the assistant is shown
//! from its knowledge base, and lets a person curate it.
//!
//! The core — everything the assistant sees, and the planner of edits —
//! is the `jp-kb-core` crate, used here by its own name (one spelling per
//! module). This crate adds what needs a terminal or a runtime: [`tui`],
//! the curator's terminal UI, and the binary's CLI and MCP server. The core
//! knows nothing of them, nor of jp-kb's commands: [`hints`] holds the
//! words the CLI and the TUI both add.

pub mod hints;
pub mod jp_found;
pub mod kb_tables;
pub mod today;
pub mod tui;
