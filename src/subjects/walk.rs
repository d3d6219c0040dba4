//! Walking a topic directory into subjects (contract §3).
//!
//! Reads no file contents: a walk costs a directory traversal and one
//! `stat` per file, like `find -printf '%s'`.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::slug::{is_hidden_path, slug_of, split_extension};

/// One file of a topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    pub slug: String,
    /// Path relative to the topic directory, `/`-separated, dots kept.
    pub rel_path: String,
    /// Absolute path (as walked; may be a symlink inside the workspace).
    pub path: PathBuf,
    pub hidden: bool,
    /// Size from the file system, without reading the file.
    pub bytes: u64,
}

impl Subject {
    /// The last extension of the file name, if any.
    pub fn extension(&self) -> Option<&str> {
        let name = self.rel_path.rsplit('/').next().unwrap_or(&self.rel_path);
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
pub fn walk_subjects(dir: &Path, root: &Path) -> WalkResult {
    let warnings = RefCell::new(Vec::new());
    let mut found = Vec::new();
    let walker = WalkDir::new(dir)
        .follow_links(true)
        .min_depth(1)
        .into_iter()
        .filter_entry(|entry| {
            if !entry.path_is_symlink() {
                return true;
            }
            match entry.path().canonicalize() {
                Ok(target) if target.starts_with(root) => true,
                Ok(target) => {
                    warnings.borrow_mut().push(WalkWarning::SymlinkOutside {
                        path: entry.path().to_path_buf(),
                        target,
                    });
                    false
                }
                Err(_) => {
                    warnings.borrow_mut().push(WalkWarning::BrokenSymlink {
                        path: entry.path().to_path_buf(),
                    });
                    false
                }
            }
        });
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err
                    .path()
                    .map_or_else(|| dir.to_path_buf(), Path::to_path_buf);
                let dangling = std::fs::symlink_metadata(&path)
                    .is_ok_and(|m| m.file_type().is_symlink())
                    && !path.exists();
                if dangling {
                    warnings
                        .borrow_mut()
                        .push(WalkWarning::BrokenSymlink { path });
                    continue;
                }
                let message = if err.loop_ancestor().is_some() {
                    "symlink loop; not followed".to_owned()
                } else {
                    err.io_error()
                        .map_or_else(|| err.to_string(), ToString::to_string)
                };
                warnings
                    .borrow_mut()
                    .push(WalkWarning::Io { path, message });
                continue;
            }
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(dir) else {
            continue;
        };
        let mut components = Vec::new();
        let mut utf8 = true;
        for c in rel.components() {
            match c.as_os_str().to_str() {
                Some(s) => components.push(s),
                None => utf8 = false,
            }
        }
        if !utf8 {
            warnings.borrow_mut().push(WalkWarning::NonUtf8Name {
                path: entry.path().to_path_buf(),
            });
            continue;
        }
        let bytes = match entry.metadata() {
            Ok(meta) => meta.len(),
            Err(err) => {
                warnings.borrow_mut().push(WalkWarning::Io {
                    path: entry.path().to_path_buf(),
                    message: err.to_string(),
                });
                continue;
            }
        };
        found.push(Subject {
            slug: slug_of(&components),
            rel_path: components.join("/"),
            hidden: is_hidden_path(&components),
            path: entry.into_path(),
            bytes,
        });
    }
    let (subjects, collisions) = settle_collisions(found);
    WalkResult {
        subjects,
        collisions,
        warnings: warnings.into_inner(),
    }
}

/// Sorts by slug and keeps one subject per slug: the non-hidden one, then
/// the lexicographically smaller relative path.
pub fn settle_collisions(mut found: Vec<Subject>) -> (Vec<Subject>, Vec<Collision>) {
    found.sort_unstable_by(|a, b| {
        a.slug
            .cmp(&b.slug)
            .then(a.hidden.cmp(&b.hidden))
            .then_with(|| a.rel_path.cmp(&b.rel_path))
    });
    let mut subjects: Vec<Subject> = Vec::with_capacity(found.len());
    let mut collisions = Vec::new();
    for subject in found {
        match subjects.last() {
            Some(kept) if kept.slug == subject.slug => collisions.push(Collision {
                slug: subject.slug,
                kept: kept.rel_path.clone(),
                dropped: subject.rel_path,
            }),
            _ => subjects.push(subject),
        }
    }
    (subjects, collisions)
}
