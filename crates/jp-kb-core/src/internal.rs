//! Everything behind the façade: the modules the `jp-kb` binary, its
//! tests and its benchmarks use, and no adopter should. Hidden from the
//! documentation and free to change in any release.
//!
//! The files stay where they are (`src/config/`, `src/edit/`, …); they are
//! declared here so that the crate's root names only the façade.

// One attribute per module: `#[path]` keeps each file where it was, so
// history and links stay valid.
#[cfg(feature = "check")]
#[path = "check/mod.rs"]
pub mod check;
#[cfg(feature = "clients")]
#[path = "clients/mod.rs"]
pub mod clients;
#[path = "config/mod.rs"]
pub mod config;
#[path = "content/mod.rs"]
pub mod content;
#[path = "display.rs"]
pub mod display;
#[path = "edit/mod.rs"]
pub mod edit;
#[path = "frontmatter.rs"]
pub mod frontmatter;
#[path = "kb.rs"]
pub mod kb;
#[path = "learn.rs"]
pub mod learn;
#[path = "mcp/mod.rs"]
pub mod mcp;
#[path = "plural.rs"]
pub mod plural;
#[cfg(feature = "check")]
#[path = "remedy.rs"]
pub mod remedy;
#[path = "render/mod.rs"]
pub mod render;
#[cfg(feature = "search")]
#[path = "search/mod.rs"]
pub mod search;
#[path = "section_tokens.rs"]
pub mod section_tokens;
#[path = "subjects/mod.rs"]
pub mod subjects;
#[path = "topic.rs"]
pub mod topic;
#[path = "unique.rs"]
pub mod unique;
#[path = "usage/mod.rs"]
pub mod usage;

pub use jp_kb_tokens as tokens;
pub use kb::{KnowledgeBase, UnknownTopic};
pub use learn::Outcome;
