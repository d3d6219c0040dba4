//! jp-kb's core: computes, for a JP workspace, exactly what the assistant
//! is shown from its knowledge base, and plans the edits that curate it.
//!
//! No terminal, async runtime, MCP SDK or command-line parser: a Rust
//! assistant can depend on this crate alone. Layers, lowest first:
//! [`config`] (workspace, layered files, `--cfg`, `-k`, origins) →
//! [`subjects`] (walk, slugs, patterns, resolution) → [`content`] (reading
//! and format handling) → [`render`] (the byte-exact texts) → [`learn`]
//! and [`kb`] (the texts for a whole workspace) → [`check`] (the linter;
//! its `report` module renders findings to strings, never to a terminal),
//! [`mcp`] (the texts of an MCP server's tool, prompt and resources; the
//! server itself is the binary's), [`clients`] (the files `connect` and
//! `sync` write for JP, Claude Code and Codex), [`search`] (ranked
//! lexical search). [`edit`] changes the configuration without touching
//! anything else, and its planner decides what a curation edit means for
//! every front end. [`display`] escapes untrusted names and text for
//! every human-facing output.
#![doc = include_str!("../README.md")]

#[cfg(feature = "check")]
pub mod check;
#[cfg(feature = "clients")]
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
#[cfg(feature = "search")]
pub mod search;
pub mod section_tokens;
pub mod subjects;
pub mod topic;
pub mod unique;
pub mod usage;

pub use jp_kb_tokens as tokens;
pub use kb::{KnowledgeBase, UnknownTopic};
pub use learn::Outcome;
