//! The layer picker (`f`): every TOML layer with its role and whether it
//! declares the selected topic, then the layers that do not exist yet
//! (created on the first edit). The planner lists them
//! (`edit::plan::layers`); Enter makes the highlighted one the file new
//! entries, fields and topics go to, and the status line and the Config
//! tab show it from then on. Plain state: `update` applies the outcome.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::command::Command;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::edit::plan::layers::{Layer, layers, normalise};

/// The picker's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker {
    pub layers: Vec<Layer>,
    pub selected: usize,
    /// The topic the `declares` column is about.
    pub topic: Option<String>,
    /// The file edits go to now (marked in the list).
    pub current: Option<PathBuf>,
}

/// What a key did in the picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerResult {
    Stay,
    Cancel,
    Chosen(Layer),
}

impl Picker {
    /// The layers of `kb` for `topic`, the current target highlighted.
    pub fn open(kb: &KnowledgeBase, topic: Option<&str>, current: Option<PathBuf>) -> Self {
        let list = layers(kb, topic);
        let current = current.map(|p| normalise(&p));
        let selected = current
            .as_ref()
            .and_then(|c| list.iter().position(|l| l.path == *c))
            .unwrap_or(0);
        Self {
            layers: list,
            selected,
            topic: topic.map(str::to_owned),
            current,
        }
    }

    /// A key (resolved through the key map's picker scope).
    pub fn key(&mut self, command: &Command) -> PickerResult {
        let n = self.layers.len();
        match command {
            Command::Cancel => PickerResult::Cancel,
            Command::MoveDown if n > 0 => {
                self.selected = (self.selected + 1) % n;
                PickerResult::Stay
            }
            Command::MoveUp if n > 0 => {
                self.selected = (self.selected + n - 1) % n;
                PickerResult::Stay
            }
            Command::Confirm => self
                .layers
                .get(self.selected)
                .cloned()
                .map_or(PickerResult::Cancel, PickerResult::Chosen),
            _ => PickerResult::Stay,
        }
    }
}

/// What the status line says after a choice: the real file, its role,
/// and what the first edit there does.
pub fn chosen_message(layer: &Layer, topic: Option<&str>) -> String {
    let mut message = format!("edits now go to {} ({})", layer.shown, layer.role);
    if !layer.exists {
        message.push_str("; created on the first edit");
    }
    if let Some(topic) = topic.filter(|_| !layer.declares) {
        let _ = write!(message, "; `{topic}` is declared there on the first edit");
    }
    if layer.jp_loads {
        message.push_str("; JP loads it: a `kb` table there stops today's JP (asked first)");
    }
    message
}
