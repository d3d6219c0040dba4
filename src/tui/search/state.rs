//! The search mode's state (plain data, kept between visits) and a
//! search's answer; what the keys do with them is [`crate::tui::search::keys`].

use ratatui_textarea::TextArea;

use jp_kb_core::search::Hit;

/// The search mode's state, kept between visits.
#[derive(Debug, Default)]
pub struct SearchState {
    pub input: TextArea<'static>,
    pub hits: Vec<Hit>,
    pub selected: usize,
    /// The generation of the newest query asked for.
    pub asked: u64,
    /// The generation of the hits shown.
    pub shown: u64,
    /// Why the query cannot be searched (shown instead of hits).
    pub error: Option<String>,
    /// The query asked last, and the one the hits shown answer: the
    /// selection stays on its subject when the same query is searched
    /// again (after a load), and goes to the best hit when it changed.
    pub(crate) asked_query: String,
    pub(crate) shown_query: String,
    /// The rankings of the hits shown (see [`Found::mode`]).
    pub mode: &'static str,
}

impl SearchState {
    pub fn query(&self) -> String {
        self.input.lines().join("")
    }

    /// True while the hits shown answer an older query.
    pub fn pending(&self) -> bool {
        self.asked != self.shown
    }

    pub fn hit(&self) -> Option<&Hit> {
        self.hits.get(self.selected)
    }
}

/// A search's answer, as the worker reports it.
#[derive(Debug)]
pub struct Found {
    pub generation: u64,
    /// Hits best first, or why the query failed.
    pub result: Result<Vec<Hit>, String>,
    /// Notes about the index (rebuilt, kept in memory…).
    pub notes: Vec<String>,
    /// The rankings that ran: `lexical`, or `hybrid` (words and meaning).
    pub mode: &'static str,
}
