//! Everything behind the façade: the modules the `jp-kb` binary, its
//! tests and its benchmarks use, and no adopter should. Hidden from the
//! documentation and free to change in any release.
//!
//! The files stay where they are (`src/config/`, `src/edit/`, …); they are
//! declared here so that the crate's root names only the façade.

// One attribute per module: `#[path]` keeps each file where it was, so
// history and links stay valid.
#[cfg(feature = "clients")]
#[path = "adopt/mod.rs"]
pub mod adopt;
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
#[cfg(feature = "config")]
#[path = "edit/mod.rs"]
pub mod edit;
#[cfg(all(feature = "search", feature = "usage"))]
#[path = "facts/mod.rs"]
pub mod facts;
#[cfg(feature = "search")]
#[path = "frontmatter.rs"]
pub mod frontmatter;
#[path = "kb.rs"]
pub mod kb;
#[path = "learn.rs"]
pub mod learn;
#[path = "learn_arguments.rs"]
pub mod learn_arguments;
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
#[cfg(feature = "tokens")]
#[path = "section_tokens.rs"]
pub mod section_tokens;
#[path = "subjects/mod.rs"]
pub mod subjects;
#[path = "topic.rs"]
pub mod topic;
#[path = "topic_config.rs"]
pub mod topic_config;
#[path = "unique.rs"]
pub mod unique;
#[cfg(feature = "usage")]
#[path = "usage/mod.rs"]
pub mod usage;

#[cfg(feature = "tokens")]
pub use jp_kb_tokens as tokens;
pub use kb::{KnowledgeBase, UnknownTopic};
pub use learn::Outcome;
pub use topic_config::TopicConfig;
