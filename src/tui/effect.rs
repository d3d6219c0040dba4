//! What `update` asks the outside world to do ([`Effect`]): returned as
//! data, carried out by the driver (files, workers) or the terminal (the
//! editor, quitting), so `update` is tested with no file system.

use std::path::PathBuf;

use jp_kb_core::edit::plan::Plan;

/// A file an edit (or undo) changed, for the Config tab's highlight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    pub path: PathBuf,
    pub before: String,
    pub after: String,
}

/// What `update` asks the driver to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Carry a plan out (every file it writes), as one undo step.
    Apply(Box<Plan>),
    Undo,
    Redo,
    /// Reload the workspace; `paths` changed on disk (caches to drop).
    Reload {
        paths: Vec<PathBuf>,
    },
    /// Run `jp-kb check` on the loaded workspace (it reads subject files).
    Check,
    /// Render the prompt of the load just shown (on the prompt worker).
    /// Asked only for a load the state took: a load it dropped as
    /// overtaken must not take the worker's one slot from it.
    RenderPrompt,
    /// Suspend the terminal, run the editor on the file, restore, reload.
    OpenEditor(PathBuf),
    /// The same, at a 1-based line (a finding's place).
    OpenEditorAt(PathBuf, u32),
    /// Put this text on the clipboard (the terminal writes OSC 52).
    Copy(String),
    /// Copy the whole `<knowledge>` section (the driver reads it).
    CopyPrompt,
    /// Search every enabled topic for `query` (the search mode); the
    /// answer comes back as `Event::Searched` tagged with `generation`.
    Search {
        query: String,
        generation: u64,
    },
    /// Read the subjects' ages of the load shown, and, with `list`, the
    /// prune view's list: `(request generation, not loaded for N days)`.
    Prune {
        list: Option<(u64, Option<u64>)>,
    },
    /// Hand the terminal back to the shell and stop (`fg` comes back).
    Suspend,
    Quit,
}
