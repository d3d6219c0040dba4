//! What the outside world reports to the TUI: an [`Event`] from a worker,
//! the file watcher, the driver or the terminal. Events are moved into
//! the state exactly once (none is `Clone`: a load's result cannot be
//! shared, so it cannot be dropped because another copy exists).
//! [`Msg`] is what `update` takes: a user [`Command`] or an [`Event`].

use std::path::PathBuf;

use super::command::Command;
use super::effect::ChangedFile;
use super::model::{Fetched, LoadOutcome};
use jp_kb_core::check::CheckReport;

/// One report from outside the state. Not `Clone`, on purpose:
///
/// ```compile_fail
/// fn shared(event: &jp_kb::tui::event::Event) -> jp_kb::tui::event::Event {
///     event.clone()
/// }
/// ```
#[derive(Debug)]
pub enum Event {
    /// The terminal was resized.
    Resize(u16, u16),
    /// Files changed on disk (from the watcher, or the editor returned).
    FilesChanged(Vec<PathBuf>),
    /// The first load's listing of the selected topic (no sizes yet):
    /// shown until [`Event::Loaded`] replaces it.
    Listed(Box<super::listing::state::Listed>),
    /// The workspace was (re)loaded.
    Loaded(Box<LoadOutcome>),
    /// Data the driver read for the preview.
    Fetched(Box<Fetched>),
    /// What `jp-kb check` found after a (re)load.
    Checked(Box<CheckReport>),
    /// The usage ledger was read (at start, and after it changed).
    Usage(Box<super::usage::Read>),
    /// The search mode's hits for a query.
    Searched(Box<crate::tui::search::state::Found>),
    /// Subjects' ages, and the prune view's list when asked (`prune`).
    Pruned(Box<crate::tui::prune::state::Pruned>),
    /// Exact token counts of planned sections (`plan_costs`).
    Counted(Box<super::cost_store::Counted>),
    /// An effect finished: a status message, and whether it failed.
    Done {
        message: String,
        error: bool,
        changed: Option<ChangedFile>,
    },
}

/// What `update` takes.
#[derive(Debug)]
pub enum Msg {
    Command(Command),
    Event(Event),
}

impl From<Command> for Msg {
    fn from(command: Command) -> Self {
        Msg::Command(command)
    }
}

impl From<Event> for Msg {
    fn from(event: Event) -> Self {
        Msg::Event(event)
    }
}
