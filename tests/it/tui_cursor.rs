#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 37 items 1 and 2 in the headless harness: the subjects pane's
//! cursor stays on the subject it is on through every change of the list
//! (a filter typed, `Esc` clearing it, a reload, a file appearing or
//! vanishing, the hidden subjects shown or not), and a
//! filter lands on its best match. On a tree shaped like JP's
//! documentation (`docs/`: a `.vitepress` directory first, RFD drafts, a
//! top-level `getting-started.md`).

use jp_kb::tui::event::Event;
use jp_kb::tui::harness::Harness;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::tmux_support::jp_tree::{JP_DOCS, jp_docs, write};

struct Docs {
    dir: tempfile::TempDir,
    h: Harness,
}

impl Docs {
    fn open() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        jp_docs(root);
        let mut h = Harness::open(root, 120, 40, false);
        // The subjects pane, its first row.
        h.keys("\t");
        h.press(KeyCode::Home, KeyModifiers::NONE);
        Self { dir, h }
    }

    fn root(&self) -> std::path::PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    /// The selected subject's path in the topic (None on a directory).
    fn selected(&self) -> Option<String> {
        let i = self.h.selected_subject()?;
        Some(self.h.subject(i)?.rel_path().to_owned())
    }

    fn esc(&mut self) {
        self.h.press(KeyCode::Esc, KeyModifiers::NONE);
    }

    /// What the watcher would report after files under `docs/` changed.
    fn changed(&mut self, rels: &[&str]) {
        let root = self.root();
        let paths = rels.iter().map(|r| root.join("docs").join(r)).collect();
        self.h.action(Event::FilesChanged(paths));
    }

    fn learned(&self) -> Vec<String> {
        let res = self.h.resolution().unwrap();
        (0..res.subjects().len())
            .filter(|&i| res.is_learned(i))
            .map(|i| res.subjects()[i].slug().to_owned())
            .collect()
    }
}

/// The steps: `/getting` Enter lands on `getting-started` (the
/// best match, first), `Esc` keeps it (it went to `.vitepress/loaders/
/// rfd-board.data.js`, the same row number in the whole tree), and `l`
/// learns it.
#[test]
fn esc_clearing_the_filter_keeps_the_subject_and_l_acts_on_it() {
    let mut d = Docs::open();
    d.h.keys("/getting\n");
    assert_eq!(d.selected().as_deref(), Some("getting-started.md"));
    d.esc();
    assert_eq!(d.h.subject_filter(), "", "Esc clears the filter");
    assert_eq!(d.selected().as_deref(), Some("getting-started.md"));
    d.h.keys("l");
    assert_eq!(d.learned(), ["getting-started"]);
    assert!(
        d.h.screen().contains("getting-started"),
        "the row is on screen"
    );
}

/// A subject chosen lower in the filtered list is the one kept; so is a
/// directory.
#[test]
fn the_subject_moved_to_in_the_filter_is_kept() {
    let mut d = Docs::open();
    d.h.keys("/getting\n");
    d.h.keys("G");
    let last = d.selected().expect("the last row is a subject");
    assert_ne!(last, "getting-started.md");
    d.esc();
    assert_eq!(d.selected(), Some(last));
    // Esc inside the filter line clears it too.
    d.h.keys("/rfdboard");
    let typed = d.selected();
    assert_eq!(
        typed.as_deref(),
        Some(".vitepress/loaders/rfd-board.data.js")
    );
    d.esc();
    assert!(matches!(d.h.mode(), jp_kb::tui::app::Mode::Normal));
    assert_eq!(d.selected(), typed);
}

/// A filter that matches nothing, then cleared: back on the subject the
/// cursor was on before it.
#[test]
fn a_filter_matching_nothing_then_cleared_comes_back_to_the_subject() {
    let mut d = Docs::open();
    d.h.keys("/usage\n");
    assert_eq!(d.selected().as_deref(), Some("usage.md"));
    d.h.keys("/zzzzqqq\n");
    assert_eq!(d.selected(), None, "no row");
    d.esc();
    assert_eq!(d.selected().as_deref(), Some("usage.md"));
}

/// Files appearing before the cursor, or the subject itself vanishing:
/// the cursor stays on the subject, or goes to its neighbour.
#[test]
fn files_appearing_or_vanishing_keep_the_cursor_on_its_subject() {
    let mut d = Docs::open();
    d.h.keys("/installation\n");
    d.esc();
    assert_eq!(d.selected().as_deref(), Some("installation.md"));
    let root = d.root();
    for rel in ["a-first.md", "aa/b.md", "features/new.md", "faq.md"] {
        write(&root, &format!("docs/{rel}"), "new\n");
    }
    d.changed(&["a-first.md", "aa/b.md", "features/new.md", "faq.md"]);
    assert!(d.h.resolution().unwrap().subjects().len() > JP_DOCS.len());
    assert_eq!(d.selected().as_deref(), Some("installation.md"));
    // The subject goes: its neighbour below takes the cursor, not
    // whatever the row number now shows.
    std::fs::remove_file(root.join("docs/installation.md")).unwrap();
    d.changed(&["installation.md"]);
    assert_eq!(d.selected().as_deref(), Some("usage.md"));
}

/// Showing or hiding hidden subjects, and `R`, keep the subject.
#[test]
fn hiding_hidden_subjects_and_reloading_keep_the_subject() {
    let mut d = Docs::open();
    d.h.keys("/configuration\n");
    d.esc();
    assert_eq!(d.selected().as_deref(), Some("configuration.md"));
    // `.vitepress` (hidden) is above it: hiding it moves every row up.
    d.h.keys(".");
    assert!(!d.h.shows_hidden());
    assert_eq!(d.selected().as_deref(), Some("configuration.md"));
    d.h.keys(".");
    assert_eq!(d.selected().as_deref(), Some("configuration.md"));
    d.h.keys("R");
    assert_eq!(d.selected().as_deref(), Some("configuration.md"));
}

/// A directory closed over the subject: the cursor goes to the directory,
/// and comes back to the subject when it is opened again from there.
#[test]
fn closing_the_directory_of_the_subject_selects_the_directory() {
    let mut d = Docs::open();
    d.h.keys("/personas\n");
    d.esc();
    assert_eq!(d.selected().as_deref(), Some("features/personas.md"));
    d.h.press(KeyCode::Left, KeyModifiers::NONE);
    assert_eq!(d.selected(), None, "on the directory row");
    d.h.keys("\n");
    assert!(d.h.screen().contains("▸ features/"), "{}", d.h.screen());
    d.h.keys("\n");
    assert!(d.h.screen().contains("▾ features/"), "{}", d.h.screen());
    assert_eq!(d.selected(), None, "still on the directory");
}

/// The filter's landing row is its best match even when a directory
/// holding weaker matches sorts first by name (the issue: `/getting`
/// landed on `rfd/drafts/D18-plugin-event-subscriptions…`).
#[test]
fn the_filter_lands_on_its_best_match() {
    let mut d = Docs::open();
    d.h.keys("/getting");
    assert_eq!(d.selected().as_deref(), Some("getting-started.md"));
    let screen = d.h.screen();
    let at = |name: &str| screen.find(name).unwrap_or(usize::MAX);
    assert!(
        at("getting-started.md") < at("rfd/"),
        "the best match is drawn first:\n{screen}"
    );
    d.h.keys("\n");
    d.h.keys("/provid\n");
    assert_eq!(d.selected().as_deref(), Some("README/providers.md"));
}
