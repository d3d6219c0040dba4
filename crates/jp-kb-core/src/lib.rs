//! jp-kb's core: computes, for a JP workspace, exactly what the assistant
//! is shown from its knowledge base, and plans the edits that curate it.
//!
//! No terminal, async runtime, MCP SDK or command-line parser: a Rust
//! assistant can depend on this crate alone. The root is the door: build a
//! [`KnowledgeBase`] from the topics a host merged itself
//! ([`KnowledgeBase::from_topics`]) or, with the feature `config`, load it
//! from an [`Environment`] with [`LoadOptions`]; read its texts
//! ([`KnowledgeBase::knowledge_section`], [`KnowledgeBase::learn`],
//! [`KnowledgeBase::call_learn`], [`KnowledgeBase::tool_definition`]),
//! lint it with [`check`], plan a curation edit with [`edit::plan`] and
//! carry it out with [`edit::apply`] into a [`edit::Journal`]; [`mcp`] has
//! the data of an MCP server's tool, prompt and resources, [`clients`] what
//! JP, Claude Code and Codex need and receive. `docs/decisions.md` ("The
//! core's façade") says why the rest is not public.
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
// The façade's documentation check (`.ci/run`; docs/decisions.md, "The
// core's façade"): `missing_docs` skips everything defined inside a
// `#[doc(hidden)]` module, re-exported or not. Built with
// `--cfg jp_kb_facade_docs`, the module is private instead, so the lint
// sees exactly what an adopter can name: the façade's items, their fields,
// variants and methods. Only this check builds it so; what the binary
// alone uses is then unused, hence the allows.
#![cfg_attr(
    jp_kb_facade_docs,
    deny(missing_docs),
    allow(dead_code, unused_imports)
)]

#[cfg(not(jp_kb_facade_docs))]
#[doc(hidden)]
pub mod internal;
#[cfg(jp_kb_facade_docs)]
mod internal;

// The crate's own paths (`crate::config::…`, `crate::subjects::…`) name the
// modules behind the façade; the façade modules below import the rest of
// their namesakes the same way. `display` and `frontmatter` serve only
// optional features.
#[cfg(all(feature = "search", feature = "usage"))]
#[allow(unused_imports)]
use internal::facts;
#[cfg(feature = "check")]
use internal::remedy;
#[cfg(feature = "usage")]
#[allow(unused_imports)]
use internal::usage;
#[allow(unused_imports)]
use internal::{
    config, content, display, kb, learn, learn_arguments, plural, render, subjects, topic,
    topic_config, unique,
};
#[cfg(feature = "search")]
use internal::{frontmatter, search};
#[cfg(feature = "tokens")]
#[allow(unused_imports)]
use internal::{section_tokens, tokens};

#[cfg(feature = "config")]
pub use internal::config::{ConfigError, Environment, JpKind, LoadOptions, OverrideError};
pub use internal::config::{ConfigWarning, Origin};
pub use internal::kb::{KnowledgeBase, UnknownTopic};
pub use internal::learn::Outcome;
pub use internal::topic_config::TopicConfig;

/// The `learn` tool's name, as the `<knowledge>` section names it.
pub const LEARN_TOOL_NAME: &str = internal::render::TOOL_NAME;

/// The `learn` tool's parameters: the RFD's JSON schema, exactly
/// `jp-kb schema`'s `parameters`. Constant: the topics are listed in the
/// description ([`KnowledgeBase::tool_description`]), so a provider that
/// caches tool schemas never holds a stale one.
pub fn learn_tool_parameters() -> serde_json::Map<String, serde_json::Value> {
    match internal::render::tool_parameters() {
        serde_json::Value::Object(schema) => schema,
        _ => serde_json::Map::new(),
    }
}

/// The linter: every finding about a knowledge base, with a stable code,
/// a place and a hint, like a compiler's.
#[cfg(feature = "check")]
pub mod check {
    pub use crate::internal::check::report::{HumanStyle, render_human, render_json_lines};
    #[allow(unused_imports)]
    pub(crate) use crate::internal::check::*;
    pub use crate::internal::check::{
        CheckReport, Code, Finding, Remedy, Severity, Thresholds, check, check_knowledge_base,
    };
}

/// Curation edits (feature `config`): the planner ([`plan`]) decides what a person's intent
/// means, [`apply`] carries the plan out (every file checked before any is
/// written, under locks, never half of it) and records it in a
/// [`Journal`] as one undo step.
#[cfg(feature = "config")]
pub mod edit {
    // `apply` by its full path: `internal::edit::apply` is a function and a
    // module, and importing both would make the module a façade path.
    pub use crate::internal::edit::apply::{Written, apply};
    pub use crate::internal::edit::target::WouldHide;
    #[allow(unused_imports)]
    pub(crate) use crate::internal::edit::*;
    pub use crate::internal::edit::{
        Applied, ApplyError, BadEdit, Boundaries, Change, Edit, EditError, Journal, JournalError,
        SaveError, WriteError,
    };

    /// The planner: an [`Intent`] in a [`Workspace`] becomes an [`Answer`]
    /// — a [`Plan`] to carry out, a [`Question`] with typed options, a
    /// note that nothing changes, or a [`Refusal`].
    pub mod plan {
        pub use crate::internal::config::{FieldKind, TopicField};
        pub use crate::internal::edit::FieldValue;
        pub use crate::internal::edit::plan::TopicIdError;
        #[allow(unused_imports)]
        pub(crate) use crate::internal::edit::plan::*;
        pub use crate::internal::edit::plan::{
            Alternative, AlternativeKind, Answer, Chosen, Confirm, Counting, DEFAULT_BUDGET, Disk,
            Intent, List, NoTokens, OnDisk, Plan, Question, Refusal, Step, TokenChange,
            TokenSource, ViewChange, Workspace, plan,
        };
        pub use crate::internal::topic::TopicError;
    }
}

/// What an MCP server serves from a knowledge base: the `learn` tool and
/// its calls, the `knowledge` prompt and server instructions, and the
/// `kb://` resources. The server itself (transport, protocol) is the
/// caller's.
pub mod mcp {
    #[allow(unused_imports)]
    pub(crate) use crate::internal::mcp::*;
    // By its full path: `instructions` is a function and a module.
    #[cfg(feature = "config")]
    pub use crate::internal::mcp::Workspace;
    pub use crate::internal::mcp::instructions::instructions;
    pub use crate::internal::mcp::{
        ArgumentError, Body, InstructionsMode, KNOWLEDGE_PROMPT, KNOWLEDGE_PROMPT_DESCRIPTION,
        LEARN_HINTS, LEARN_TITLE, LearnTool, ModeError, RESOURCE_TEMPLATE, ReadError,
        ResourceContent, ResourceEntry, SERVER_NAME, ToolHints, call_learn, knowledge_text,
        learn_tool, list_resources, parse_learn_arguments, read_resource, subject_uri,
    };
}

/// The assistants jp-kb connects (JP, Claude Code, Codex): their profiles
/// (what each receives through which channel), the files `connect` and
/// `sync` write, and carrying those out through [`edit::apply`].
#[cfg(feature = "clients")]
pub mod clients {
    pub use crate::internal::clients::ClientError;
    pub use crate::internal::clients::carry_out::write_all;
    pub use crate::internal::clients::connect::{Client, FileWrite, Part, Texts, plan};
    pub use crate::internal::clients::cut::{Kept, Unit};
    pub use crate::internal::clients::profile::{
        Channel, ChannelFacts, ConnectFacts, Delivery, Format, McpConfig, Profile, client_ids,
        profile,
    };
    pub use crate::internal::clients::sync::{plan_sync, stale};
    #[allow(unused_imports)]
    pub(crate) use crate::internal::clients::*;
}
