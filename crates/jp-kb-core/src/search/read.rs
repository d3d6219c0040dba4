//! The glue between the knowledge base and the index: which files belong
//! in it (the non-disabled subjects of enabled topics, a file in two
//! topics once), how one is read for it (through the guarded read, its
//! front matter parsed here), and where a workspace's index is kept.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use jp_kb_search::hash::FastSet;
use jp_kb_search::{Document, FileStamp};

use crate::KnowledgeBase;
use crate::content::{Content, Root, read_content};
use crate::frontmatter::{self, is_markdown};
use crate::subjects::Subject;

/// The cache directory for the index of the workspace at `root`:
/// `$XDG_CACHE_HOME/jp-kb/search/<key>/` (else the platform cache
/// directory), `<key>` the workspace's ([`jp_kb_fs::workspace_key`], as
/// its usage ledger is named), never inside the workspace; `None` when the
/// platform has no cache directory.
pub fn index_dir(root: &Path) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(dirs::cache_dir)?;
    Some(
        base.join("jp-kb")
            .join("search")
            .join(jp_kb_fs::workspace_key(root)),
    )
}

/// A file that belongs in the index: its stamp, and its subject (where
/// to read it, whether it is Markdown).
pub(super) struct Target<'a> {
    pub stamp: FileStamp<'a>,
    pub subject: &'a Subject,
}

/// The index key of a file: its path as walked (borrowed; the walk
/// skips file names that are not UTF-8).
pub(super) fn key(path: &Path) -> Cow<'_, str> {
    // `to_str` first: `to_string_lossy` walks the bytes in chunks, and
    // with the set below it was a quarter of a warm query's time
    // (38k paths a query, `perf record` on the tldr tree).
    path.to_str()
        .map_or_else(|| path.to_string_lossy(), Cow::Borrowed)
}

/// Every file that belongs in the index: the subjects of enabled topics
/// that are not disabled (a file in two topics once).
pub(super) fn targets(kb: &KnowledgeBase) -> Vec<Target<'_>> {
    // Sized once: growing them step by step was a third of the work.
    let size: usize = kb
        .enabled_topics()
        .filter_map(|t| t.resolution())
        .map(|r| r.subjects().len())
        .sum();
    let mut seen =
        FastSet::with_capacity_and_hasher(size, jp_kb_search::hash::FastState::default());
    let mut out = Vec::with_capacity(size);
    for topic in kb.enabled_topics() {
        let Some(resolution) = topic.resolution() else {
            continue;
        };
        for (i, s) in resolution.subjects().iter().enumerate() {
            if resolution.is_disabled(i) {
                continue;
            }
            // By the path's bytes: `Path`'s own hash goes component by
            // component (14% of a warm query).
            if seen.insert(s.path().as_os_str()) {
                out.push(Target {
                    stamp: FileStamp::new(key(s.path()), s.slug(), s.bytes, s.modified),
                    subject: s,
                });
            }
        }
    }
    out
}

/// A file's text for the index, read through the guarded read; a
/// Markdown file's YAML front matter gives its title (`name`, `title`)
/// and summary (`description`, `tags`); a block that is not YAML stays
/// part of the body. Binary, non-UTF-8 and unreadable files have no text
/// (they are found by their slug).
pub(super) fn document(root: &Root<'_>, subject: &Subject) -> Document {
    let Content::Text(text) = read_content(root, subject.path()) else {
        return Document::unreadable();
    };
    // Worked out for a file read only: for every subject it was a tenth
    // of a warm search.
    let markdown = is_markdown(subject.extension());
    if !markdown {
        return Document::text(text);
    }
    let front = frontmatter::split(&text).and_then(|(yaml, end)| {
        let value = serde_norway::from_str::<serde_json::Value>(yaml).ok()?;
        let title = frontmatter::scalar_text(&value, &["name", "title"]);
        let about = frontmatter::scalar_text(&value, &["description", "tags"]);
        Some((end, title, about))
    });
    let doc = Document::markdown(text);
    match front {
        Some((end, title, about)) => doc.with_front_matter(end, title, about),
        None => doc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dir_is_per_root_and_outside_it() {
        let a = index_dir(Path::new("/w/one/proj")).unwrap();
        let b = index_dir(Path::new("/w/two/proj")).unwrap();
        assert_ne!(a, b);
        assert!(!a.starts_with("/w"));
        assert!(
            a.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("proj-")
        );
    }
}
