//! The walk of a directory taken from the walk of a directory above it,
//! instead of listing and `stat`ing its files a second time: topics
//! whose directories nest (the tldr workspace's `tldr` and `tldr/pages`)
//! cost one walk. The TUI's first frame on that workspace waited for
//! both walks, and the nested one was 16% of the files (`docs/perf.md`,
//! "Keys on a 4.4 MiB prompt, and the first frame with rows").
//!
//! The outer walk saw every file under the inner directory, with the
//! same path, size and time; what the inner walk would make of them is
//! worked out again from those (slugs, hidden-ness and collisions are
//! relative to the topic directory). Where the outer walk may have seen
//! the subtree otherwise than a walk of it would, nothing is derived and
//! the caller walks (see [`subtree_walk`]).

use std::path::Path;

use super::subject::Subject;
use super::walk_result::{WalkResult, WalkWarning, settle_collisions, subject_at};

/// The walk of `inner` (a directory strictly under `outer_dir`) as
/// [`walk_subjects`](super::walk_subjects) would take it, from `outer`,
/// the walk of `outer_dir`, and `links`, the symbolic links that walk
/// followed. `None` when it cannot be told exactly:
///
/// - a link was followed at or under `inner`: which links a walk follows
///   depends on the directories it entered (a link to one of them is a
///   loop), and those differ between the two walks;
/// - the outer walk reported an error at a directory it started from
///   (its own, or a link's): a directory entry that could not be read is
///   reported there, so where it happened is lost;
/// - a file under `inner` lost a slug collision in the outer walk: it is
///   not among the outer subjects, and may win in the inner one (dots
///   dropped from a hidden directory above `inner` make slugs collide
///   that do not under it).
pub fn subtree_walk(
    outer: &WalkResult,
    outer_dir: &Path,
    links: &[impl AsRef<Path>],
    inner: &Path,
) -> Option<WalkResult> {
    let inner_rel = inner.strip_prefix(outer_dir).ok()?.to_str()?;
    if inner_rel.is_empty()
        || inner_rel
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
        || links.iter().any(|l| l.as_ref().starts_with(inner))
        || outer.warnings.iter().any(|w| match w {
            WalkWarning::Io { path, .. } => {
                path == outer_dir || links.iter().any(|l| l.as_ref() == path)
            }
            _ => false,
        })
        || outer
            .collisions
            .iter()
            .any(|c| is_under(&c.dropped, inner_rel))
    {
        return None;
    }
    let prefix = inner.as_os_str().as_encoded_bytes();
    let under = |path: &Path| {
        path.as_os_str()
            .as_encoded_bytes()
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.first() == Some(&b'/'))
    };
    let mut found = Vec::new();
    for s in outer.subjects.iter().filter(|s| under(s.path())) {
        // The outer walk took it as a subject: so does the inner one.
        let subject: Subject = subject_at(inner, s.path(), s.bytes, s.modified)?.ok()?;
        found.push(subject);
    }
    let (subjects, collisions) = settle_collisions(found);
    // At the inner directory too: it may be what could not be listed.
    let warnings = outer
        .warnings
        .iter()
        .filter(|w| warning_path(w).starts_with(inner))
        .cloned()
        .collect();
    Some(WalkResult {
        subjects,
        collisions,
        warnings,
    })
}

/// `rel` (relative to the outer directory) lies under `dir`, another
/// relative path.
fn is_under(rel: &str, dir: &str) -> bool {
    rel.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

fn warning_path(warning: &WalkWarning) -> &Path {
    match warning {
        WalkWarning::SymlinkOutside { path, .. }
        | WalkWarning::BrokenSymlink { path }
        | WalkWarning::NonUtf8Name { path }
        | WalkWarning::Io { path, .. }
        | WalkWarning::SpecialFile { path, .. } => path,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use proptest::prelude::*;

    use super::*;
    use crate::internal::subjects::walk_reference::tests::{build, entry};
    use crate::subjects::walk::{walk_subjects, walk_subjects_and_links};

    /// Every directory under `dir` (not through links).
    fn dirs_under(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for entry in walkdir::WalkDir::new(dir)
            .min_depth(1)
            .into_iter()
            .flatten()
        {
            if entry.file_type().is_dir() {
                out.push(entry.into_path());
            }
        }
        out
    }

    /// For every directory under the topic directory: a derived walk is
    /// the walk of that directory.
    fn assert_derived_walks_are_walks(dir: &Path, root: &Path) -> usize {
        let (outer, links) = walk_subjects_and_links(dir, root);
        let mut derived = 0;
        for inner in dirs_under(dir) {
            if let Some(walk) = subtree_walk(&outer, dir, &links, &inner) {
                assert_eq!(walk, walk_subjects(&inner, root), "{}", inner.display());
                derived += 1;
            }
        }
        derived
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Trees with files, directories, hidden names, collisions,
        /// links (inside, outside, broken, loops), FIFOs and names that
        /// are not UTF-8: what is derived is what a walk finds.
        #[test]
        fn a_derived_walk_is_the_walk_of_the_subtree(
            entries in prop::collection::vec(entry(), 1..40)
        ) {
            let tmp = tempfile::tempdir().expect("tempdir");
            let root = tmp.path().canonicalize().expect("canonical").join("ws");
            let outside = tmp.path().canonicalize().expect("canonical").join("out");
            std::fs::create_dir_all(&outside).expect("mkdir");
            let dir = root.join("t");
            std::fs::create_dir_all(&dir).expect("mkdir");
            build(&dir, &outside, &entries);
            assert_derived_walks_are_walks(&dir, &root);
        }
    }

    #[test]
    fn a_plain_subtree_is_derived_and_odd_ones_are_walked() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        for f in [
            "pages/common/tar.md",
            "pages/linux/.hidden.md",
            "pages/.private/notes.md",
            "pages.fr/common/tar.md",
            "LICENSE.md",
        ] {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, f).expect("write");
        }
        // A FIFO and a link outside the workspace: warnings, kept.
        std::os::unix::fs::symlink("/", dir.join("pages/out")).expect("symlink");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            dir.join("pages/common/fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .expect("mkfifo");
        // Every directory here is derived.
        assert_eq!(assert_derived_walks_are_walks(&dir, &root), 6);
        let (outer, links) = walk_subjects_and_links(&dir, &root);
        let pages = subtree_walk(&outer, &dir, &links, &dir.join("pages")).expect("derived");
        assert_eq!(pages.subjects.len(), 3);
        assert_eq!(pages.warnings.len(), 2);
        // Not under the outer directory, or the directory itself.
        assert!(subtree_walk(&outer, &dir, &links, &root).is_none());
        assert!(subtree_walk(&outer, &dir, &links, &dir).is_none());

        // A link followed under the inner directory: walked.
        std::os::unix::fs::symlink(dir.join("pages.fr"), dir.join("pages/fr")).expect("symlink");
        let (outer, links) = walk_subjects_and_links(&dir, &root);
        assert_eq!(links, [dir.join("pages/fr")]);
        assert!(subtree_walk(&outer, &dir, &links, &dir.join("pages")).is_none());
        assert!(subtree_walk(&outer, &dir, &links, &dir.join("pages.fr")).is_some());
        assert_derived_walks_are_walks(&dir, &root);
        std::fs::remove_file(dir.join("pages/fr")).expect("rm");

        // A file of the inner directory that lost a collision outside it
        // (`.private/notes` and `private/notes` are one slug above
        // `.private`, two in it): walked.
        std::fs::create_dir_all(dir.join("pages/private")).expect("mkdir");
        std::fs::write(dir.join("pages/private/notes.md"), "x").expect("write");
        let (outer, links) = walk_subjects_and_links(&dir, &root);
        assert!(subtree_walk(&outer, &dir, &links, &dir.join("pages/.private")).is_none());
        assert_derived_walks_are_walks(&dir, &root);
    }

    #[test]
    fn an_entry_error_reported_at_the_walk_means_walking() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        std::fs::create_dir_all(dir.join("a/b")).expect("mkdir");
        std::fs::write(dir.join("a/b/one.md"), "1").expect("write");
        let mut walk = walk_subjects(&dir, &root);
        walk.warnings.push(WalkWarning::Io {
            path: dir.clone(),
            message: "an entry could not be read".into(),
        });
        let no_links: [&Path; 0] = [];
        assert!(subtree_walk(&walk, &dir, &no_links, &dir.join("a")).is_none());
    }
}
