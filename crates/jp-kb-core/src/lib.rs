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
#[cfg(feature = "search")]
use internal::frontmatter;
#[cfg(feature = "check")]
use internal::remedy;
#[allow(unused_imports)]
use internal::{
    config, content, kb, learn, learn_arguments, plural, render, topic, topic_config, unique,
};
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
    // `check --client NAME`: a client's setup, said as findings.
    #[cfg(feature = "clients")]
    pub use crate::internal::check::client_findings::{
        add_client_findings, client_findings, setup_findings,
    };
    pub use crate::internal::check::report::summary;
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
    // Showing a change: a unified diff, the lines it touches.
    pub use crate::internal::edit::diff::changed_lines;
    pub use crate::internal::edit::unified_diff;
    // Which file an edit goes to.
    pub use crate::internal::edit::target::{creatable, for_lists, for_new_topic};
    // Moving `kb` tables between JP's files and `kb.toml` files.
    pub use crate::internal::edit::move_kb::{
        KbInJpFile, Moved, kb_in_jp_files, kb_only_files, move_kb,
    };
    // The names of the write layer's temporary files (a watcher skips them).
    pub use crate::internal::edit::temp::{TEMP_SUFFIX, is_temp_file};
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
        // The layers a change can go to, and the state a plan leads to.
        pub use crate::internal::edit::plan::layers::{Layer, layers};
        pub use crate::internal::edit::plan::planned;
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
    // What each client's model receives, channel by channel, and what of
    // the section reaches it through none.
    pub use crate::internal::clients::arrival::{
        Arrival, Loss, Section, arrivals, arrivals_of, losses, losses_of,
    };
    // A client's setup in a workspace, and keeping it current.
    pub use crate::internal::clients::connect::{
        generated_files, is_connected, not_needed, read_text,
    };
    pub use crate::internal::clients::setup::{Setup, SetupNote, read_setup};
    pub use crate::internal::clients::sync::{Synced, after_edit, connected, refresh_generated};
}

/// Text made safe for a terminal: subject names, paths and texts from a
/// workspace may hold escape sequences, bidirectional overrides and other
/// controls. Every name a person is shown goes through [`clean_name`] or
/// [`escape_name`], every quoted text through [`clean_text`] or
/// [`escape_lines`].
pub mod display {
    #[allow(unused_imports)]
    pub(crate) use crate::internal::display::*;
    pub use crate::internal::display::{
        SafeJsonFormatter, clean_name, clean_text, escape_json, escape_lines, escape_name,
        head_lines,
    };
}

/// A workspace's topics and their subjects, as the knowledge base
/// resolves them: each topic's directory walked once ([`TopicState`],
/// [`Resolution`]), every subject with its slug and state ([`Subject`],
/// [`Listing`]), and the walks reused while nothing changed
/// ([`WalkCache`], [`WatchedWalks`]).
pub mod subjects {
    pub use crate::internal::kb::SubjectAt;
    pub use crate::internal::subjects::pattern::find_exact;
    pub use crate::internal::subjects::slug::{is_hidden_path, slug_of};
    #[allow(unused_imports)]
    pub(crate) use crate::internal::subjects::*;
    pub use crate::internal::subjects::{
        DisableEffect, DisabledStates, Listing, Resolution, Subject, WalkCache, WalkResult,
        WatchedWalks,
    };
    pub use crate::internal::topic::TopicState;
}

/// The usage ledger (feature `usage`): what `learn` served and the section
/// pre-loaded, per session, recorded by an MCP server ([`Recorder`]) and
/// read back as a [`Report`]; [`stale`] picks the subjects not used for a
/// while.
#[cfg(feature = "usage")]
pub mod usage {
    #[cfg(feature = "search")]
    pub use crate::internal::usage::stale;
    #[allow(unused_imports)]
    pub(crate) use crate::internal::usage::*;
    pub use crate::internal::usage::{
        Entries, Entry, Kind, Ledger, Recorder, Report, Row, State, Tally, Usage, ledger_path,
        served_by_learn, session_id, time,
    };
}

/// Search (feature `search`): by words over an index kept beside the
/// workspace and, with the feature `semantic`, by meaning with a local
/// embedding model ([`semantic`]).
#[cfg(feature = "search")]
pub mod search {
    #[allow(unused_imports)]
    pub(crate) use crate::internal::search::*;
    pub use crate::internal::search::{
        DEFAULT_LIMIT, Hit, SearchError, SearchOutcome, SearchRequest, Searcher, Snippet,
        check_query, index_dir, search_with_walks,
    };
    #[cfg(feature = "semantic")]
    pub use crate::internal::search::{Mode, background, search_in_mode_with_walks, semantic};
}

/// Adoption (feature `clients`): the knowledge other assistants already
/// read in a repository (`CLAUDE.md`, `AGENTS.md`, `.claude/`, `.cursor/`,
/// Copilot's instructions) found ([`find`]), planned as topics that take
/// those files in place ([`plan`], [`preview`]) and carried out
/// ([`apply`]): the files stay where they are, read through links.
#[cfg(feature = "clients")]
pub mod adopt {
    pub use crate::internal::adopt::apply::{AdoptError, Applied, apply};
    pub use crate::internal::adopt::find::{Found, FoundFile, find};
    pub use crate::internal::adopt::gate::gate_of;
    pub use crate::internal::adopt::kinds::classify;
    pub use crate::internal::adopt::plan::{Choices, Entry, Plan, State, plan};
    pub use crate::internal::adopt::preview::{Preview, preview};
    pub use crate::internal::adopt::words;
    #[allow(unused_imports)]
    pub(crate) use crate::internal::adopt::*;
}
