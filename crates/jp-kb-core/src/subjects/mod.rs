//! Subjects: walking a topic directory, slugs, patterns and resolution
//! (contract §1, §3). Pure functions over the file system's names and
//! sizes; no file contents are read here.

pub mod cache;
pub mod disable;
pub mod listing;
mod patch;
pub mod pattern;
pub mod resolve;
mod sizes;
pub mod slug;
mod subject;
pub mod subtree;
pub mod walk;
#[cfg(test)]
mod walk_reference;
mod walk_result;
mod walker;
pub mod watched;

pub use cache::WalkCache;
pub use disable::DisableEffect;
#[cfg(feature = "config")]
pub(crate) use disable::disables;
pub use listing::Listing;
pub use pattern::{GlobHits, PatternList, is_glob};
pub use resolve::{Counts, DisabledStates, LearnedBy, LearnedStates, Resolution};
pub use walk::{Collision, Subject, WalkResult, WalkWarning, walk_subjects};
pub use watched::WatchedWalks;
