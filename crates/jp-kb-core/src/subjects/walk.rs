//! Walking a topic directory into subjects (contract §3).
//!
//! Reads no file contents: a walk costs a directory traversal and one
//! `stat` per file, like `find -printf '%s'`. The traversal itself (in
//! parallel, results in the order of a sequential walk) is in
//! [`walker`](super::walker); what a walk yields, in
//! [`walk_result`](super::walk_result).

use std::path::{Path, PathBuf};

pub use super::patch::patch_walk;
pub use super::subject::Subject;
pub use super::walk_result::{Collision, WalkResult, WalkWarning, settle_collisions};

/// Walks `dir` recursively. Symlinks are followed only when they resolve
/// inside `root` (the canonical workspace root); loops are reported.
///
/// Directory entries are typed from `readdir` and only regular files are
/// `stat`ed (once), so the walk costs what `find -printf '%s'` costs;
/// directories are listed on all cores (see [`walker`](super::walker)),
/// with the same result, warnings in the same order, as one thread.
pub fn walk_subjects(dir: &Path, root: &Path) -> WalkResult {
    super::walker::walk(dir, root, false, 0).walk
}

/// [`walk_subjects`] on the calling thread only: the same result, at the
/// cost of one core (the baseline the benchmarks compare with).
pub fn walk_subjects_in_one_thread(dir: &Path, root: &Path) -> WalkResult {
    super::walker::walk(dir, root, false, 1).walk
}

/// [`walk_subjects`], plus every directory the walk listed (the topic
/// directory first, symlinked ones by their path through the link): what a
/// cache must check to know the walk still holds (see
/// [`WalkCache`](super::cache::WalkCache)).
pub fn walk_subjects_and_dirs(dir: &Path, root: &Path) -> (WalkResult, Vec<PathBuf>) {
    let walked = super::walker::walk(dir, root, true, 0);
    (walked.walk, walked.dirs)
}

/// [`walk_subjects`], plus every symbolic link the walk followed (by its
/// path): what tells whether the walk of a directory under `dir` can be
/// taken from this one (see [`subtree_walk`](super::subtree::subtree_walk)).
pub fn walk_subjects_and_links(dir: &Path, root: &Path) -> (WalkResult, Vec<PathBuf>) {
    let walked = super::walker::walk(dir, root, false, 0);
    (walked.walk, walked.links)
}
