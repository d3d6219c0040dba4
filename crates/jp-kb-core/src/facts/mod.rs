//! Knowledge that ages: the Facts knowledge format (an `index.json` and
//! YAML files of facts with ids, categories, confidence, expiry and
//! related ids; `docs/facts.md`) read with every field's place, and the
//! `expires`, `last_confirmed` and `confidence` any subject's front
//! matter may carry. `check` judges both; `list`, `search`, `usage
//! --stale` and the TUI show them. What the assistant is shown never
//! changes: a Facts file is a subject like any other.
//!
//! - [`date`]: ISO-8601 days, and today (injectable)
//! - [`aging`]: a front matter's `expires`, `last_confirmed`, `confidence`
//! - [`read`]: telling a Facts file, and reading it into a [`file::FactsFile`]
//! - [`age`]: what a subject's file says of its age, read for display
//! - [`json_spans`], [`yaml_entries`], [`spans`]: where fields are

pub mod age;
pub mod aging;
pub mod date;
pub mod file;
pub mod json_spans;
pub mod read;
pub mod spans;
pub mod yaml_entries;

pub use age::{FactsSummary, SubjectAge};
pub use aging::{Aging, Confidence, Dated, LOW_CONFIDENCE};
pub use date::Day;
pub use file::{Fact, FactsFile, FactsKind, Problem};
pub use read::read_facts;

/// The categories a fact may have.
pub const CATEGORIES: [&str; 5] = ["fact", "pitfall", "pattern", "tool-quirk", "question"];
