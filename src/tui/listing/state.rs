//! The pre-load screen's listing: what the loader reports, and what the
//! state keeps of it to draw (see [`super`]).

use super::super::tree::Row;
use jp_kb_core::subjects::{Listing, Resolution};

/// A topic's listing, as the loader reports it ([`crate::tui::event::Event::Listed`]).
#[derive(Debug)]
pub struct Listed {
    /// The topic's index in the configuration (the pre-load screen's).
    pub topic: usize,
    pub listing: Listing,
}

/// What the pre-load screen shows of a listed topic: its subjects and
/// states, without any size, and the rows built from them once.
#[derive(Debug, Clone)]
pub struct ListedRows {
    pub topic: usize,
    pub listing: Listing,
    pub rows: Vec<Row>,
    /// Whether the rows show hidden and disabled subjects.
    pub show_hidden: bool,
}

impl ListedRows {
    /// The listing's subjects and states (no size is known).
    pub fn resolution(&self) -> &Resolution {
        self.listing.resolution()
    }
}

/// What the first frame shows while the first load (the topic walks)
/// runs on a worker: read from the configuration alone, then the selected
/// topic's listing.
#[derive(Debug, Clone)]
pub struct Loading {
    pub root: std::path::PathBuf,
    pub topics: Vec<LoadingTopic>,
    /// The selected topic's subjects without sizes, once listed.
    pub listed: Option<ListedRows>,
    /// Keys pressed meanwhile, in order: applied once the load arrives.
    pub kept: Vec<crate::tui::command::Command>,
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
