//! Everything that can happen to the app ([`Action`]) and everything the
//! app asks the outside world to do ([`Effect`]). `update` turns the first
//! into state changes and the second; the driver carries effects out.

use std::path::PathBuf;

use ratatui::crossterm::event::KeyEvent;

use super::edit_bridge::Edit;
use super::model::{Fetched, LoadOutcome};
use crate::check::CheckReport;

/// Which preview tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Subject,
    Prompt,
    Learn,
    Tool,
    Config,
    /// What `jp-kb check` finds in the workspace.
    Findings,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Subject,
        Tab::Prompt,
        Tab::Learn,
        Tab::Tool,
        Tab::Config,
        Tab::Findings,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Tab::Subject => "Subject",
            Tab::Prompt => "Prompt",
            Tab::Learn => "Learn",
            Tab::Tool => "Tool",
            Tab::Config => "Config",
            Tab::Findings => "Findings",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// One thing that happened: a key, a click, a file change, a load.
#[derive(Debug, Clone)]
pub enum Action {
    /// Move the selection (or scroll the preview) one row up.
    MoveUp,
    /// Move the selection (or scroll the preview) one row down.
    MoveDown,
    /// Move a page up.
    PageUp,
    /// Move a page down.
    PageDown,
    /// Jump to the first row.
    Top,
    /// Jump to the last row.
    Bottom,
    /// Focus the next pane.
    FocusNext,
    /// Focus the previous pane.
    FocusPrev,
    /// Open or close the selected directory; on a topic, go to its subjects.
    Activate,
    /// Close the selected directory (or go to its parent).
    Collapse,
    /// Open the selected directory.
    Expand,
    /// Show a preview tab.
    SelectTab(Tab),
    /// Next preview tab.
    NextTab,
    /// Previous preview tab.
    PrevTab,
    /// Toggle learned on the selected subject or directory.
    ToggleLearned,
    /// Toggle disabled on the selected subject or directory.
    ToggleDisabled,
    /// Toggle the selected topic's `enable`.
    ToggleEnable,
    /// Undo the last change (across files).
    Undo,
    /// Redo the last undone change.
    Redo,
    /// Edit the topic's title, introduction and description.
    EditTopic,
    /// Create a new topic.
    NewTopic,
    /// Open the pattern tester.
    OpenPatternTester,
    /// Filter subjects by a fuzzy match on slugs.
    OpenFilter,
    /// Show or hide hidden and disabled subjects.
    ToggleShowHidden,
    /// Open the selected subject (or the config file) in $VISUAL/$EDITOR.
    OpenEditor,
    /// Choose the file new entries, fields and topics are written to.
    PickLayer,
    /// Re-read the configuration and the subjects.
    Reload,
    /// Show the Findings tab with every topic's findings, or only the
    /// selected topic's.
    ToggleFindingsScope,
    /// Show the Prompt tab's next view: the RFD's `<knowledge>` section,
    /// then what each client's model receives.
    CyclePromptView,
    /// Show the key help.
    ToggleHelp,
    /// Quit.
    Quit,
    /// Close a dialog, overlay or input.
    Cancel,
    /// Confirm a dialog or input.
    Confirm,
    /// Save a form.
    Save,
    /// Next field of a form (or switch the pattern tester's destination).
    NextField,
    /// Previous field of a form.
    PrevField,
    /// Pick option N (1-based) of a choice dialog.
    Choose(usize),
    /// A key typed into a text input.
    Input(KeyEvent),
    /// A mouse click at (column, row).
    Click(u16, u16),
    /// Mouse wheel up at (column, row).
    ScrollUp(u16, u16),
    /// Mouse wheel down at (column, row).
    ScrollDown(u16, u16),
    /// The terminal was resized.
    Resize(u16, u16),
    /// Files changed on disk (from the watcher).
    FilesChanged(Vec<PathBuf>),
    /// The workspace was (re)loaded (shared so `Action` stays `Clone`;
    /// only the first holder can take it).
    Loaded(std::sync::Arc<LoadOutcome>),
    /// Data the driver read for the preview.
    Fetched(Box<Fetched>),
    /// What `jp-kb check` found after a (re)load.
    Checked(Box<CheckReport>),
    /// An effect finished: a status message, and whether it failed.
    Done {
        message: String,
        error: bool,
        changed: Option<ChangedFile>,
    },
}

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
    /// Apply edits to one config file, as one undo step; `declare`: an
    /// addition to a topic the file does not declare declares it there.
    ApplyEdit {
        file: PathBuf,
        edits: Vec<Edit>,
        declare: bool,
    },
    Undo,
    Redo,
    /// Reload the workspace; `paths` changed on disk (caches to drop).
    Reload {
        paths: Vec<PathBuf>,
    },
    /// Run `jp-kb check` on the loaded workspace (it reads subject files).
    Check,
    /// Suspend the terminal, run the editor on the file, restore, reload.
    OpenEditor(PathBuf),
    Quit,
}
