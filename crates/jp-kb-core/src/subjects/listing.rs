//! A topic's subjects from the listings of its directories alone, with
//! no `stat` of a file: what a front end can show before the walk that
//! reads sizes and times (the TUI's first frame on the 38k files of the
//! tldr tree, `docs/perf.md`). It is the same traversal as
//! [`walk_subjects`](super::walk_subjects), run without the `stat`s, so
//! the two cannot disagree on what a subject is (hidden names,
//! extensions, symbolic links followed inside the workspace only,
//! collisions); they disagree only when the tree changed in between.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::resolve::Resolution;
use super::walk::WalkResult;
use super::walker::{Sizes, walk_sized};

/// A topic's subjects and their states (hidden, learned, disabled), from
/// a walk that read no file's size or time.
///
/// Nothing that depends on a size may be computed from it: no token
/// count, cost, budget or total. It is a preview of the walk, which
/// replaces it when it arrives (the walk wins where they differ).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Listing {
    resolution: Resolution,
}

impl Listing {
    /// Lists `dir` (see [`list_subjects`]) and resolves the `learned`
    /// and `disabled` lists over it, as [`Resolution::new`] does over a
    /// walk.
    pub fn new(dir: &Path, root: &Path, learned: Vec<String>, disabled: Vec<String>) -> Self {
        Self::of_walk(Arc::new(list_subjects(dir, root)), learned, disabled)
    }

    /// The listing whose subjects `listed` holds (see [`list_subjects`]).
    pub(crate) fn of_walk(
        listed: Arc<WalkResult>,
        learned: Vec<String>,
        disabled: Vec<String>,
    ) -> Self {
        Self {
            resolution: Resolution::new(listed, learned, disabled),
        }
    }

    /// The subjects and their states. Every subject's `bytes` and
    /// `modified` are 0: not known (see [`Listing`]).
    pub fn resolution(&self) -> &Resolution {
        &self.resolution
    }
}

/// The subjects [`walk_subjects`](super::walk_subjects) finds in `dir`,
/// from `readdir` alone: a regular file is typed from its directory
/// entry and never `stat`ed (an entry of unknown type is, by the
/// standard library), so every subject's `bytes` and `modified` are 0,
/// not known. Symbolic links are resolved and checked against `root` as
/// in a walk. The same subjects, collisions and warnings as a walk of
/// an unchanged tree, except a walk's warning for a file whose `stat`
/// failed (a listing has that file as a subject).
pub fn list_subjects(dir: &Path, root: &Path) -> WalkResult {
    list_subjects_and_links(dir, root).0
}

/// [`list_subjects`], plus every symbolic link it followed (by its path):
/// what reading the sizes after it needs ([`super::sizes`]).
pub(super) fn list_subjects_and_links(dir: &Path, root: &Path) -> (WalkResult, Vec<PathBuf>) {
    let walked = walk_sized(dir, root, false, 0, Sizes::Unknown);
    (walked.walk, walked.links)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subjects::walk_subjects;

    /// Everything a walk says but sizes and times.
    fn names(walk: &WalkResult) -> Vec<(String, String, bool)> {
        walk.subjects
            .iter()
            .map(|s| (s.slug().to_owned(), s.rel_path().to_owned(), s.hidden))
            .collect()
    }

    /// A tree with hidden names, a collision, a nested directory and
    /// symbolic links (to a file, to a directory, broken, outside): the
    /// temporary directory, the root and the topic directory.
    #[cfg(unix)]
    fn tree() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("root");
        let topic = root.join("kb");
        let write = |rel: &str, text: &str| {
            let path = topic.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
            std::fs::write(path, text).expect("write");
        };
        write("a.md", "aaaa");
        write("b.txt", "b");
        write(".hidden.md", "h");
        write(".dir/x.md", "x");
        write("dir/x.md", "x");
        write("dir/.x.md", "collides with dir/x.md once dots drop");
        write("nested/inner/n.md", "n");
        write("nested/inner/.n2.md", "n");
        std::fs::write(root.join("outside.md"), "o").expect("write");
        std::os::unix::fs::symlink(topic.join("a.md"), topic.join("link.md")).expect("link");
        std::os::unix::fs::symlink(topic.join("nested"), topic.join("again")).expect("link");
        std::os::unix::fs::symlink(tmp.path().join("gone"), topic.join("broken.md")).expect("link");
        std::os::unix::fs::symlink("/etc/hostname", topic.join("out.md")).expect("link");
        (tmp, root, topic)
    }

    #[cfg(unix)]
    #[test]
    fn a_listing_is_the_walk_without_sizes() {
        let (_tmp, root, topic) = tree();
        for dir in [topic.clone(), topic.join("nested")] {
            let (listed, walked) = (list_subjects(&dir, &root), walk_subjects(&dir, &root));
            assert!(!walked.subjects.is_empty());
            assert_eq!(names(&listed), names(&walked));
            assert_eq!(listed.collisions, walked.collisions);
            assert_eq!(listed.warnings, walked.warnings);
            assert!(
                listed
                    .subjects
                    .iter()
                    .all(|s| s.bytes == 0 && s.modified == 0)
            );
            assert!(walked.subjects.iter().any(|s| s.bytes > 0));
        }
        // Resolved the same way: learned, disabled, hidden.
        let lists = || {
            (
                vec!["dir/**".to_owned(), "a".to_owned()],
                vec!["*".to_owned()],
            )
        };
        let (learned, disabled) = lists();
        let listing = Listing::new(&topic, &root, learned, disabled);
        let (learned, disabled) = lists();
        let walked = Resolution::new(walk_subjects(&topic, &root), learned, disabled);
        let listed = listing.resolution();
        assert_eq!(listed.subjects().len(), walked.subjects().len());
        assert_eq!(listed.learned_by, walked.learned_by);
        assert_eq!(listed.disabled_by, walked.disabled_by);
        assert_eq!(listed.counts(), walked.counts());
    }

    /// A watched walk after a listing reads the listed files' sizes: the
    /// same result as a walk; a file gone since, or a change reported,
    /// and it walks again.
    #[cfg(unix)]
    #[test]
    fn a_watched_walk_after_a_listing_is_the_walk() {
        use crate::subjects::WatchedWalks;
        let (_tmp, root, topic) = tree();
        let walks = WatchedWalks::new();
        let listed = walks.list(&topic, &root);
        assert!(listed.subjects.iter().all(|s| s.bytes == 0));
        assert_eq!(*walks.walk(&topic, &root), walk_subjects(&topic, &root));
        // A file gone between the listing and the walk.
        let walks = WatchedWalks::new();
        walks.list(&topic, &root);
        std::fs::remove_file(topic.join("b.txt")).expect("remove");
        let walked = walks.walk(&topic, &root);
        assert_eq!(*walked, walk_subjects(&topic, &root));
        assert!(!walked.subjects.iter().any(|s| s.slug() == "b"));
        // A change reported after the listing: walked again (the new
        // file is in it).
        let walks = WatchedWalks::new();
        walks.list(&topic, &root);
        std::fs::write(topic.join("new.md"), "n").expect("write");
        walks.invalidate(std::slice::from_ref(&topic.join("new.md")));
        let walked = walks.walk(&topic, &root);
        assert!(walked.subjects.iter().any(|s| s.slug() == "new"));
        assert_eq!(*walked, walk_subjects(&topic, &root));
        // No change reported: the walk is the listed files, sized (a
        // file that came since is not in it, as it is not in a walk
        // that read its directory before it came).
        let walks = WatchedWalks::new();
        walks.list(&topic, &root);
        std::fs::write(topic.join("unreported.md"), "u").expect("write");
        let walked = walks.walk(&topic, &root);
        assert!(!walked.subjects.iter().any(|s| s.slug() == "unreported"));
        assert!(walked.subjects.iter().any(|s| s.bytes > 0));
    }
}
