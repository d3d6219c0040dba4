//! What a walk yields (subjects, collisions, warnings), and the rules
//! that turn walked files into subjects: names, order, collisions.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::slug::{dotted_slug, is_hidden_path, is_hidden_rel, slug_of, slug_of_rel};
use super::subject::Subject;

/// Something skipped during the walk, reported rather than fatal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalkWarning {
    /// A symlink that resolves outside the workspace root: never read.
    SymlinkOutside { path: PathBuf, target: PathBuf },
    /// A symlink whose target does not exist.
    BrokenSymlink { path: PathBuf },
    /// A file or directory name that is not valid UTF-8.
    NonUtf8Name { path: PathBuf },
    /// A directory that could not be read, or a symlink loop.
    Io { path: PathBuf, message: String },
    /// A FIFO, a socket or a device (directly or behind a symlink): never
    /// opened (opening a FIFO blocks until a writer comes).
    SpecialFile { path: PathBuf, kind: &'static str },
}

impl std::fmt::Display for WalkWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WalkWarning::SymlinkOutside { path, target } => write!(
                f,
                "{}: symlink to {} leaves the workspace; skipped (never read)",
                path.display(),
                target.display()
            ),
            WalkWarning::BrokenSymlink { path } => {
                write!(f, "{}: broken symlink; skipped", path.display())
            }
            WalkWarning::NonUtf8Name { path } => write!(
                f,
                "{}: file name is not valid UTF-8; skipped",
                path.display()
            ),
            WalkWarning::Io { path, message } => write!(f, "{}: {message}", path.display()),
            WalkWarning::SpecialFile { path, kind } => write!(
                f,
                "{}: {kind}, not a regular file; skipped (never opened)",
                path.display()
            ),
        }
    }
}

/// Two files with the same slug; `kept` wins (contract §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    pub slug: String,
    pub kept: String,
    pub dropped: String,
}

/// The subjects of one topic directory, sorted by slug (byte order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkResult {
    /// The subjects, sorted by slug.
    pub subjects: Vec<Subject>,
    /// Files whose slug another file took (one is used, the others ignored).
    pub collisions: Vec<Collision>,
    /// What the walk could not read or follow.
    pub warnings: Vec<WalkWarning>,
}

/// The subject of the file at `path` under `topic_dir`, or why it is
/// skipped (a name that is not UTF-8); `None` when `path` is not under
/// `topic_dir`.
pub(super) fn subject_at(
    topic_dir: &Path,
    path: &Path,
    bytes: u64,
    modified: i64,
) -> Option<Result<Subject, WalkWarning>> {
    // Fast path: walked paths are built as `dir/name`, so the relative
    // path is a suffix of the UTF-8 string (no component parsing, one
    // allocation for the names).
    if let (Some(full), Some(dir)) = (path.to_str(), topic_dir.to_str())
        && let Some(rel) = full.strip_prefix(dir).and_then(|r| r.strip_prefix('/'))
        && !rel.is_empty()
        && !rel
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
    {
        let rel_at = full.len() - rel.len();
        // No component starts with a dot (most names): the slug is the
        // relative path without its extension, borrowed, not built (a
        // tenth of the walk's own work on the tldr tree).
        let hidden = is_hidden_rel(rel);
        let slug = if hidden {
            Cow::Owned(slug_of_rel(rel))
        } else {
            Cow::Borrowed(dotted_slug(rel))
        };
        return Some(Ok(Subject::from_text(
            full, rel_at, &slug, hidden, bytes, modified,
        )));
    }
    let rel = path.strip_prefix(topic_dir).ok()?;
    let mut components = Vec::new();
    for c in rel.components() {
        let Some(s) = c.as_os_str().to_str() else {
            return Some(Err(WalkWarning::NonUtf8Name {
                path: path.to_path_buf(),
            }));
        };
        components.push(s);
    }
    let (slug, rel_path, hidden) = (
        slug_of(&components),
        components.join("/"),
        is_hidden_path(&components),
    );
    Some(Ok(Subject::new(
        &slug, &rel_path, path, hidden, bytes, modified,
    )))
}

/// A file's modification time in nanoseconds since the Unix epoch (0
/// when the file system does not say).
pub(super) fn modified_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_nanos()).ok())
        .unwrap_or(0)
}

/// The order subjects are kept in: by slug, then the non-hidden one, then
/// the lexicographically smaller relative path (a total order: no two
/// walked subjects share a relative path).
pub(super) fn subject_order(a: &Subject, b: &Subject) -> std::cmp::Ordering {
    a.slug()
        .cmp(b.slug())
        .then(a.hidden.cmp(&b.hidden))
        .then_with(|| a.rel_path().cmp(b.rel_path()))
}

/// Sorts by slug and keeps one subject per slug: the non-hidden one, then
/// the lexicographically smaller relative path.
pub fn settle_collisions(mut found: Vec<Subject>) -> (Vec<Subject>, Vec<Collision>) {
    found.sort_unstable_by(subject_order);
    settle_sorted(found)
}

/// [`settle_collisions`] of the subjects of `runs`, each already sorted
/// (each walker thread sorts its own): merged, not sorted again.
pub(super) fn settle_runs(mut runs: Vec<Vec<Subject>>) -> (Vec<Subject>, Vec<Collision>) {
    runs.retain(|r| !r.is_empty());
    while runs.len() > 1 {
        let mut merged = Vec::with_capacity(runs.len().div_ceil(2));
        let mut pairs = runs.into_iter();
        while let Some(a) = pairs.next() {
            merged.push(match pairs.next() {
                Some(b) => merge(a, b),
                None => a,
            });
        }
        runs = merged;
    }
    settle_sorted(runs.pop().unwrap_or_default())
}

/// Two sorted runs as one (each subject moved once).
fn merge(a: Vec<Subject>, b: Vec<Subject>) -> Vec<Subject> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => subject_order(x, y).is_le(),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        out.extend(if take_a { a.next() } else { b.next() });
    }
    out
}

/// Drops all but the first of each slug from sorted subjects.
fn settle_sorted(mut found: Vec<Subject>) -> (Vec<Subject>, Vec<Collision>) {
    // In place: a second vector of every subject would double the
    // walk's peak memory.
    let mut collisions = Vec::new();
    found.dedup_by(|subject, kept| {
        let same = subject.slug() == kept.slug();
        if same {
            collisions.push(Collision {
                slug: subject.slug().to_owned(),
                kept: kept.rel_path().to_owned(),
                dropped: subject.rel_path().to_owned(),
            });
        }
        same
    });
    found.shrink_to_fit();
    (found, collisions)
}
