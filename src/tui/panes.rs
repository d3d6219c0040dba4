//! Each pane's own state (ratatui's demo2 gives each tab its own): what
//! the topics list, the subjects list, the preview and the Config tab
//! remember between frames. The app holds one of each beside the loads;
//! a helper that needs one pane takes that pane.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use super::client_rows::LineRowsMemo;
use super::effect::ChangedFile;
use super::model::LearnKey;
use super::pane::Tab;
use super::tree::{self, Row, RowsKey, RowsMemo};
use crate::tui::preview_search::state::Search;
use crate::tui::text_layout::char_rows::RowIndexMemo;
use jp_kb_core::subjects::TopicState;

/// The topics list.
#[derive(Debug, Default)]
pub struct TopicsPane {
    /// The selected topic's index.
    pub selected: usize,
    /// A topic to select after the next load (a topic just created).
    pub pending: Option<String>,
}

/// The subjects list.
#[derive(Debug)]
pub struct SubjectsPane {
    /// The selected row.
    pub row: usize,
    /// Collapsed directories: (topic id, relative dir).
    pub collapsed: BTreeSet<(String, String)>,
    pub show_hidden: bool,
    pub filter: String,
    /// The rows, kept while what they depend on holds.
    pub rows_memo: RowsMemo,
    /// What `row` shows, by name: the row follows it when the rows
    /// change (see [`super::cursor`]).
    pub chosen: super::cursor::Chosen,
    /// Each topic's own filter while another is shown.
    pub filters: super::matcher::PerTopic,
}

impl Default for SubjectsPane {
    fn default() -> Self {
        Self {
            row: 0,
            collapsed: BTreeSet::new(),
            show_hidden: true,
            filter: String::new(),
            rows_memo: RowsMemo::default(),
            chosen: super::cursor::Chosen::default(),
            filters: super::matcher::PerTopic::default(),
        }
    }
}

impl SubjectsPane {
    /// The rows of `state`'s subjects (built once per change of the walk,
    /// the filter, the collapsed directories, or, when hidden and disabled
    /// subjects are left out, of the states).
    pub fn rows(&self, state: &TopicState, usage: &super::usage::UsageState) -> Rc<Vec<Row>> {
        self.rows_from(state, usage, None)
    }

    /// Puts the cursor on `row` of `rows`, the rows shown now (of topic `state`),
    /// and remembers what it shows there (see [`super::cursor`]).
    pub fn select(&mut self, state: Option<&TopicState>, rows: &Rc<Vec<Row>>, row: usize) {
        self.row = row;
        if let Some(state) = state {
            self.chosen.select(row, state, rows);
        }
    }

    /// Keeps the cursor on the subject chosen whatever changed `rows`, the
    /// rows of topic `state` shown now (see [`super::cursor`]).
    pub fn follow(&mut self, state: Option<&TopicState>, rows: &Rc<Vec<Row>>) {
        let Some(state) = state.filter(|s| s.resolution().is_some()) else {
            return;
        };
        self.row = self.chosen.follow(self.row, state, rows);
    }

    /// [`SubjectsPane::rows`], taking `built` instead of building them
    /// when the rows depend on nothing but the subjects' names and order
    /// (no filter, nothing collapsed, no usage order, hidden and disabled
    /// subjects shown): rows built already for the same names in the same
    /// order (the listing's: `listing::keys::reuse_rows`).
    pub fn rows_from(
        &self,
        state: &TopicState,
        usage: &super::usage::UsageState,
        built: Option<Vec<Row>>,
    ) -> Rc<Vec<Row>> {
        let Some(resolution) = state.shared_resolution() else {
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
            // Ordered by usage, the rows depend on each read of the ledger.
            usage: (usage.is_loaded() && usage.order != super::usage::Order::All)
                .then_some((usage.order, usage.generation)),
        };
        let plain = key.show_hidden
            && key.filter.is_empty()
            && key.collapsed.is_empty()
            && key.usage.is_none();
        self.rows_memo.get(key.clone(), || {
            if let Some(rows) = built.filter(|_| plain) {
                return rows;
            }
            let loads = key
                .usage
                .map(|(order, _)| (order, usage.loads_by_index(state.id(), resolution)));
            let by_usage = loads.as_ref().map(|(order, l)| (*order, l.as_slice()));
            tree::rows(
                resolution,
                &key.collapsed,
                self.show_hidden,
                &self.filter,
                by_usage,
            )
        })
    }
}

/// The version of a byte-exact tab's text, from the generation counters
/// of what it comes from: a load (the section, read piece by piece, and
/// the tool definition) or the cache (a `learn` output).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextStamp {
    /// No text (a note in the head says why).
    Empty,
    /// The section of load `generation`, its first `pieces` pieces.
    Prompt { generation: u64, pieces: usize },
    /// A `learn` output, as cached at cache generation `cache`.
    Learn { cache: u64, key: LearnKey },
    /// The tool definition of load `generation`.
    Tool { generation: u64 },
}

/// The preview: its tab and scroll, and the Prompt tab's view.
#[derive(Debug)]
pub struct PreviewPane {
    pub tab: Tab,
    /// The first row shown (a byte-exact tab draws at most its last
    /// page: see `Drawn::preview_max_scroll`).
    pub scroll: usize,
    /// The Prompt tab's view: a client id, or None for the RFD's
    /// `<knowledge>` section.
    pub prompt_client: Option<String>,
    /// The last search inside the preview (`/` with the preview focused);
    /// it shows on its own tab only.
    pub search: Option<Search>,
    /// Where the rows of the byte-exact tab shown come from (kept across
    /// frames: `text_rows`).
    pub text_rows: RowIndexMemo<TextStamp>,
    /// Where the rows of the client view shown come from (kept across
    /// frames: `client_rows`).
    pub client_rows: LineRowsMemo,
    /// Long lines soft-wrap (`w` toggles).
    pub wrap: bool,
    /// The Config tab's own state.
    pub config: ConfigTab,
}

impl Default for PreviewPane {
    fn default() -> Self {
        Self {
            tab: Tab::Subject,
            scroll: 0,
            prompt_client: None,
            search: None,
            text_rows: RowIndexMemo::default(),
            client_rows: LineRowsMemo::default(),
            wrap: true,
            config: ConfigTab::default(),
        }
    }
}

/// The Config tab: where new entries go, and the last change to show.
#[derive(Debug, Default)]
pub struct ConfigTab {
    /// The file chosen with `f` for new entries (None: contract default).
    pub target: Option<PathBuf>,
    /// The file the last edit (or undo) changed, highlighted.
    pub last_change: Option<ChangedFile>,
    /// A finding's place (`Enter` on the Findings tab): the tab shows
    /// this file with this 1-based line marked, until a tab key.
    pub jump: Option<(PathBuf, u32)>,
}
