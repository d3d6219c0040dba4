//! The pre-load screen's listing: what the loader reports, and what the
//! state keeps of it to draw (see [`super`]).

use super::super::tree::Row;
use jp_kb_core::internal::subjects::{Listing, Resolution};

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
