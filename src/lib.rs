//! jp-kb: computes, for a JP workspace, exactly what the assistant is shown
//! from its knowledge base, and lets a person curate it.
//!
//! The core has no terminal dependency. Layers, lowest first:
//! [`config`] (workspace, layered files, `--cfg`, `-k`, origins) →
//! [`subjects`] (walk, slugs, patterns, resolution) → [`content`] (reading
//! and format handling) → [`render`] (the byte-exact texts) → [`learn`]
//! and [`kb`] (the texts for a whole workspace) → [`check`] (the linter;
//! its `report` module renders findings to strings, never to a terminal),
//! [`mcp`] (the same texts as an MCP server's tool, prompt and resources),
//! [`clients`] (the files `connect` and `sync` write for JP, Claude Code
//! and Codex).
//! [`tui`] is the curator's terminal UI on top of them; the core modules
//! know nothing of it. [`display`] escapes untrusted names and text for
//! every human-facing output (the CLI's and the TUI's).

pub mod check;
pub mod clients;
pub mod config;
pub mod content;
pub mod display;
pub mod edit;
pub mod frontmatter;
pub mod kb;
pub mod learn;
pub mod mcp;
pub mod plural;
pub mod render;
pub mod search;
pub mod subjects;
pub mod tokens;
pub mod topic;
pub mod tui;

pub use kb::KnowledgeBase;
pub use learn::{LearnInput, Outcome, execute};
