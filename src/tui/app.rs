//! The app state: everything the screen shows, as plain data, grouped by
//! who owns it — the loads ([`Loaded`]), the screen ([`Screen`]), the
//! mode, the three panes, the status line and each feature's own state
//! ([`Features`]). Only `update` changes it; views read it. It imports no
//! view: the geometry it needs (how many rows fit) comes from
//! [`super::layout`], as the views'.

use std::path::PathBuf;
use std::rc::Rc;

use ratatui_textarea::TextArea;

use super::dialog::Choice;
use super::features::Features;
use super::forms::Form;
use super::layout;
use super::loaded::Loaded;
use super::model::{LearnKey, Model, Need};
use super::pager::Pager;
use super::pane::{Focus, Tab};
use super::panes::{PreviewPane, SubjectsPane, TopicsPane};
use super::screen::Screen;
use super::status_log::StatusLog;
use super::theme::Theme;
use super::tree::{Row, RowKind};
use jp_kb_core::subjects::{Resolution, Subject, TopicState};

/// What the keyboard talks to.
#[derive(Debug, Clone)]
pub enum Mode {
    Normal,
    Help(Pager),
    /// Typing a search inside the `?` help, or the message log (true).
    HelpSearch(TextArea<'static>, Pager, bool),
    /// The message log: every status message, whole.
    Messages(Pager),
    Filter(TextArea<'static>),
    Pattern(super::tester::state::Tester),
    Choice(Choice),
    Form(Form),
    /// The layer picker (`f`).
    Picker(crate::tui::picker::state::Picker),
    /// Typing a search inside the focused preview (`/`).
    PreviewSearch(TextArea<'static>),
    /// The search mode (`S`); true while the hit list has the keys (else
    /// the query line). Its state is [`Features::search`].
    Search(bool),
    /// The prune view (`P`); its state is [`Features::prune`].
    Prune,
}

/// The whole app: nine parts, each owned by one side of it.
#[derive(Debug)]
pub struct App {
    /// What the loads brought and what was read since.
    pub loaded: Loaded,
    /// Size, colours, banner, the layout drawn; `--read-only`, quit.
    pub screen: Screen,
    pub mode: Mode,
    pub focus: Focus,
    pub topics: TopicsPane,
    pub subjects: SubjectsPane,
    pub preview: PreviewPane,
    /// The status line and the message log.
    pub status: StatusLog,
    /// Each feature's own state (findings, search, usage, costs, marks).
    pub features: Features,
}

impl App {
    pub fn new(theme: Theme, size: (u16, u16)) -> Self {
        Self {
            loaded: Loaded::default(),
            screen: Screen::new(theme, size),
            mode: Mode::Normal,
            focus: Focus::Topics,
            topics: TopicsPane::default(),
            subjects: SubjectsPane::default(),
            preview: PreviewPane::default(),
            status: StatusLog::default(),
            features: Features::default(),
        }
    }

    /// The last good load (`None` before the first one arrives).
    pub fn model(&self) -> Option<&Model> {
        self.loaded.model.as_ref()
    }

    /// The selected topic.
    pub fn topic_state(&self) -> Option<&TopicState> {
        self.loaded.topic(self.topics.selected)
    }

    pub fn resolution(&self) -> Option<&Resolution> {
        self.topic_state()?.resolution()
    }

    /// The subjects pane's rows for the selected topic.
    pub fn rows(&self) -> Rc<Vec<Row>> {
        let Some(state) = self.topic_state() else {
            return Rc::default();
        };
        let rows = self.subjects.rows(state, &self.features.usage);
        match state.resolution() {
            // The `A` filter (stale, low confidence), when on.
            Some(res) => {
                crate::tui::prune::filter::filtered(&self.features.prune, state.id(), res, rows)
            }
            None => rows,
        }
    }

    /// Puts the subjects pane's cursor on `row` of the rows shown, and
    /// remembers the subject there (see [`super::cursor`]).
    pub fn select_row(&mut self, row: usize) {
        let rows = self.rows();
        let state = self.loaded.topic(self.topics.selected);
        self.subjects.select(state, &rows, row);
    }

    /// Keeps the subjects pane's cursor on its subject whatever changed
    /// the rows (see [`super::cursor`]).
    pub fn follow_cursor(&mut self) {
        let rows = self.rows();
        let state = self.loaded.topic(self.topics.selected);
        self.subjects.follow(state, &rows);
    }

    pub fn selected_row(&self) -> Option<Row> {
        self.rows().get(self.subjects.row).cloned()
    }

    /// The selected subject's index in the resolution.
    pub fn selected_subject(&self) -> Option<usize> {
        match self.selected_row()?.kind {
            RowKind::Subject(i) => Some(i),
            RowKind::Dir(_) => None,
        }
    }

    pub fn subject(&self, i: usize) -> Option<&Subject> {
        self.resolution()?.subjects().get(i)
    }

    pub fn tester(&self) -> Option<&super::tester::state::Tester> {
        match &self.mode {
            Mode::Pattern(t) => Some(t),
            _ => None,
        }
    }

    /// The `learn` call the Learn tab shows: with the tester open on
    /// `learned`, what `learn` returns for its pattern; on `disabled`, the
    /// plain listing (`learn` never serves a disabled subject, so a call
    /// with the pattern would show what the pattern takes away).
    pub fn learn_key(&self) -> Option<LearnKey> {
        let topic = self.topic_state()?.id().to_owned();
        let pattern = self
            .tester()
            .filter(|t| !t.to_disabled)
            .map(super::tester::state::Tester::pattern)
            .filter(|p| !p.is_empty());
        Some(LearnKey { topic, pattern })
    }

    /// Where a new `learned`/`disabled` entry of `topic` goes: the file
    /// chosen with `f`, else the file setting the topic's `subjects` (or
    /// the `kb.toml` beside it), else the default file (contract §7).
    pub fn target_for(&self, topic: &TopicState) -> Option<PathBuf> {
        let model = self.loaded.model.as_ref()?;
        if let Some(t) = &self.preview.config.target {
            return Some(t.clone());
        }
        if topic.config.subjects.is_none() {
            return Some(model.default_file.clone());
        }
        Some(jp_kb_core::edit::for_lists(Some(&topic.config), model.kb.root()).path)
    }

    /// The file the status line names as the edit target.
    pub fn shown_target(&self) -> Option<PathBuf> {
        self.topic_state()
            .and_then(|t| self.target_for(t))
            .or_else(|| self.loaded.model.as_ref().map(|m| m.default_file.clone()))
    }

    /// What the current screen needs read that is not cached yet.
    pub fn needs(&self) -> Vec<Need> {
        let mut needs = Vec::new();
        let Some(resolution) = self.resolution() else {
            return needs;
        };
        // Token counts only for the rows on screen: a frame reads no other
        // subject file (the counts are kept while a file's size and
        // modification time stay the same).
        let missing: Vec<_> = self
            .visible_subjects()
            .into_iter()
            .map(|i| &resolution.subjects()[i])
            .filter(|s| self.loaded.cache.tokens_of(s).is_none())
            .map(|s| {
                (
                    s.path().to_path_buf(),
                    s.slug().to_owned(),
                    s.extension().map(str::to_owned),
                    super::model::stamp(s),
                )
            })
            .collect();
        if !missing.is_empty() {
            needs.push(Need::Tokens(missing));
        }
        match self.preview.tab {
            Tab::Subject => {
                if let Some(s) = self.selected_subject().and_then(|i| self.subject(i))
                    && !self.loaded.cache.subjects.contains_key(s.path())
                {
                    needs.push(Need::Subject {
                        path: s.path().to_path_buf(),
                        slug: s.slug().to_owned(),
                        extension: s.extension().map(str::to_owned),
                    });
                }
            }
            Tab::Learn => {
                if let Some(key) = self.learn_key()
                    && !self.loaded.cache.learn.contains_key(&key)
                {
                    needs.push(Need::Learn(key));
                }
            }
            Tab::Prompt => {
                // A search reads the whole section.
                let searching = self
                    .preview
                    .search
                    .as_ref()
                    .is_some_and(|s| s.tab == Tab::Prompt);
                let lines = if searching {
                    usize::MAX
                } else {
                    self.shown_lines()
                };
                let need = self
                    .model()
                    .and_then(|m| match &self.preview.prompt_client {
                        Some(client) => m.client_need(client),
                        None => m.prompt_need(lines),
                    });
                if let Some(need) = need {
                    needs.push(need);
                }
            }
            Tab::Tool | Tab::Config | Tab::Findings => {}
        }
        needs
    }

    /// The subjects whose rows are on screen (the pattern tester's list
    /// included).
    pub fn visible_subjects(&self) -> Vec<usize> {
        let areas = self.areas();
        let height = usize::from(areas.subjects.height.saturating_sub(2));
        if let (Some(t), Some(res)) = (self.tester(), self.resolution()) {
            let pattern = t.pattern();
            if pattern.is_empty() {
                return Vec::new();
            }
            let mut v = res.selected_by_pattern(&pattern);
            v.truncate(height);
            return v;
        }
        let rows = self.rows();
        let offset = layout::list_offset(self.subjects.row, height, rows.len());
        rows.iter()
            .skip(offset)
            .take(height)
            .filter_map(|r| match r.kind {
                RowKind::Subject(i) => Some(i),
                RowKind::Dir(_) => None,
            })
            .collect()
    }

    /// How many lines of a text the preview can show at its scroll
    /// (generously: a frame never needs more, and reads no further).
    pub fn shown_lines(&self) -> usize {
        self.preview
            .scroll
            .saturating_add(usize::from(self.screen.size.1).max(256))
    }

    /// The screen's areas at the current size.
    pub fn areas(&self) -> layout::Areas {
        layout::areas(
            ratatui::layout::Rect::new(0, 0, self.screen.size.0, self.screen.size.1),
            self.screen.banner.is_some() || self.loaded.error.is_some(),
            self.loaded.model.as_ref().map_or(0, |m| m.kb.topics.len()),
        )
    }

    pub fn set_status(&mut self, message: impl Into<String>, error: bool) {
        self.status.set(message, error);
    }

    /// True when edits are refused because the configuration does not
    /// parse (see [`Loaded::error`]).
    pub fn config_broken(&self) -> bool {
        self.loaded.error.is_some()
    }
}
