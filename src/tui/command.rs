//! What a person asks the TUI to do: a [`Command`], bound to keys in the
//! key table ([`super::keymap`]) or made from a mouse event and the drawn
//! layout ([`super::mouse`]). Every variant has a stable [`Command::name`],
//! so keys can later be configured by name, and a `///` line.
//!
//! What workers and the file system report is a different type,
//! [`super::event::Event`]: commands are cheap to copy into a key table,
//! events are moved once into the state.

use ratatui::crossterm::event::KeyEvent;

use super::pane::{Focus, Tab};

/// One user intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
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
    /// Mark or unmark the selected subject (a directory: its subjects).
    ToggleMark,
    /// Mark the subjects from the last mark to the cursor.
    MarkRange,
    /// Mark every subject shown (the filtered rows).
    MarkShown,
    /// Undo the last change (across files).
    Undo,
    /// Suspend to the shell (`fg` comes back), in every mode.
    Suspend,
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
    /// Search the subjects of every enabled topic by their words (the
    /// search mode).
    OpenSearch,
    /// Show or hide hidden and disabled subjects.
    ToggleShowHidden,
    /// Order the subjects by usage: all, never loaded in 30 days, or the
    /// loaded ones most loaded first.
    CycleUsageOrder,
    /// Show every subject, only the stale ones (expired, or a fact of
    /// them), or only the low-confidence ones.
    CycleAgeFilter,
    /// Open the prune view: subjects expired, never loaded, or not loaded
    /// for a chosen time, to disable in one step.
    OpenPrune,
    /// In the prune view: the next "not loaded for" (none, 30, 90, 180
    /// days).
    CyclePruneSince,
    /// Open the selected subject (or the config file) in $VISUAL/$EDITOR.
    OpenEditor,
    /// Choose the file new entries, fields and topics are written to (the
    /// layer picker).
    PickLayer,
    /// Re-read the configuration and the subjects.
    Reload,
    /// Show the Findings tab with every topic's findings, or only the
    /// selected topic's.
    ToggleFindingsScope,
    /// Apply the fix of the finding under the cursor (Findings tab).
    FixFinding,
    /// Show the Prompt tab's next view: the RFD's `<knowledge>` section,
    /// then what each client's model receives.
    CyclePromptView,
    /// Show the key help.
    ToggleHelp,
    /// Next match of the last search (help, message log).
    SearchNext,
    /// Previous match of the last search.
    SearchPrev,
    /// Copy what has the focus (a slug, the prompt, the learn output, the
    /// findings) to the clipboard through OSC 52.
    Copy,
    /// Soft-wrap the preview's long lines, or cut them.
    ToggleWrap,
    /// Show the message log (every status message, whole).
    ShowMessages,
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
    /// A key typed into a text input (text scopes pass unbound keys on).
    Input(KeyEvent),
    /// A click on the topics pane, on topic N when it hit a row.
    PickTopic(Option<usize>),
    /// A click on the subjects pane, on row N when it hit one (a click on
    /// the selected row opens or closes it, as Enter does).
    PickRow(Option<usize>),
    /// A click on the preview, on a tab's label when it hit one.
    PickTab(Option<Tab>),
    /// The mouse wheel over a pane: scroll it without moving the focus.
    Scroll { pane: Focus, down: bool },
}

impl Command {
    /// The command's stable name (what a key configuration would bind).
    pub fn name(&self) -> &'static str {
        match self {
            Command::MoveUp => "move-up",
            Command::MoveDown => "move-down",
            Command::PageUp => "page-up",
            Command::PageDown => "page-down",
            Command::Top => "top",
            Command::Bottom => "bottom",
            Command::FocusNext => "focus-next",
            Command::FocusPrev => "focus-prev",
            Command::Activate => "activate",
            Command::Collapse => "collapse",
            Command::Expand => "expand",
            Command::SelectTab(_) => "select-tab",
            Command::NextTab => "next-tab",
            Command::PrevTab => "prev-tab",
            Command::ToggleLearned => "toggle-learned",
            Command::ToggleDisabled => "toggle-disabled",
            Command::ToggleEnable => "toggle-enable",
            Command::ToggleMark => "toggle-mark",
            Command::MarkRange => "mark-range",
            Command::MarkShown => "mark-shown",
            Command::Undo => "undo",
            Command::Redo => "redo",
            Command::EditTopic => "edit-topic",
            Command::NewTopic => "new-topic",
            Command::OpenPatternTester => "pattern-tester",
            Command::OpenFilter => "filter",
            Command::OpenSearch => "search",
            Command::ToggleShowHidden => "toggle-show-hidden",
            Command::CycleUsageOrder => "cycle-usage-order",
            Command::CycleAgeFilter => "cycle-age-filter",
            Command::OpenPrune => "prune",
            Command::CyclePruneSince => "cycle-prune-since",
            Command::OpenEditor => "open-editor",
            Command::PickLayer => "pick-layer",
            Command::Reload => "reload",
            Command::ToggleFindingsScope => "toggle-findings-scope",
            Command::FixFinding => "fix-finding",
            Command::CyclePromptView => "cycle-prompt-view",
            Command::ToggleHelp => "help",
            Command::SearchNext => "search-next",
            Command::SearchPrev => "search-previous",
            Command::Copy => "copy",
            Command::ToggleWrap => "toggle-wrap",
            Command::ShowMessages => "message-log",
            Command::Quit => "quit",
            Command::Suspend => "suspend",
            Command::Cancel => "cancel",
            Command::Confirm => "confirm",
            Command::Save => "save",
            Command::NextField => "next-field",
            Command::PrevField => "prev-field",
            Command::Choose(_) => "choose",
            Command::Input(_) => "input",
            Command::PickTopic(_) => "pick-topic",
            Command::PickRow(_) => "pick-row",
            Command::PickTab(_) => "pick-tab",
            Command::Scroll { .. } => "scroll",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bound_command_has_its_own_name() {
        let table = super::super::keymap::table::bindings();
        let mut seen: Vec<(&str, std::mem::Discriminant<Command>)> = Vec::new();
        for binding in &table {
            let name = binding.command.name();
            let kind = std::mem::discriminant(&binding.command);
            if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
                assert_eq!(*other, kind, "two commands named {name}");
            } else {
                seen.push((name, kind));
            }
        }
        assert!(seen.iter().any(|(n, _)| *n == "toggle-learned"));
    }
}
