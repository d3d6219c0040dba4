//! The app state: everything the screen shows, as plain data. Only
//! `update` changes it; views read it.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use ratatui_textarea::TextArea;

use super::action::{ChangedFile, Tab};
use super::findings::Findings;
use super::model::{Cache, LearnKey, Model, Need};
use super::theme::Theme;
use super::tree::{self, Row, RowKind, RowsKey, RowsMemo};
use crate::subjects::{Resolution, Subject};
use crate::topic::TopicState;

/// The pane with the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Topics,
    Subjects,
    Preview,
}

/// The status line's last message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    pub message: String,
    pub error: bool,
}

/// Edits to carry out together as one choice: one or more files, with
/// what the change does (the planner's answer).
pub type Plan = crate::edit::plan::Plan;

/// A dialog offering numbered choices.
#[derive(Debug, Clone)]
pub struct Choice {
    pub title: String,
    pub lines: Vec<String>,
    pub options: Vec<(String, Plan)>,
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

/// The pattern tester: a glob, and where Enter adds it.
#[derive(Debug, Clone)]
pub struct Tester {
    pub input: TextArea<'static>,
    pub to_disabled: bool,
    /// What Enter would change (the planner's cost lines), computed when
    /// the pattern or the mode changes, not per frame.
    pub cost: Vec<String>,
}

impl Tester {
    pub fn pattern(&self) -> String {
        self.input.lines().join("")
    }
}

/// What the keyboard talks to.
#[derive(Debug, Clone)]
pub enum Mode {
    Normal,
    Help,
    Filter(TextArea<'static>),
    Pattern(Tester),
    Choice(Choice),
    Form(Form),
    /// The layer picker (`f`).
    Picker(super::picker::Picker),
}

/// What the first frame shows while the first load (the topic walks)
/// runs on a worker: read from the configuration alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loading {
    pub root: PathBuf,
    pub topics: Vec<LoadingTopic>,
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
    pub fn of(kb: &crate::KnowledgeBase) -> Self {
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
        }
    }
}

/// The whole app.
#[derive(Debug)]
pub struct App {
    /// The last good load (None before the first success).
    pub model: Option<Model>,
    /// Set while the first load runs in the background (the terminal):
    /// the screen shows the configuration's topics, keys that need
    /// subjects are ignored until the load arrives.
    pub loading: Option<Loading>,
    /// Why the last load failed: the screen is read-only until fixed.
    pub load_error: Option<String>,
    /// A note shown at the top (the demo says it is a demo).
    pub banner: Option<String>,
    pub theme: Theme,
    pub size: (u16, u16),
    pub focus: Focus,
    pub mode: Mode,
    pub topic: usize,
    pub row: usize,
    /// Collapsed directories: (topic id, relative dir).
    pub collapsed: BTreeSet<(String, String)>,
    pub show_hidden: bool,
    pub filter: String,
    pub tab: Tab,
    /// The Prompt tab's view: a client id, or None for the RFD's
    /// `<knowledge>` section.
    pub prompt_client: Option<String>,
    pub scroll: u16,
    pub help_scroll: u16,
    /// The file chosen with `f` for new entries (None: contract default).
    pub target: Option<PathBuf>,
    pub status: Status,
    pub cache: Cache,
    /// What `jp-kb check` found at the last load.
    pub findings: Findings,
    pub last_change: Option<ChangedFile>,
    /// A topic to select after the next load (a topic just created).
    pub pending_topic: Option<String>,
    pub quit: bool,
    /// The subjects pane's rows, kept while what they depend on holds.
    pub rows_memo: RowsMemo,
    /// When the load shown started (see `LoadOutcome::started`).
    pub shown_load: u64,
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
            topic: 0,
            row: 0,
            collapsed: BTreeSet::new(),
            show_hidden: true,
            filter: String::new(),
            tab: Tab::Subject,
            prompt_client: None,
            scroll: 0,
            help_scroll: 0,
            target: None,
            status: Status::default(),
            cache: Cache::default(),
            findings: Findings::default(),
            last_change: None,
            pending_topic: None,
            quit: false,
            rows_memo: RowsMemo::default(),
            shown_load: 0,
        }
    }

    pub fn topic_state(&self) -> Option<&TopicState> {
        self.model.as_ref()?.kb.topics.get(self.topic)
    }

    pub fn resolution(&self) -> Option<&Resolution> {
        self.topic_state()?.resolution()
    }

    /// The subjects pane's rows for the selected topic (built once per
    /// change of the walk, the filter, the collapsed directories, or, when
    /// hidden and disabled subjects are left out, of the states).
    pub fn rows(&self) -> Rc<Vec<Row>> {
        let (Some(state), Some(resolution)) = (
            self.topic_state(),
            self.topic_state().and_then(|t| t.shared_resolution()),
        ) else {
            return Rc::default();
        };
        let collapsed: BTreeSet<String> = self
            .collapsed
            .iter()
            .filter(|(t, _)| t == state.id())
            .map(|(_, d)| d.clone())
            .collect();
        let key = RowsKey {
            walk: Arc::clone(&resolution.walk),
            states: (!self.show_hidden).then(|| Arc::clone(&resolution.disabled_by)),
            show_hidden: self.show_hidden,
            filter: self.filter.clone(),
            collapsed,
        };
        self.rows_memo.get(key.clone(), || {
            tree::rows(resolution, &key.collapsed, self.show_hidden, &self.filter)
        })
    }

    pub fn selected_row(&self) -> Option<Row> {
        self.rows().get(self.row).cloned()
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

    pub fn tester(&self) -> Option<&Tester> {
        match &self.mode {
            Mode::Pattern(t) => Some(t),
            _ => None,
        }
    }

    /// The `learn` call the Learn tab shows.
    pub fn learn_key(&self) -> Option<LearnKey> {
        let topic = self.topic_state()?.id().to_owned();
        let pattern = self.tester().map(Tester::pattern).filter(|p| !p.is_empty());
        Some(LearnKey { topic, pattern })
    }

    /// Where a new `learned`/`disabled` entry of `topic` goes: the file
    /// chosen with `f`, else the file setting the topic's `subjects` (or
    /// the `kb.toml` beside it), else the default file (contract §7).
    pub fn target_for(&self, topic: &TopicState) -> Option<PathBuf> {
        let model = self.model.as_ref()?;
        if let Some(t) = &self.target {
            return Some(t.clone());
        }
        if topic.config.subjects.is_none() {
            return Some(model.default_file.clone());
        }
        Some(crate::edit::target::for_lists(Some(&topic.config), model.kb.root()).path)
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
        match self.tab {
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
                let lines = super::view::preview::shown_lines(self);
                let need = self.model.as_ref().and_then(|m| match &self.prompt_client {
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
        let topics = self.model.as_ref().map_or(0, |m| m.kb.topics.len());
        let areas = super::view::areas(
            ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1),
            self.banner.is_some() || self.load_error.is_some(),
            topics,
        );
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
        let offset = super::view::list_offset(self.row, height, rows.len());
        rows.iter()
            .skip(offset)
            .take(height)
            .filter_map(|r| match r.kind {
                RowKind::Subject(i) => Some(i),
                RowKind::Dir(_) => None,
            })
            .collect()
    }

    pub fn set_status(&mut self, message: impl Into<String>, error: bool) {
        self.status = Status {
            message: message.into(),
            error,
        };
    }

    /// True when edits are refused (the config does not parse).
    pub fn read_only(&self) -> bool {
        self.load_error.is_some()
    }
}
