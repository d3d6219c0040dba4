//! The `?` help and the message log (`M`) as overlays: the first line
//! shown and the last search (`/`, then `n`/`N`). Each opening starts a
//! new one, held by its mode (see [`super::nav`] for the keys).

/// An overlay's place and search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pager {
    /// The first line shown.
    pub scroll: u16,
    /// The last search, as typed (empty: none).
    pub query: String,
}
