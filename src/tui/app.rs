//! The app state: everything the screen shows, as plain data. Only
//! `update` changes it; views read it. It imports no view: the geometry it
//! needs (how many rows fit) comes from [`super::layout`], as the views'.

use std::path::PathBuf;
use std::rc::Rc;

use ratatui_textarea::TextArea;

use super::layout::{self, Drawn};
use super::model::{Cache, LearnKey, Model, Need};
use super::pane::{Focus, Tab};
use super::panes::{ConfigTab, PreviewPane, SubjectsPane, TopicsPane};
use super::theme::Theme;
use super::tree::{Row, RowKind};
use crate::tui::findings::state::Findings;
use jp_kb_core::internal::subjects::{Resolution, Subject};
use jp_kb_core::internal::topic::TopicState;

/// The status line's last message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    pub message: String,
    pub error: bool,
}

/// Edits to carry out together as one choice: one or more files, with
/// what the change does (the planner's answer).
pub type Plan = jp_kb_core::internal::edit::plan::Plan;

/// A dialog offering numbered choices.
#[derive(Debug, Clone)]
pub struct Choice {
    pub title: String,
    pub lines: Vec<String>,
    pub options: Vec<(String, Plan)>,
    /// The confirmation of its one plan: choosing it carries the plan
    /// out, and its lines are the plan's reasons (asked again when the
    /// count arrives).
    pub confirming: bool,
    /// A confirmation asked only because the section was still being
    /// counted: once it is, the change is made (it was asked for) unless
    /// the count gives a reason to ask; Esc cancels meanwhile.
    pub waiting: bool,
}

/// Which form is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormKind {
    EditTopic { topic: String },
    NewTopic,
}

/// One text field of a form.
#[derive(Debug, Clone)]
pub struct FormField {
    pub label: &'static str,
    pub input: TextArea<'static>,
    pub multiline: bool,
}

impl FormField {
    pub fn new(label: &'static str, value: &str, multiline: bool) -> Self {
        let lines = if value.is_empty() {
            vec![String::new()]
        } else {
            value.lines().map(str::to_owned).collect()
        };
        let mut input = TextArea::new(lines);
        input.move_cursor(ratatui_textarea::CursorMove::Bottom);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        Self {
            label,
            input,
            multiline,
        }
    }

    pub fn value(&self) -> String {
        self.input.lines().join("\n")
    }
}

/// A form dialog with validation.
#[derive(Debug, Clone)]
pub struct Form {
    pub kind: FormKind,
    pub fields: Vec<FormField>,
    pub focus: usize,
    pub error: Option<String>,
}

/// What the keyboard talks to.
#[derive(Debug, Clone)]
pub enum Mode {
    Normal,
    Help,
    /// Typing a search inside the `?` help, or the message log (true).
    HelpSearch(TextArea<'static>, bool),
    /// The message log: every status message, whole.
    Messages,
    Filter(TextArea<'static>),
    Pattern(super::tester::state::Tester),
    Choice(Choice),
    Form(Form),
    /// The layer picker (`f`).
    Picker(crate::tui::picker::state::Picker),
    /// Typing a search inside the focused preview (`/`).
    PreviewSearch(TextArea<'static>),
    /// The search mode (`S`); true while the hit list has the keys (else
    /// the query line). Its state is [`App::search`].
    Search(bool),
    /// The prune view (`P`); its state is [`App::prune`].
    Prune,
}

/// What the first frame shows while the first load (the topic walks)
/// runs on a worker: read from the configuration alone, then the selected
/// topic's listing (see [`super::listing`]).
#[derive(Debug, Clone)]
pub struct Loading {
    pub root: PathBuf,
    pub topics: Vec<LoadingTopic>,
    /// The selected topic's subjects without sizes, once listed.
    pub listed: Option<super::listing::state::ListedRows>,
    /// Keys pressed meanwhile, in order: applied once the load arrives.
    pub kept: Vec<super::command::Command>,
}

/// One topic of [`Loading`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadingTopic {
    pub id: String,
    pub title: Option<String>,
    pub enabled: bool,
    /// The subjects directory as shown (relative to the root when
    /// inside), or the error naming it.
    pub dir: Result<String, String>,
}

impl Loading {
    /// The topics of `kb` without walking or resolving anything.
    pub fn of(kb: &jp_kb_core::KnowledgeBase) -> Self {
        let topics = kb
            .topics
            .iter()
            .map(|t| LoadingTopic {
                id: t.id().to_owned(),
                title: t.config.title().map(str::to_owned),
                enabled: t.enabled(),
                dir: t
                    .dir
                    .as_ref()
                    .map(|d| kb.display_path(d).display().to_string())
                    .map_err(ToString::to_string),
            })
            .collect();
        Self {
            root: kb.root().to_path_buf(),
            topics,
            listed: None,
            kept: Vec::new(),
        }
    }
}

/// How many status messages the message log keeps.
pub const MESSAGE_LOG: usize = 200;

/// The whole app.
// Its flags are independent settings (quit, hidden shown, read-only,
// wrap), not the states of one machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug)]
pub struct App {
    /// The last good load (None before the first success).
    pub model: Option<Model>,
    /// Set while the first load runs in the background (the terminal):
    /// the screen shows the configuration's topics, then the selected
    /// topic's listing; keys are kept until the load arrives.
    pub loading: Option<Loading>,
    /// Why the last load failed: the screen is read-only until fixed.
    pub load_error: Option<String>,
    /// A note shown at the top (the demo says it is a demo).
    pub banner: Option<String>,
    pub theme: Theme,
    pub size: (u16, u16),
    pub focus: Focus,
    pub mode: Mode,
    pub topics: TopicsPane,
    pub subjects: SubjectsPane,
    pub preview: PreviewPane,
    pub config: ConfigTab,
    /// What `jp-kb check` found at the last load (the Findings tab).
    pub findings: Findings,
    pub help_scroll: u16,
    /// The last search inside the help or the message log (`/`, `n`/`N`).
    pub help_query: String,
    /// Each topic's own filter while another is shown.
    pub filters: super::matcher::PerTopic,
    /// Marked subjects, per topic (`Space`, `v`, `Ctrl-a`).
    pub marks: super::marks::Marks,
    /// `--read-only`: browsing only, every edit refused.
    pub read_only_flag: bool,
    /// The preview soft-wraps long lines (`w` toggles).
    pub wrap: bool,
    /// Every status message, whole, oldest first (a status line cuts a
    /// long one; `M` shows them).
    pub messages: Vec<String>,
    pub status: Status,
    pub cache: Cache,
    pub quit: bool,
    /// When the load shown started (see `LoadOutcome::started`).
    pub shown_load: u64,
    /// The layout the last frame was drawn with (mouse events map
    /// through it).
    pub drawn: Drawn,
    /// The search mode's query and hits, kept between visits.
    pub search: crate::tui::search::state::SearchState,
    /// Exact counts of the plans on screen (issue 26 item 1).
    pub costs: super::cost_store::PlanCosts,
    /// What the usage ledger says (read by the usage worker), and the
    /// subjects pane's usage order.
    pub usage: super::usage::UsageState,
    /// Subjects' ages (marks, the `A` filter) and the prune view (`P`).
    pub prune: crate::tui::prune::state::PruneState,
}

impl App {
    pub fn new(theme: Theme, size: (u16, u16)) -> Self {
        Self {
            model: None,
            loading: None,
            load_error: None,
            banner: None,
            theme,
            size,
            focus: Focus::Topics,
            mode: Mode::Normal,
            topics: TopicsPane::default(),
            subjects: SubjectsPane::default(),
            preview: PreviewPane::default(),
            config: ConfigTab::default(),
            findings: Findings::default(),
            help_scroll: 0,
            help_query: String::new(),
            filters: super::matcher::PerTopic::default(),
            marks: super::marks::Marks::default(),
            read_only_flag: false,
            wrap: true,
            messages: Vec::new(),
            status: Status::default(),
            cache: Cache::default(),
            quit: false,
            shown_load: 0,
            drawn: Drawn::default(),
            search: crate::tui::search::state::SearchState::default(),
            costs: super::cost_store::PlanCosts::default(),
            usage: super::usage::UsageState::default(),
            prune: crate::tui::prune::state::PruneState::default(),
        }
    }

    pub fn topic_state(&self) -> Option<&TopicState> {
        self.model.as_ref()?.kb.topics.get(self.topics.selected)
    }

    pub fn resolution(&self) -> Option<&Resolution> {
        self.topic_state()?.resolution()
    }

    /// The subjects pane's rows for the selected topic.
    pub fn rows(&self) -> Rc<Vec<Row>> {
        let Some(state) = self.topic_state() else {
            return Rc::default();
        };
        let rows = self.subjects.rows(state, &self.usage);
        match state.resolution() {
            // The `A` filter (stale, low confidence), when on.
            Some(res) => crate::tui::prune::filter::filtered(&self.prune, state.id(), res, rows),
            None => rows,
        }
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
        let model = self.model.as_ref()?;
        if let Some(t) = &self.config.target {
            return Some(t.clone());
        }
        if topic.config.subjects.is_none() {
            return Some(model.default_file.clone());
        }
        Some(
            jp_kb_core::internal::edit::target::for_lists(Some(&topic.config), model.kb.root())
                .path,
        )
    }

    /// The file the status line names as the edit target.
    pub fn shown_target(&self) -> Option<PathBuf> {
        self.topic_state()
            .and_then(|t| self.target_for(t))
            .or_else(|| self.model.as_ref().map(|m| m.default_file.clone()))
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
            .filter(|s| self.cache.tokens_of(s).is_none())
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
                    && !self.cache.subjects.contains_key(s.path())
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
                    && !self.cache.learn.contains_key(&key)
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
                    .model
                    .as_ref()
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
            .saturating_add(usize::from(self.size.1).max(256))
    }

    /// The screen's areas at the current size.
    pub fn areas(&self) -> layout::Areas {
        layout::areas(
            ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1),
            self.banner.is_some() || self.load_error.is_some(),
            self.model.as_ref().map_or(0, |m| m.kb.topics.len()),
        )
    }

    /// The status line's message, whole (the screen may cut it).
    pub fn status_line(&self) -> &str {
        &self.status.message
    }

    /// The status line says an error.
    pub fn status_is_error(&self) -> bool {
        self.status.error
    }

    /// The pane the keys go to.
    pub fn focused(&self) -> Focus {
        self.focus
    }

    /// The first line the `?` help or the message log shows.
    pub fn help_offset(&self) -> u16 {
        self.help_scroll
    }

    /// A load has arrived (the subjects can be shown).
    pub fn is_loaded(&self) -> bool {
        self.model.is_some()
    }

    pub fn set_status(&mut self, message: impl Into<String>, error: bool) {
        let message = message.into();
        if !message.is_empty() && self.messages.last() != Some(&message) {
            // Bounded: a long session keeps its recent messages.
            if self.messages.len() >= MESSAGE_LOG {
                self.messages.remove(0);
            }
            self.messages.push(message.clone());
        }
        self.status = Status { message, error };
    }

    /// True when edits are refused (the config does not parse).
    pub fn read_only(&self) -> bool {
        self.load_error.is_some()
    }
}
