//! The search inside a preview (`/` with the preview focused, then `n`/`N`)
//! as state: the query, the tab it searches, which match is current, and
//! the matches found in the tab's text (kept while the text, the query
//! and the geometry stay the same, so `n`/`N` near the end of a 3 MB
//! prompt move through a list instead of searching and wrapping again).
//! The matches are found by [`super::matches`] in the text the tab draws;
//! [`super::keys`] handles the keys.

use std::path::PathBuf;

use crate::tui::pane::Tab;

/// The tabs `/` searches (the Tool and Findings tabs are not searched).
pub const SEARCHED: [Tab; 4] = [Tab::Subject, Tab::Prompt, Tab::Learn, Tab::Config];

/// One match: where it is in the tab's text and on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The line of the tab's text (as drawn, before wrapping).
    pub line: usize,
    /// Which match of its line it is (a frame draws the line with a
    /// narrower number gutter when fewer lines are in view, so the
    /// match is found again in the line as drawn).
    pub nth: usize,
    /// The screen row it is on, counted from the text's first row, long
    /// lines taking the rows they wrap to.
    pub row: usize,
}

/// Every match of a query in a tab's text, in order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Hits {
    pub hits: Vec<Hit>,
    /// The text was whole (a prompt still being read is not): a search
    /// with no match is said only then.
    pub complete: bool,
}

/// What a search's matches were found in: the query, the geometry and
/// the version of the searched tab's text (the load's and the cache's
/// generations and the selection it is the text of). Compared whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitsStamp {
    pub tab: Tab,
    pub query: String,
    pub width: usize,
    pub wrap: bool,
    /// The selected topic and row, and the Prompt tab's client.
    pub selection: (usize, usize, Option<String>),
    /// The Config tab's file (a finding's jump or the edit target).
    pub config_file: Option<(PathBuf, Option<u32>)>,
    /// The load's generation, whether its section is rendered and how
    /// many of its pieces are read, whether the client view is computed.
    pub load: Option<(u64, bool, usize, bool)>,
    /// The cache's generation (subject previews, `learn` outputs).
    pub cache: u64,
    /// The Config tab's text length (its file is re-read in place).
    pub config_len: Option<usize>,
}

/// The matches, kept under the stamp of what they were found in (see
/// `matches::HitsStamp`).
pub type HitsMemo = crate::tui::memo::Memo<HitsStamp, Hits>;

/// A confirmed search.
#[derive(Debug)]
pub struct Search {
    pub query: String,
    /// The tab searched: the search shows only there.
    pub tab: Tab,
    /// The current match's index (clamped when the text changes).
    pub current: usize,
    /// The preview has not been scrolled to a match yet: the text was
    /// still being read when the search was confirmed.
    pub pending: bool,
    pub memo: HitsMemo,
}

impl Search {
    pub fn new(query: String, tab: Tab) -> Self {
        Self {
            query,
            tab,
            current: 0,
            pending: true,
            memo: HitsMemo::default(),
        }
    }
}

/// Smart case, as vim's `smartcase` and less: a query with an upper-case
/// letter matches case-sensitively, else ASCII case is ignored. Returns
/// each match's byte range in `line`.
pub fn find_in(line: &str, query: &str) -> Vec<(usize, usize)> {
    if query.is_empty() {
        return Vec::new();
    }
    let sensitive = query.chars().any(char::is_uppercase);
    let found = |hay: &str, needle: &str| -> Vec<(usize, usize)> {
        hay.match_indices(needle)
            .map(|(at, m)| (at, at + m.len()))
            .collect()
    };
    if sensitive {
        found(line, query)
    } else {
        // ASCII lower-casing keeps every byte offset.
        found(&line.to_ascii_lowercase(), &query.to_ascii_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_case_and_byte_ranges() {
        assert_eq!(find_in("Tar tar TAR", "tar"), [(0, 3), (4, 7), (8, 11)]);
        assert_eq!(find_in("Tar tar TAR", "Tar"), [(0, 3)]);
        assert_eq!(find_in("日本 tar", "tar"), [(7, 10)]);
        assert!(find_in("abc", "").is_empty());
    }
}
