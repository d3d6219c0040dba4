//! A subject as a walk records it: its names (absolute path, relative
//! path, slug) in one allocation, its size and modification time.

use std::path::Path;

use super::slug::split_extension;

/// One file of a topic.
///
/// Compact, as a walk of 100k subjects keeps 100k of them: the absolute
/// path, the relative path (its tail) and the slug (usually a prefix of
/// the relative path) are one allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The absolute path (UTF-8), then the slug unless it is a prefix of
    /// the relative path; without `own_path`, the relative path instead
    /// of the absolute one.
    text: Box<str>,
    /// The absolute path when it is not UTF-8 or does not end with the
    /// relative path (never for a walked subject of a UTF-8 workspace).
    own_path: Option<Box<Path>>,
    rel_at: u32,
    rel_end: u32,
    slug_at: u32,
    slug_len: u32,
    /// A dot-prefixed path: loadable by exact slug only.
    pub hidden: bool,
    /// Size from the file system, without reading the file.
    pub bytes: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 when
    /// unknown): with `bytes`, what tells a cached token count is stale.
    pub modified: i64,
}

impl Subject {
    /// A subject named `slug` at `rel_path` (relative to the topic
    /// directory, `/`-separated, dots kept) whose file is `path`.
    pub fn new(
        slug: &str,
        rel_path: &str,
        path: &Path,
        hidden: bool,
        bytes: u64,
        modified: i64,
    ) -> Self {
        let (text, rel_at, own_path) = match path.to_str() {
            Some(p) if p.ends_with(rel_path) => (p, p.len() - rel_path.len(), None),
            _ => (rel_path, 0, Some(path)),
        };
        let mut subject = Self::from_text(text, rel_at, slug, hidden, bytes, modified);
        subject.own_path = own_path.map(Box::from);
        subject
    }

    /// The subject whose relative path is `text[rel_at..]`, `text` being
    /// its absolute path.
    pub(super) fn from_text(
        text: &str,
        rel_at: usize,
        slug: &str,
        hidden: bool,
        bytes: u64,
        modified: i64,
    ) -> Self {
        let rel = text.get(rel_at..).unwrap_or_default();
        let (text, slug_at) = if rel.starts_with(slug) {
            (Box::from(text), rel_at)
        } else {
            ([text, slug].concat().into_boxed_str(), text.len())
        };
        // Paths longer than 4 GiB do not exist on any file system.
        let len = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Self {
            rel_at: len(rel_at),
            rel_end: len(rel_at + rel.len()),
            slug_at: len(slug_at),
            slug_len: len(slug.len()),
            text,
            own_path: None,
            hidden,
            bytes,
            modified,
        }
    }

    /// The slug (contract §3).
    pub fn slug(&self) -> &str {
        let at = self.slug_at as usize;
        self.text
            .get(at..at + self.slug_len as usize)
            .unwrap_or_default()
    }

    /// Path relative to the topic directory, `/`-separated, dots kept.
    pub fn rel_path(&self) -> &str {
        self.text
            .get(self.rel_at as usize..self.rel_end as usize)
            .unwrap_or_default()
    }

    /// Absolute path (as walked; may be a symlink inside the workspace).
    pub fn path(&self) -> &Path {
        match &self.own_path {
            Some(path) => path,
            None => Path::new(self.text.get(..self.rel_end as usize).unwrap_or_default()),
        }
    }

    /// The last extension of the file name, if any.
    pub fn extension(&self) -> Option<&str> {
        let rel = self.rel_path();
        let name = rel.rsplit('/').next().unwrap_or(rel);
        split_extension(name).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_share_one_allocation_and_read_back() {
        // The slug a prefix of the path: stored once.
        let s = Subject::new("a/b", "a/b.md", Path::new("/t/a/b.md"), false, 3, 7);
        assert_eq!((s.slug(), s.rel_path()), ("a/b", "a/b.md"));
        assert_eq!(s.text.len(), "/t/a/b.md".len());
        assert_eq!(s.path(), Path::new("/t/a/b.md"));
        assert_eq!(s.extension(), Some("md"));
        // Not a prefix (dots dropped from a hidden name): appended.
        let h = Subject::new(
            "x/internal-notes",
            ".x/.internal-notes.md",
            Path::new("/t/.x/.internal-notes.md"),
            true,
            0,
            0,
        );
        assert_eq!(h.slug(), "x/internal-notes");
        assert_eq!(h.rel_path(), ".x/.internal-notes.md");
        assert_eq!(h.extension(), Some("md"));
        assert_eq!(h.path(), Path::new("/t/.x/.internal-notes.md"));
        // A path that does not end with the relative one is kept apart.
        let odd = Subject::new("a", "a.md", Path::new("/elsewhere/b.md"), false, 0, 0);
        assert_eq!((odd.slug(), odd.rel_path()), ("a", "a.md"));
        assert_eq!(odd.path(), Path::new("/elsewhere/b.md"));
        assert!(std::mem::size_of::<Subject>() <= 72);
    }
}
