//! The key map's vocabulary: where a binding applies ([`Scope`]) and one
//! binding ([`Binding`]).

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use crate::tui::app::Mode;
use crate::tui::command::Command;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every mode, text entry included (before the mode's own keys).
    Everywhere,
    Normal,
    Help,
    /// The filter and the pattern tester (one-line inputs).
    Line,
    Choice,
    Form,
    /// The layer picker.
    Picker,
    /// The main screen while a search shows in the focused preview: its
    /// keys come before the main screen's.
    Found,
    /// The search mode's query line.
    Search,
    /// The search mode's hit list.
    SearchHits,
    /// The prune view.
    Prune,
}

impl Scope {
    pub fn of(mode: &Mode) -> Self {
        match mode {
            Mode::Normal => Scope::Normal,
            Mode::Help(_) | Mode::Messages(_) => Scope::Help,
            Mode::Filter(_) | Mode::Pattern(_) | Mode::HelpSearch(..) | Mode::PreviewSearch(_) => {
                Scope::Line
            }
            Mode::Choice(_) => Scope::Choice,
            Mode::Form(_) => Scope::Form,
            Mode::Picker(_) => Scope::Picker,
            Mode::Search(false) => Scope::Search,
            Mode::Search(true) => Scope::SearchHits,
            Mode::Prune => Scope::Prune,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Scope::Everywhere => "Everywhere",
            Scope::Normal => "Main screen",
            Scope::Help => "Help and message log",
            Scope::Line => "Filter, pattern tester and searches",
            Scope::Choice => "Choice dialogs",
            Scope::Form => "Forms",
            Scope::Picker => "Edit file picker",
            Scope::Found => "Search in the preview (/ with the preview focused)",
            Scope::Search => "Search: the query line",
            Scope::SearchHits => "Search: the hits",
            Scope::Prune => "Prune view",
        }
    }

    /// Text scopes pass unbound keys to the input.
    pub(super) fn is_text(self) -> bool {
        matches!(
            self,
            Scope::Line | Scope::Form | Scope::Search | Scope::Picker
        )
    }
}

/// One binding.
#[derive(Debug, Clone)]
pub struct Binding {
    pub scope: Scope,
    pub code: KeyCode,
    pub mods: KeyModifiers,
    pub command: Command,
    pub help: &'static str,
}
