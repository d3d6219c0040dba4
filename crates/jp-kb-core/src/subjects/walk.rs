//! Walking a topic directory into subjects (contract §3).
//!
//! Reads no file contents: a walk costs a directory traversal and one
//! `stat` per file, like `find -printf '%s'`.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::slug::{is_hidden_path, is_hidden_rel, slug_of, slug_of_rel, split_extension};

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
    fn from_text(
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
    pub subjects: Vec<Subject>,
    pub collisions: Vec<Collision>,
    pub warnings: Vec<WalkWarning>,
}

/// Walks `dir` recursively. Symlinks are followed only when they resolve
/// inside `root` (the canonical workspace root); loops are reported.
///
/// Directory entries are typed from `readdir` and only regular files are
/// `stat`ed (once), so the walk costs what `find -printf '%s'` costs.
pub fn walk_subjects(dir: &Path, root: &Path) -> WalkResult {
    walk_subjects_and_dirs(dir, root).0
}

/// [`walk_subjects`], plus every directory the walk listed (the topic
/// directory first, symlinked ones by their path through the link): what a
/// cache must check to know the walk still holds (see
/// [`WalkCache`](super::cache::WalkCache)).
pub fn walk_subjects_and_dirs(dir: &Path, root: &Path) -> (WalkResult, Vec<PathBuf>) {
    let mut state = WalkState {
        topic_dir: dir,
        root,
        found: Vec::new(),
        warnings: Vec::new(),
        active: Vec::new(),
        dirs: Vec::new(),
    };
    let top = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    state.walk(dir, top);
    let (subjects, collisions) = settle_collisions(state.found);
    let walk = WalkResult {
        subjects,
        collisions,
        warnings: state.warnings,
    };
    (walk, state.dirs)
}

struct WalkState<'a> {
    topic_dir: &'a Path,
    root: &'a Path,
    found: Vec<Subject>,
    warnings: Vec<WalkWarning>,
    /// Canonical directories being walked (the topic directory and every
    /// symlinked directory entered): a link to one of them is a loop.
    active: Vec<PathBuf>,
    /// Every directory listed.
    dirs: Vec<PathBuf>,
}

impl WalkState<'_> {
    fn walk(&mut self, dir: &Path, canonical: PathBuf) {
        self.active.push(canonical);
        self.dirs.push(dir.to_path_buf());
        let mut sizes = DirStat::default();
        for entry in WalkDir::new(dir).min_depth(1) {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    let path = err
                        .path()
                        .map_or_else(|| dir.to_path_buf(), Path::to_path_buf);
                    let message = err
                        .io_error()
                        .map_or_else(|| err.to_string(), ToString::to_string);
                    self.warnings.push(WalkWarning::Io { path, message });
                    continue;
                }
            };
            let file_type = entry.file_type();
            if file_type.is_file() {
                match sizes.size_of(&entry) {
                    Ok((bytes, modified)) => self.push(entry.path(), bytes, modified),
                    Err(err) => self.warnings.push(WalkWarning::Io {
                        path: entry.path().to_path_buf(),
                        message: err.to_string(),
                    }),
                }
            } else if file_type.is_symlink() {
                self.follow_link(entry.into_path());
            } else if file_type.is_dir() {
                self.dirs.push(entry.into_path());
            } else {
                self.warnings.push(WalkWarning::SpecialFile {
                    path: entry.into_path(),
                    kind: crate::content::open::kind_name(&file_type),
                });
            }
        }
        self.active.pop();
    }

    fn follow_link(&mut self, path: PathBuf) {
        let Ok(target) = path.canonicalize() else {
            self.warnings.push(WalkWarning::BrokenSymlink { path });
            return;
        };
        if !target.starts_with(self.root) {
            self.warnings
                .push(WalkWarning::SymlinkOutside { path, target });
            return;
        }
        let Ok(meta) = std::fs::metadata(&target) else {
            self.warnings.push(WalkWarning::BrokenSymlink { path });
            return;
        };
        if meta.is_file() {
            self.push(&path, meta.len(), modified_ns(&meta));
        } else if meta.is_dir() {
            let real_parent = path
                .parent()
                .and_then(|p| p.canonicalize().ok())
                .unwrap_or_default();
            let loops = real_parent.starts_with(&target)
                || self.active.iter().any(|a| a.starts_with(&target));
            if loops {
                self.warnings.push(WalkWarning::Io {
                    path,
                    message: "symlink loop; not followed".to_owned(),
                });
            } else {
                self.walk(&path, target);
            }
        } else {
            self.warnings.push(WalkWarning::SpecialFile {
                path,
                kind: crate::content::open::kind_name(&meta.file_type()),
            });
        }
    }

    fn push(&mut self, path: &Path, bytes: u64, modified: i64) {
        // Fast path: walkdir builds child paths as `dir/name`, so the
        // relative path is a suffix of the UTF-8 string (no component
        // parsing, one allocation for `rel_path`, one for the slug).
        if let (Some(full), Some(dir)) = (path.to_str(), self.topic_dir.to_str())
            && let Some(rel) = full.strip_prefix(dir).and_then(|r| r.strip_prefix('/'))
            && !rel.is_empty()
            && !rel
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..")
        {
            let subject = Subject::from_text(
                full,
                full.len() - rel.len(),
                &slug_of_rel(rel),
                is_hidden_rel(rel),
                bytes,
                modified,
            );
            self.found.push(subject);
            return;
        }
        let Ok(rel) = path.strip_prefix(self.topic_dir) else {
            return;
        };
        let mut components = Vec::new();
        for c in rel.components() {
            if let Some(s) = c.as_os_str().to_str() {
                components.push(s);
            } else {
                self.warnings.push(WalkWarning::NonUtf8Name {
                    path: path.to_path_buf(),
                });
                return;
            }
        }
        let (slug, rel_path, hidden) = (
            slug_of(&components),
            components.join("/"),
            is_hidden_path(&components),
        );
        let subject = Subject::new(&slug, &rel_path, path, hidden, bytes, modified);
        self.found.push(subject);
    }
}

/// Stats files relative to an open handle of their directory, one handle
/// per depth, instead of resolving every file's whole path again.
#[derive(Default)]
struct DirStat {
    #[cfg(unix)]
    dirs: Vec<Option<(PathBuf, rustix::fd::OwnedFd)>>,
}

impl DirStat {
    /// Size and modification time (see [`Subject::modified`]).
    #[cfg(unix)]
    fn size_of(&mut self, entry: &walkdir::DirEntry) -> std::io::Result<(u64, i64)> {
        use rustix::fs::{AtFlags, Mode, OFlags};
        let Some(parent) = entry.path().parent() else {
            return entry
                .metadata()
                .map(|m| (m.len(), modified_ns(&m)))
                .map_err(Into::into);
        };
        let slot = entry.depth().saturating_sub(1);
        if self.dirs.len() <= slot {
            self.dirs.resize_with(slot + 1, || None);
        }
        let cached =
            matches!(&self.dirs[slot], Some((p, _)) if p.as_os_str() == parent.as_os_str());
        if !cached {
            let fd = rustix::fs::open(
                parent,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            self.dirs[slot] = Some((parent.to_path_buf(), fd));
        }
        let Some((_, fd)) = &self.dirs[slot] else {
            return Err(std::io::Error::other("directory handle missing"));
        };
        let stat = rustix::fs::statat(fd, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW)?;
        let nanos = i64::try_from(stat.st_mtime_nsec).unwrap_or(0);
        // `time_t` is 32 bits on some targets.
        #[allow(clippy::useless_conversion)]
        let modified = i64::from(stat.st_mtime)
            .saturating_mul(1_000_000_000)
            .saturating_add(nanos);
        Ok((u64::try_from(stat.st_size).unwrap_or(0), modified))
    }

    #[cfg(not(unix))]
    fn size_of(&mut self, entry: &walkdir::DirEntry) -> std::io::Result<(u64, i64)> {
        entry
            .metadata()
            .map(|m| (m.len(), modified_ns(&m)))
            .map_err(Into::into)
    }
}

/// `walk` (of `dir`) updated for files that changed under `dir`, without
/// walking it again: each changed path is `stat`ed; a regular file is
/// added or replaced, a missing path removed (with everything under it,
/// had it been a directory). `None` when only a walk can tell: a
/// directory, a symlink or an odd name among the changes, a slug that
/// collides or collided, a path the walk warned about.
///
/// The TUI updates its walks from watcher events this way: at 100k
/// subjects a walk takes ~0.4 s, a patch a copy of the records.
pub fn patch_walk(walk: &WalkResult, dir: &Path, changed: &[PathBuf]) -> Option<WalkResult> {
    let mut subjects = walk.subjects.clone();
    for path in changed {
        let rel = path.strip_prefix(dir).ok()?.to_str()?;
        if rel.is_empty()
            || rel
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..")
            || walk
                .collisions
                .iter()
                .any(|c| is_at_or_under(&c.kept, rel) || is_at_or_under(&c.dropped, rel))
            || walk.warnings.iter().any(|w| warned_about(w, path))
        {
            return None;
        }
        let slug = slug_of_rel(rel);
        let at = subjects.binary_search_by(|s| s.slug().cmp(&slug));
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.is_file() => {
                let subject = Subject::new(
                    &slug,
                    rel,
                    path,
                    is_hidden_rel(rel),
                    meta.len(),
                    modified_ns(&meta),
                );
                match at {
                    Ok(i) if subjects[i].rel_path() == rel => subjects[i] = subject,
                    // Another file has this slug: the walk settles it.
                    Ok(_) => return None,
                    Err(i) => subjects.insert(i, subject),
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Ok(i) = at
                    && subjects[i].rel_path() == rel
                {
                    subjects.remove(i);
                }
                // It may have been a directory.
                let under = format!("{rel}/");
                subjects.retain(|s| !s.rel_path().starts_with(&under));
            }
            _ => return None,
        }
    }
    Some(WalkResult {
        subjects,
        collisions: walk.collisions.clone(),
        warnings: walk.warnings.clone(),
    })
}

/// `path` is `rel`, or under it (both relative, `/`-separated).
fn is_at_or_under(path: &str, rel: &str) -> bool {
    path.strip_prefix(rel)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn warned_about(warning: &WalkWarning, path: &Path) -> bool {
    let at = match warning {
        WalkWarning::SymlinkOutside { path, .. }
        | WalkWarning::BrokenSymlink { path }
        | WalkWarning::NonUtf8Name { path }
        | WalkWarning::Io { path, .. }
        | WalkWarning::SpecialFile { path, .. } => path,
    };
    at.starts_with(path) || path.starts_with(at)
}

/// A file's modification time in nanoseconds since the Unix epoch (0
/// when the file system does not say).
fn modified_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_nanos()).ok())
        .unwrap_or(0)
}

/// Sorts by slug and keeps one subject per slug: the non-hidden one, then
/// the lexicographically smaller relative path.
pub fn settle_collisions(mut found: Vec<Subject>) -> (Vec<Subject>, Vec<Collision>) {
    found.sort_unstable_by(|a, b| {
        a.slug()
            .cmp(b.slug())
            .then(a.hidden.cmp(&b.hidden))
            .then_with(|| a.rel_path().cmp(b.rel_path()))
    });
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
    let subjects = found;
    (subjects, collisions)
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

    #[test]
    fn a_patched_walk_is_the_walk_of_the_changed_tree() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        std::fs::create_dir_all(dir.join("a/b")).expect("mkdir");
        for f in ["a/one.md", "a/b/two.md", "three.md", ".hidden.md"] {
            std::fs::write(dir.join(f), f).expect("write");
        }
        let before = walk_subjects(&dir, &root);
        // Added, changed, removed files: patched, equal to a new walk.
        std::fs::write(dir.join("a/new.md"), "new").expect("write");
        std::fs::write(dir.join("three.md"), "longer than before").expect("write");
        std::fs::remove_file(dir.join("a/one.md")).expect("rm");
        let changed = [
            dir.join("a/new.md"),
            dir.join("three.md"),
            dir.join("a/one.md"),
        ];
        let patched = patch_walk(&before, &dir, &changed).expect("a patch is enough");
        assert_eq!(patched, walk_subjects(&dir, &root));
        // A removed directory takes its subjects along.
        std::fs::remove_dir_all(dir.join("a/b")).expect("rm");
        let patched = patch_walk(&patched, &dir, &[dir.join("a/b")]).expect("patch");
        assert_eq!(patched, walk_subjects(&dir, &root));
        // A new directory, or a slug taken by another file: walk again.
        std::fs::create_dir_all(dir.join("c")).expect("mkdir");
        assert!(patch_walk(&patched, &dir, &[dir.join("c")]).is_none());
        std::fs::write(dir.join("three.txt"), "same slug").expect("write");
        assert!(patch_walk(&patched, &dir, &[dir.join("three.txt")]).is_none());
    }
}
