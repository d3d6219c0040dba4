//! jp-kb: computes, for a JP workspace, exactly what the assistant is shown
//! from its knowledge base, and lets a person curate it.
//!
//! The core — everything the assistant sees, and the planner of edits —
//! is the `jp-kb-core` crate (tokens: `jp-kb-tokens`), re-exported here
//! under its module names. This crate adds what needs a terminal or a
//! runtime: [`tui`], the curator's terminal UI, and the binary's CLI and
//! MCP server. The core knows nothing of them.

pub use jp_kb_core::{
    KnowledgeBase, Outcome, check, clients, config, content, display, edit, frontmatter, kb, learn,
    mcp, plural, render, search, subjects, tokens, topic, usage,
};

pub mod tui;
