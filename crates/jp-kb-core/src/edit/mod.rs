//! Editing jp-kb's TOML configuration without touching anything else.
//!
//! `apply` turns a file's text and an [`Edit`] into the new text (pure, so
//! the TUI and `--diff` can show it first); `write` puts it on disk
//! atomically without clobbering concurrent changes (`lock`: the
//! directory lock writers take turns on; `temp`: the owner-only temporary
//! file); `journal` undoes and
//! redoes saved edits; `diff` renders a unified diff. Un-learning a
//! subject a glob selects is the planner's (`plan::lists`).
//!
//! Where and how bytes change (keys and strings in any TOML spelling,
//! tables, arrays, the splice itself) is the `jp-kb-toml` crate's: it
//! knows TOML, not topics. This module decides what a topic edit means.

pub mod apply;
pub mod diff;
pub(crate) mod error;
pub(crate) mod fields;
pub mod journal;
pub(crate) mod kinds;
pub mod link;
pub(crate) mod lists;
pub mod locate;
pub mod lock;
pub mod merge;
pub mod move_kb;
pub mod ops;
pub mod place;
pub mod plan;
pub mod target;
pub mod temp;
pub(crate) mod topic;
pub(crate) mod valid;
pub(crate) mod verify;
pub mod write;

pub use crate::config::TopicField;
pub use apply::{ApplyError, apply};
pub use diff::unified_diff;
pub use error::{BadEdit, EditError, JournalError, SaveError, WriteError};
pub use journal::{Change, Journal};
pub use locate::{Spelling, TopicInfo, find_topic, list_topics};
pub use ops::{Applied, Edit, FieldValue, apply as apply_edit, apply_declaring};
pub use place::{Boundaries, Place};
pub use write::{Saved, save, save_declaring, write_atomic};
