//! The app's state read by name: what the screen shows, for the tests
//! (and anything else driving the harness) to read instead of `App`'s
//! fields, so that how the state is laid out can change without them.
//! Each accessor answers one question; none changes anything.

use std::path::Path;

use super::app::{App, Mode};
use super::effect::ChangedFile;
use super::marks::Marks;
use super::model::{Cache, Model};
use super::pane::Tab;
use super::search::state::SearchState;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::check::{CheckReport, Finding};

impl App {
    /// What the keyboard talks to: the panes (`Mode::Normal`), a dialog,
    /// a form, the pattern tester, the layer picker, a search…
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The last good load, with its rendered section (`None` before the
    /// first one arrives).
    pub fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }

    /// The knowledge base of the last good load.
    pub fn kb(&self) -> Option<&KnowledgeBase> {
        self.model().map(|m| &*m.kb)
    }

    /// The `<knowledge>` section as the Prompt tab holds it (`None`
    /// before a load, or while it is absent).
    pub fn section(&self) -> Option<String> {
        self.model()?.full_prompt()
    }

    /// Why the last load failed (the screen is read-only until fixed).
    pub fn load_error(&self) -> Option<&str> {
        self.load_error.as_deref()
    }

    /// The first load is still running in the background: the screen
    /// shows the configuration's topics only.
    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    /// Before the first load: how many subjects the selected topic's
    /// listing shows (`None`: not listed yet, or loaded).
    pub fn listed_subjects(&self) -> Option<usize> {
        let listed = self.loading.as_ref()?.listed.as_ref()?;
        Some(listed.resolution().subjects().len())
    }

    /// Before the first load: the listing's slugs, in row order (`None`:
    /// not listed yet, or loaded).
    pub fn listed_slugs(&self) -> Option<Vec<String>> {
        let listed = self.loading.as_ref()?.listed.as_ref()?;
        let subjects = listed.resolution().subjects();
        Some(subjects.iter().map(|s| s.slug().to_owned()).collect())
    }

    /// Before the first load: how many keys are kept for it.
    pub fn kept_keys(&self) -> usize {
        self.loading.as_ref().map_or(0, |l| l.kept.len())
    }

    /// The preview's tab.
    pub fn preview_tab(&self) -> Tab {
        self.preview.tab
    }

    /// The first line the preview shows.
    pub fn preview_scroll(&self) -> usize {
        self.preview.scroll
    }

    /// The client whose view the Prompt tab shows (`None`: the section
    /// itself).
    pub fn prompt_client(&self) -> Option<&str> {
        self.preview.prompt_client.as_deref()
    }

    /// A search inside the preview is open (`/` on the preview).
    pub fn preview_search_open(&self) -> bool {
        self.preview.search.is_some()
    }

    /// The preview's last scroll position, as the last frame drew it.
    pub fn preview_max_scroll(&self) -> Option<usize> {
        self.drawn.preview_max_scroll
    }

    /// The preview soft-wraps long lines (`w`).
    pub fn wraps(&self) -> bool {
        self.wrap
    }

    /// The subjects pane's filter (`/`), as typed.
    pub fn subject_filter(&self) -> &str {
        &self.subjects.filter
    }

    /// Hidden subjects are listed (`.`).
    pub fn shows_hidden(&self) -> bool {
        self.subjects.show_hidden
    }

    /// Every finding of the last check, errors first (the Findings tab).
    pub fn findings(&self) -> &[Finding] {
        self.findings.all()
    }

    /// (errors, warnings) the last check found about topic `id`.
    pub fn finding_counts(&self, id: &str) -> (usize, usize) {
        self.findings.topic_counts(id)
    }

    /// The Findings tab lists only the selected topic's findings (`o`).
    pub fn findings_of_topic_only(&self) -> bool {
        self.findings.only_topic
    }

    /// The last check's report, when one has arrived.
    pub fn check_report(&self) -> Option<&CheckReport> {
        self.findings.report.as_ref()
    }

    /// A check is running for the last load (the tab says so).
    pub fn check_pending(&self) -> bool {
        self.findings.pending
    }

    /// Where the Config tab jumps: a file and its 1-based line.
    pub fn config_jump(&self) -> Option<(&Path, u32)> {
        self.config.jump.as_ref().map(|(p, l)| (p.as_path(), *l))
    }

    /// The file the last edit (or undo) changed, which the Config tab
    /// highlights.
    pub fn config_last_change(&self) -> Option<&ChangedFile> {
        self.config.last_change.as_ref()
    }

    /// The marked subjects, per topic.
    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    /// The search mode's query and hits (`S`).
    pub fn search(&self) -> &SearchState {
        &self.search
    }

    /// What the token and read workers have brought in so far.
    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    /// Every status message, whole, oldest first (`M`).
    pub fn messages(&self) -> &[String] {
        &self.messages
    }

    /// The status line as it was set (its words, and whether an error).
    pub fn status(&self) -> (&str, bool) {
        (&self.status.message, self.status.error)
    }

    /// `q` was pressed: the loop ends.
    pub fn quits(&self) -> bool {
        self.quit
    }
}
