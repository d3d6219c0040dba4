//! The plan in plain words, for people (the CLI's plan, the TUI's
//! first-run screen): where each file comes from, when the assistant it
//! was written for shows it, what JP does instead, and why a file is not
//! adopted. Untrusted names are escaped by the caller ([`crate::display`]).
//! No front end's command or flag is named here.

use super::find::NotAdoptedWhy;
use super::gate::Trigger;
use super::plan::{Entry, State};

/// `Claude Code: every session`, `Codex: for work under api/`,
/// `Claude Code: imported by CLAUDE.md (every session)`.
pub fn source(entry: &Entry) -> String {
    let assistant = entry.kind.assistant().name();
    let when = entry.trigger.describe();
    match (&entry.imported_by, &entry.kind) {
        (Some(by), super::kinds::Kind::Import) => {
            format!("{assistant}: imported by {by} ({when})")
        }
        (Some(by), _) => format!("{assistant}: {when} (also imported by {by})"),
        (None, _) => format!("{assistant}: {when}"),
    }
}

/// What JP does with the file, when that differs from what the other
/// assistant does (`None` when it is the same: always shown and
/// pre-loaded, or chosen by the model and learnable).
pub fn instead(entry: &Entry) -> Option<&'static str> {
    let gated = entry.trigger.is_gated();
    match (entry.state, &entry.trigger) {
        (State::Skipped, _) => Some("not adopted, as chosen"),
        (State::Learned, Trigger::Always) | (State::Learnable, Trigger::Described(_)) => None,
        (State::Learned, _) if gated => Some("JP has no such trigger: pre-loaded in every session"),
        (State::Learned, _) => Some("pre-loaded in every session"),
        (State::Learnable, _) if gated => {
            Some("JP has no such trigger: learnable, its gate in the topic's description")
        }
        (State::Learnable, Trigger::Manual) => Some("learnable: the assistant may load it unasked"),
        (State::Learnable, _) => Some("learnable instead of always shown"),
    }
}

/// Why a file is not adopted, in words.
pub fn not_adopted(why: &NotAdoptedWhy) -> String {
    match why {
        NotAdoptedWhy::Personal => {
            "one person's notes (Claude Code's local memory, usually not committed): put what \
             should be shared in CLAUDE.md"
                .into()
        }
        NotAdoptedWhy::Generated { client } => {
            format!("written by jp-kb for {client} (the knowledge section itself)")
        }
        NotAdoptedWhy::Unreadable(why) => format!("not read: {why}"),
        NotAdoptedWhy::ImportOutside { by } => {
            format!("imported by {by}: outside the workspace, never followed")
        }
        NotAdoptedWhy::ImportMissing { by } => format!("imported by {by}: no such file"),
        NotAdoptedWhy::ImportTooDeep { by } => format!(
            "imported by {by}: more than {} imports deep, where Claude Code stops",
            super::find::MAX_IMPORT_DEPTH
        ),
    }
}
