//! The layer picker (`f`): the files edits may go to, the useful ones
//! first (jp-kb's own `kb.toml` layers, the user-workspace file, the
//! `.jp.toml`, any file that declares the topic or is the target now),
//! then the files only JP reads for itself, folded into one row (JP's real
//! configuration extends 60-odd MCP tool files nobody means to put a topic
//! in). Typing filters every file, folded or not; Enter on the fold row
//! unfolds it. The planner lists the layers (`edit::plan::layers`); Enter
//! on a file makes it the one new entries, fields and topics go to, and
//! the status line and the Config tab show it from then on. Plain state:
//! `update` applies the outcome.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::tui::command::Command;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::edit::plan::{Layer, layers};
use jp_kb_core::internal::edit::plan::layers::normalise;
use ratatui::crossterm::event::KeyCode;

/// The picker's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker {
    /// The useful layers first, then the folded ones (see [`useful`]).
    pub layers: Vec<Layer>,
    /// How many of `layers` are useful (the rest fold).
    pub useful: usize,
    /// What the person typed: rows whose path or role contain it.
    pub query: String,
    /// The fold row was opened.
    pub unfolded: bool,
    /// The highlighted row of [`Picker::rows`].
    pub selected: usize,
    /// The first row drawn (kept by the keys so the highlight stays in
    /// view; the view clamps it again after a resize).
    pub offset: usize,
    /// The topic the `declares` column is about.
    pub topic: Option<String>,
    /// The file edits go to now (marked in the list).
    pub current: Option<PathBuf>,
}

/// One row of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// `layers[i]`.
    Layer(usize),
    /// The folded files: how many, and where most of them live.
    Fold { count: usize, summary: String },
}

/// What a key did in the picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerResult {
    Stay,
    Cancel,
    Chosen(Layer),
}

/// Whether a layer is worth a row of its own: a file jp-kb owns, a place
/// for personal or local entries, or one that matters for this topic now.
fn useful(layer: &Layer, current: Option<&PathBuf>) -> bool {
    !layer.jp_loads
        || matches!(layer.role, "user-workspace" | ".jp.toml")
        || layer.declares
        || current == Some(&layer.path)
}

/// The list rows fit on a screen `screen_height` rows high: the box keeps
/// one row free above and below (the status line stays readable) and
/// spends two on its border.
pub fn list_height(screen_height: u16, rows: usize) -> usize {
    usize::from(screen_height.saturating_sub(4)).clamp(1, rows.max(1))
}

impl Picker {
    /// The layers of `kb` for `topic`, the current target highlighted.
    pub fn open(kb: &KnowledgeBase, topic: Option<&str>, current: Option<PathBuf>) -> Self {
        Self::of(layers(kb, topic), topic, current)
    }

    /// The picker over `list` (the planner's order), the current target
    /// highlighted.
    pub fn of(list: Vec<Layer>, topic: Option<&str>, current: Option<PathBuf>) -> Self {
        let current = current.map(|p| normalise(&p));
        let (mut list, folded): (Vec<Layer>, Vec<Layer>) =
            list.into_iter().partition(|l| useful(l, current.as_ref()));
        let useful = list.len();
        list.extend(folded);
        let mut picker = Self {
            layers: list,
            useful,
            query: String::new(),
            unfolded: false,
            selected: 0,
            offset: 0,
            topic: topic.map(str::to_owned),
            current,
        };
        picker.selected = picker
            .rows()
            .iter()
            .position(|r| matches!(r, Row::Layer(i) if picker.is_current(*i)))
            .unwrap_or(0);
        picker
    }

    pub fn is_current(&self, i: usize) -> bool {
        self.layers
            .get(i)
            .is_some_and(|l| self.current.as_ref() == Some(&l.path))
    }

    /// The rows shown: with a query every matching file; otherwise the
    /// useful files and one fold row for the rest (until unfolded).
    pub fn rows(&self) -> Vec<Row> {
        let query = self.query.to_lowercase();
        if !query.is_empty() {
            return (0..self.layers.len())
                .filter(|&i| {
                    let l = &self.layers[i];
                    l.shown.to_lowercase().contains(&query) || l.role.contains(&query)
                })
                .map(Row::Layer)
                .collect();
        }
        let folded = self.layers.len() - self.useful;
        if self.unfolded || folded == 0 {
            return (0..self.layers.len()).map(Row::Layer).collect();
        }
        let mut rows: Vec<Row> = (0..self.useful).map(Row::Layer).collect();
        rows.push(Row::Fold {
            count: folded,
            summary: self.fold_summary(),
        });
        rows
    }

    /// Where the folded files live, most first (`.jp/mcp/tools, .jp/config`):
    /// the directory two levels below the workspace's folder.
    fn fold_summary(&self) -> String {
        let mut dirs: Vec<(String, usize)> = Vec::new();
        for layer in &self.layers[self.useful..] {
            let parts: Vec<&str> = layer.shown.split('/').collect();
            let keep = parts.len().saturating_sub(1).min(3);
            let dir = parts[..keep].join("/");
            match dirs.iter_mut().find(|(d, _)| *d == dir) {
                Some((_, n)) => *n += 1,
                None => dirs.push((dir, 1)),
            }
        }
        dirs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut out = String::new();
        for (i, (dir, n)) in dirs.iter().take(2).enumerate() {
            let dir = if dir.is_empty() { "." } else { dir };
            let _ = write!(out, "{}{dir}/ {n}", if i > 0 { ", " } else { "" });
        }
        if dirs.len() > 2 {
            out.push_str(", …");
        }
        out
    }

    /// A key (resolved through the key map's picker scope); `page` is how
    /// many rows the list shows.
    pub fn key(&mut self, command: &Command, page: usize) -> PickerResult {
        let n = self.rows().len();
        let last = n.saturating_sub(1);
        let page = page.max(1);
        match command {
            Command::Cancel => return PickerResult::Cancel,
            // ↑↓ wrap (the list is short once folded); the rest stop.
            Command::MoveDown if n > 0 => self.selected = (self.selected + 1) % n,
            Command::MoveUp if n > 0 => self.selected = (self.selected + n - 1) % n,
            Command::PageDown => self.selected = (self.selected + page).min(last),
            Command::PageUp => self.selected = self.selected.saturating_sub(page),
            Command::Top => self.selected = 0,
            Command::Bottom => self.selected = last,
            Command::Input(key) => {
                match key.code {
                    KeyCode::Char(ch) => self.query.push(ch),
                    KeyCode::Backspace => {
                        self.query.pop();
                    }
                    _ => return PickerResult::Stay,
                }
                self.selected = 0;
                self.offset = 0;
            }
            Command::Confirm => match self.rows().get(self.selected) {
                Some(Row::Layer(i)) => {
                    return self
                        .layers
                        .get(*i)
                        .cloned()
                        .map_or(PickerResult::Cancel, PickerResult::Chosen);
                }
                Some(Row::Fold { .. }) => self.unfolded = true,
                None => {}
            },
            _ => {}
        }
        self.offset = self
            .offset
            .min(self.selected)
            .max((self.selected + 1).saturating_sub(page));
        PickerResult::Stay
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};

    fn layer(shown: &str, role: &'static str, jp_loads: bool) -> Layer {
        Layer {
            path: PathBuf::from("/w").join(shown),
            shown: shown.to_owned(),
            role,
            exists: true,
            declares: false,
            jp_loads,
        }
    }

    /// JP's shape: its own files first in merge order, 60 MCP tool files,
    /// then jp-kb's file and the ones still to create.
    fn jp_like() -> Picker {
        let mut list = vec![
            layer(".jp/config/personas/default.toml", "extends", true),
            layer(".jp/config.toml", "team", true),
        ];
        for i in 0..60 {
            list.push(layer(
                &format!(".jp/mcp/tools/s/t{i}.toml"),
                "extends",
                true,
            ));
        }
        list.push(layer(".jp/kb.toml", "team", false));
        list.push(layer(".user/kb.toml", "user-workspace", false));
        list.push(layer(".jp.toml", ".jp.toml", true));
        Picker::of(list, Some("docs"), Some(PathBuf::from("/w/.jp/kb.toml")))
    }

    fn shown(p: &Picker) -> Vec<String> {
        p.rows()
            .iter()
            .map(|r| match r {
                Row::Layer(i) => p.layers[*i].shown.clone(),
                Row::Fold { count, summary } => format!("{count} folded ({summary})"),
            })
            .collect()
    }

    #[test]
    fn useful_files_come_first_and_jp_only_ones_fold() {
        let p = jp_like();
        assert_eq!(
            shown(&p),
            [
                ".jp/kb.toml",
                ".user/kb.toml",
                ".jp.toml",
                "62 folded (.jp/mcp/tools/ 60, .jp/ 1, …)"
            ]
        );
        assert_eq!(p.selected, 0, "the current target is highlighted");
    }

    #[test]
    fn typing_filters_every_file_and_enter_unfolds() {
        let mut p = jp_like();
        for ch in "default".chars() {
            let key = KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE);
            p.key(&Command::Input(key), 10);
        }
        assert_eq!(shown(&p), [".jp/config/personas/default.toml"]);
        let back = KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE);
        for _ in 0.."default".len() {
            p.key(&Command::Input(back), 10);
        }
        assert_eq!(shown(&p).len(), 4);
        p.key(&Command::Bottom, 10);
        assert_eq!(p.key(&Command::Confirm, 10), PickerResult::Stay);
        assert_eq!(shown(&p).len(), 65, "Enter on the fold row unfolds it");
    }

    #[test]
    fn home_end_and_pages_move_and_keep_the_highlight_in_view() {
        let mut p = jp_like();
        p.unfolded = true;
        p.key(&Command::Bottom, 10);
        assert_eq!((p.selected, p.offset), (64, 55));
        p.key(&Command::PageUp, 10);
        assert_eq!((p.selected, p.offset), (54, 54));
        p.key(&Command::Top, 10);
        assert_eq!((p.selected, p.offset), (0, 0));
        p.key(&Command::PageDown, 10);
        assert_eq!((p.selected, p.offset), (10, 1));
    }
}
