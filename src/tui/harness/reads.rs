//! What a test may read of the state, by name — what the screen shows —
//! and the few changes a test makes that no key makes (a flag given at
//! start, a state simulated mid-flight). Tests read these instead of
//! `App`'s fields, so that how the state is laid out can change without
//! them. Each reader answers one question and changes nothing.

use std::path::Path;
use std::rc::Rc;

use super::Harness;
use crate::tui::app::Mode;
use crate::tui::effect::{ChangedFile, Effect};
use crate::tui::event::Msg;
use crate::tui::layout::Areas;
use crate::tui::marks::Marks;
use crate::tui::model::{Cache, Model};
use crate::tui::pane::{Focus, Tab};
use crate::tui::search::state::SearchState;
use crate::tui::tester::state::Tester;
use crate::tui::tree::Row;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::check::{CheckReport, Finding};
use jp_kb_core::subjects::{Resolution, Subject, TopicState};

impl Harness {
    /// What the keyboard talks to: the panes (`Mode::Normal`), a dialog,
    /// a form, the pattern tester, the layer picker, a search…
    pub fn mode(&self) -> &Mode {
        &self.app.mode
    }

    /// The pane the keys go to.
    pub fn focused(&self) -> Focus {
        self.app.focus
    }

    /// The status line's message, whole (the screen may cut it).
    pub fn status_line(&self) -> &str {
        self.app.status.line()
    }

    /// The status line says an error.
    pub fn status_is_error(&self) -> bool {
        self.app.status.is_error()
    }

    /// Every status message, whole, oldest first (`M`).
    pub fn messages(&self) -> &[String] {
        self.app.status.messages()
    }

    /// `q` was pressed: the loop ends.
    pub fn quits(&self) -> bool {
        self.app.screen.quit
    }

    /// The screen's areas at the current size.
    pub fn areas(&self) -> Areas {
        self.app.areas()
    }

    /// The first line the `?` help or the message log shows (0 when
    /// neither is open).
    pub fn help_offset(&self) -> u16 {
        match &self.app.mode {
            Mode::Help(p) | Mode::Messages(p) | Mode::HelpSearch(_, p, _) => p.scroll,
            _ => 0,
        }
    }

    /// The last good load, with its rendered section (`None` before the
    /// first one arrives).
    pub fn model(&self) -> Option<&Model> {
        self.app.model()
    }

    /// The knowledge base of the last good load.
    pub fn kb(&self) -> Option<&KnowledgeBase> {
        self.model().map(|m| &*m.kb)
    }

    /// A load has arrived (the subjects can be shown).
    pub fn is_loaded(&self) -> bool {
        self.app.loaded.model.is_some()
    }

    /// The `<knowledge>` section as the Prompt tab holds it (`None`
    /// before a load, or while it is absent).
    pub fn section(&self) -> Option<String> {
        self.model()?.full_prompt()
    }

    /// Why the last load failed (the screen is read-only until fixed).
    pub fn load_error(&self) -> Option<&str> {
        self.app.loaded.error.as_deref()
    }

    /// The first load is still running in the background: the screen
    /// shows the configuration's topics only.
    pub fn is_loading(&self) -> bool {
        self.app.loaded.loading.is_some()
    }

    /// Before the first load: how many subjects the selected topic's
    /// listing shows (`None`: not listed yet, or loaded).
    pub fn listed_subjects(&self) -> Option<usize> {
        let listed = self.app.loaded.loading.as_ref()?.listed.as_ref()?;
        Some(listed.resolution().subjects().len())
    }

    /// Before the first load: the listing's slugs, in row order (`None`:
    /// not listed yet, or loaded).
    pub fn listed_slugs(&self) -> Option<Vec<String>> {
        let listed = self.app.loaded.loading.as_ref()?.listed.as_ref()?;
        let subjects = listed.resolution().subjects();
        Some(subjects.iter().map(|s| s.slug().to_owned()).collect())
    }

    /// Before the first load: how many keys are kept for it.
    pub fn kept_keys(&self) -> usize {
        self.app.loaded.loading.as_ref().map_or(0, |l| l.kept.len())
    }

    /// What the token and read workers have brought in so far.
    pub fn cache(&self) -> &Cache {
        &self.app.loaded.cache
    }

    /// The selected topic.
    pub fn topic_state(&self) -> Option<&TopicState> {
        self.app.topic_state()
    }

    /// The selected topic's subjects and their states.
    pub fn resolution(&self) -> Option<&Resolution> {
        self.app.resolution()
    }

    /// The subjects pane's rows.
    pub fn rows(&self) -> Rc<Vec<Row>> {
        self.app.rows()
    }

    /// The selected subject's index in the resolution (`None` on a
    /// directory's row).
    pub fn selected_subject(&self) -> Option<usize> {
        self.app.selected_subject()
    }

    /// Subject `i` of the selected topic.
    pub fn subject(&self, i: usize) -> Option<&Subject> {
        self.app.subject(i)
    }

    /// The subjects pane's filter (`/`), as typed.
    pub fn subject_filter(&self) -> &str {
        &self.app.subjects.filter
    }

    /// Hidden subjects are listed (`.`).
    pub fn shows_hidden(&self) -> bool {
        self.app.subjects.show_hidden
    }

    /// The pattern tester, when open.
    pub fn tester(&self) -> Option<&Tester> {
        self.app.tester()
    }

    /// The preview's tab.
    pub fn preview_tab(&self) -> Tab {
        self.app.preview.tab
    }

    /// The first line the preview shows.
    pub fn preview_scroll(&self) -> usize {
        self.app.preview.scroll
    }

    /// The client whose view the Prompt tab shows (`None`: the section
    /// itself).
    pub fn prompt_client(&self) -> Option<&str> {
        self.app.preview.prompt_client.as_deref()
    }

    /// A search inside the preview is open (`/` on the preview).
    pub fn preview_search_open(&self) -> bool {
        self.app.preview.search.is_some()
    }

    /// The preview's last scroll position, as the last frame drew it.
    pub fn preview_max_scroll(&self) -> Option<usize> {
        self.app.screen.drawn.preview_max_scroll
    }

    /// The preview soft-wraps long lines (`w`).
    pub fn wraps(&self) -> bool {
        self.app.preview.wrap
    }

    /// Where the Config tab jumps: a file and its 1-based line.
    pub fn config_jump(&self) -> Option<(&Path, u32)> {
        let jump = self.app.preview.config.jump.as_ref();
        jump.map(|(p, l)| (p.as_path(), *l))
    }

    /// The file the last edit (or undo) changed, which the Config tab
    /// highlights.
    pub fn config_last_change(&self) -> Option<&ChangedFile> {
        self.app.preview.config.last_change.as_ref()
    }

    /// Every finding of the last check, errors first (the Findings tab).
    pub fn findings(&self) -> &[Finding] {
        self.app.features.findings.all()
    }

    /// The findings the Findings tab lists, in its order.
    pub fn findings_shown(&self) -> Vec<&Finding> {
        crate::tui::findings::shown::shown(&self.app)
    }

    /// (errors, warnings) the last check found about topic `id`.
    pub fn finding_counts(&self, id: &str) -> (usize, usize) {
        self.app.features.findings.topic_counts(id)
    }

    /// The Findings tab lists only the selected topic's findings (`o`).
    pub fn findings_of_topic_only(&self) -> bool {
        self.app.features.findings.only_topic
    }

    /// The last check's report, when one has arrived.
    pub fn check_report(&self) -> Option<&CheckReport> {
        self.app.features.findings.report.as_ref()
    }

    /// A check is running for the last load (the tab says so).
    pub fn check_pending(&self) -> bool {
        self.app.features.findings.pending
    }

    /// The marked subjects, per topic.
    pub fn marks(&self) -> &Marks {
        &self.app.features.marks
    }

    /// The search mode's query and hits (`S`).
    pub fn search(&self) -> &SearchState {
        &self.app.features.search
    }

    /// The section's count after `steps` on the shown load, if counted.
    pub fn planned_count(&self, steps: &[jp_kb_core::edit::plan::Step]) -> Option<usize> {
        let generation = self.model()?.generation;
        self.app.features.costs.get(generation, steps)
    }

    // What tests set that no key sets.

    /// Starts as `--read-only` would have.
    pub fn set_read_only(&mut self) {
        self.app.screen.read_only = true;
    }

    /// Shows `banner` as the demo or `--read-only` would.
    pub fn set_banner(&mut self, banner: String) {
        self.app.screen.banner = Some(banner);
    }

    /// Empties the search mode's query line (kept between visits).
    pub fn clear_search_query(&mut self) {
        self.app.features.search.input = ratatui_textarea::TextArea::default();
    }

    /// Forgets every count of a planned section.
    pub fn forget_plan_counts(&mut self) {
        self.app.features.costs = crate::tui::cost_store::PlanCosts::default();
    }

    /// As if the shown load's section were still being counted (a reload
    /// in flight); its generation.
    pub fn uncount_prompt(&mut self) -> Option<u64> {
        let model = self.app.loaded.model.as_mut()?;
        model.prompt_ready = false;
        model.prompt_counted = false;
        Some(model.generation)
    }

    /// Scrolls the preview to `row` as no key would (straight to it).
    pub fn set_preview_scroll(&mut self, row: usize) {
        self.app.preview.scroll = row;
    }

    /// Selects row `row` of the subjects pane and reads what the screen
    /// then needs (as a move to it would have, without the key's cost).
    pub fn select_row(&mut self, row: usize) {
        self.app.subjects.row = row;
        self.driver.fulfill(&mut self.app);
    }

    /// `update` alone, without the driver: nothing is read, counted or
    /// written (what a worker would do stays undone); its effects.
    pub fn update(&mut self, msg: impl Into<Msg>) -> Vec<Effect> {
        crate::tui::update::update(&mut self.app, msg)
    }
}
