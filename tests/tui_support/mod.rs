//! Helpers for the TUI tests: a fresh copy of the bundled demo opened in
//! the headless harness, and screen text with temporary paths filtered.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use jp_kb::tui::harness::Harness;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

/// A demo workspace in a temporary directory, open in the harness.
pub struct Demo {
    pub dir: tempfile::TempDir,
    pub h: Harness,
}

impl Demo {
    pub fn new(width: u16, height: u16) -> Self {
        Self::with_color(width, height, true)
    }

    pub fn with_color(width: u16, height: u16, color: bool) -> Self {
        let dir = jp_kb::tui::demo::materialize().expect("demo");
        let h = Harness::open(dir.path(), width, height, color);
        Self { dir, h }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    pub fn config(&self) -> PathBuf {
        self.root().join(".jp/kb.toml")
    }

    pub fn config_text(&self) -> String {
        std::fs::read_to_string(self.config()).unwrap()
    }

    /// The screen with the temporary root replaced by `[ROOT]`.
    pub fn screen(&self) -> String {
        filter(&self.h.screen(), &self.root())
    }

    pub fn keys(&mut self, keys: &str) {
        self.h.keys(keys);
    }

    pub fn ctrl(&mut self, ch: char) {
        self.h.press(KeyCode::Char(ch), KeyModifiers::CONTROL);
    }

    /// Selects the subject whose slug fuzzy-matches `query` first.
    pub fn select(&mut self, query: &str) {
        self.keys(&format!("/{query}\n"));
    }

    /// Opens the layer picker (`f`), types `shown` to filter, moves to
    /// the row shown as `shown` with ↓ and chooses it with Enter.
    pub fn pick_layer(&mut self, shown: &str) {
        self.keys("f");
        assert!(
            matches!(self.h.mode(), jp_kb::tui::app::Mode::Picker(_)),
            "f opens the layer picker"
        );
        self.keys(shown);
        let jp_kb::tui::app::Mode::Picker(p) = self.h.mode() else {
            panic!("typing keeps the layer picker open");
        };
        let at = p
            .rows()
            .iter()
            .position(
                |r| matches!(r, jp_kb::tui::picker::state::Row::Layer(i) if p.layers[*i].shown == shown),
            )
            .unwrap_or_else(|| panic!("{shown} is not offered: {:?}", p.layers));
        for _ in p.selected..at {
            self.h.press(KeyCode::Down, KeyModifiers::NONE);
        }
        self.keys("\n");
    }

    /// The screen with its styles: each row's text, then every run of cells
    /// drawn with a non-default style as `columns fg/bg +modifiers`, so a
    /// marker that loses its color (or the selection its highlight) changes
    /// the snapshot even when the glyphs stay.
    pub fn styled_screen(&self) -> String {
        use ratatui::style::Color;
        use std::fmt::Write as _;
        let buffer = self.h.render();
        let area = buffer.area;
        let mut out = String::new();
        for y in 0..area.height {
            let row: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
            let _ = writeln!(out, "{}", row.trim_end());
            let mut x = 0;
            while x < area.width {
                let style = buffer[(x, y)].style();
                let start = x;
                while x < area.width && buffer[(x, y)].style() == style {
                    x += 1;
                }
                if style.fg.is_some_and(|c| c != Color::Reset)
                    || style.bg.is_some_and(|c| c != Color::Reset)
                    || !style.add_modifier.is_empty()
                {
                    let text: String = (start..x).map(|x| buffer[(x, y)].symbol()).collect();
                    let _ = writeln!(
                        out,
                        "    {start}..{x} {:?} fg={:?} bg={:?} {:?}",
                        text.trim_end(),
                        style.fg.unwrap_or(Color::Reset),
                        style.bg.unwrap_or(Color::Reset),
                        style.add_modifier
                    );
                }
            }
        }
        filter(&out, &self.root())
    }

    /// Selects topic number `n` (0-based) from the topics pane.
    pub fn topic(&mut self, n: usize) {
        while self.h.focused() != jp_kb::tui::pane::Focus::Topics {
            self.h.keys("\t");
        }
        self.h.press(KeyCode::Home, KeyModifiers::NONE);
        for _ in 0..n {
            self.keys("j");
        }
    }
}

/// Replaces temporary paths so snapshots are stable.
pub fn filter(screen: &str, root: &Path) -> String {
    let root = root.display().to_string();
    let name = Path::new(&root)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    screen
        .replace(&root, "[ROOT]")
        .replace(&name, "jp-kb-demo-XXXXXX")
}

/// The cells where `needle` (single-width characters) starts on screen,
/// row by row.
pub fn find_all(buffer: &ratatui::buffer::Buffer, needle: &str) -> Vec<(u16, u16)> {
    let chars: Vec<String> = needle.chars().map(String::from).collect();
    let area = buffer.area;
    let mut out = Vec::new();
    for y in 0..area.height {
        for x in 0..area.width {
            let fits = chars.iter().enumerate().all(|(i, ch)| {
                let x = x + u16::try_from(i).unwrap();
                x < area.width && buffer[(x, y)].symbol() == ch
            });
            if fits {
                out.push((x, y));
            }
        }
    }
    out
}

/// The cell where `needle` first starts on screen.
pub fn find(buffer: &ratatui::buffer::Buffer, needle: &str) -> (u16, u16) {
    find_all(buffer, needle)
        .first()
        .copied()
        .unwrap_or_else(|| panic!("{needle:?} not on screen"))
}
