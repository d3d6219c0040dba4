//! Reusing a topic directory's walk while nothing in it changed, for
//! long-running processes (the MCP server) that must see every change yet
//! answer cheaply.
//!
//! A walk depends only on names: creating, removing or renaming an entry
//! changes the modification time of the directory holding it. So a walk is
//! reused when every directory it listed still has the modification time it
//! had: a few `stat`s instead of listing every directory and `stat`ing
//! every file. File *contents* are never cached (they are read when used);
//! the sizes in a reused walk are those of the walk, so callers that show
//! sizes `stat` the files they show.
//!
//! File-system timestamps are coarse (a few milliseconds on Linux, up to
//! two seconds elsewhere): a directory changed within [`SETTLE`] before a
//! walk might change again with the same timestamp, so such a walk is not
//! kept (git's "racy" rule).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use super::walk::{WalkResult, walk_subjects_and_dirs};

/// How long a directory must have been left alone before a walk of it is
/// kept.
pub const SETTLE: Duration = Duration::from_secs(2);

#[derive(Debug)]
struct Entry {
    walk: Arc<WalkResult>,
    /// Every directory listed, with its modification time.
    dirs: Vec<(PathBuf, SystemTime)>,
    /// When the walk started.
    taken: SystemTime,
}

/// A kept walk, as saved between processes (`search::walks`) and put
/// back; it is checked against its directories' times when used.
#[derive(Debug, Clone)]
pub struct KeptWalk {
    pub dir: PathBuf,
    pub root: PathBuf,
    pub walk: Arc<WalkResult>,
    pub dirs: Vec<(PathBuf, SystemTime)>,
    pub taken: SystemTime,
}

impl Entry {
    fn is_current(&self) -> bool {
        self.dirs
            .iter()
            .all(|(dir, mtime)| modified(dir) == Some(*mtime))
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).ok()?.modified().ok()
}

/// Walks of topic directories, keyed by (directory, workspace root).
#[derive(Debug, Default)]
pub struct WalkCache {
    entries: Mutex<HashMap<(PathBuf, PathBuf), Arc<Entry>>>,
    /// Set when a walk was taken, replaced or dropped since the last
    /// [`WalkCache::take_changed`].
    changed: std::sync::atomic::AtomicBool,
}

impl WalkCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The walk of `dir` (see [`walk_subjects`](super::walk_subjects)),
    /// reused when no directory in it changed since it was taken.
    pub fn walk(&self, dir: &Path, root: &Path) -> Arc<WalkResult> {
        let key = (dir.to_path_buf(), root.to_path_buf());
        let cached = self.lock().get(&key).cloned();
        if let Some(entry) = cached.filter(|e| e.is_current()) {
            return Arc::clone(&entry.walk);
        }
        self.changed
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let started = SystemTime::now();
        let (walk, dirs) = walk_subjects_and_dirs(dir, root);
        let walk = Arc::new(walk);
        let stamped: Option<Vec<(PathBuf, SystemTime)>> = dirs
            .into_iter()
            .map(|d| modified(&d).map(|m| (d, m)))
            .collect();
        let settled = stamped.filter(|dirs| {
            dirs.iter()
                .all(|(_, mtime)| mtime.checked_add(SETTLE).is_some_and(|t| t <= started))
        });
        match settled {
            Some(dirs) => {
                let entry = Arc::new(Entry {
                    walk: Arc::clone(&walk),
                    dirs,
                    taken: started,
                });
                self.lock().insert(key, entry);
            }
            None => {
                self.lock().remove(&key);
            }
        }
        walk
    }

    /// Every kept walk (to save them).
    pub fn kept(&self) -> Vec<KeptWalk> {
        self.lock()
            .iter()
            .map(|((dir, root), e)| KeptWalk {
                dir: dir.clone(),
                root: root.clone(),
                walk: Arc::clone(&e.walk),
                dirs: e.dirs.clone(),
                taken: e.taken,
            })
            .collect()
    }

    /// Puts back a saved walk; it is used only while every directory it
    /// lists keeps the time it had.
    pub fn keep(&self, kept: KeptWalk) {
        let entry = Arc::new(Entry {
            walk: kept.walk,
            dirs: kept.dirs,
            taken: kept.taken,
        });
        self.lock().insert((kept.dir, kept.root), entry);
    }

    /// True when a walk was taken since the cache was made or this was
    /// last called (what was kept may differ from what was saved).
    pub fn take_changed(&self) -> bool {
        self.changed
            .swap(false, std::sync::atomic::Ordering::Relaxed)
    }

    /// How many walks are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no walk is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(PathBuf, PathBuf), Arc<Entry>>> {
        // A panic while holding the lock leaves a map that is still valid.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::{self, File, FileTimes};

    /// Sets a directory's modification time into the past, as if it had
    /// settled long ago.
    fn age(dir: &Path) {
        let past = SystemTime::now() - Duration::from_secs(60);
        File::open(dir)
            .and_then(|f| f.set_times(FileTimes::new().set_modified(past)))
            .expect("set mtime");
    }

    fn slugs(walk: &WalkResult) -> Vec<&str> {
        walk.subjects
            .iter()
            .map(super::super::walk::Subject::slug)
            .collect()
    }

    #[test]
    fn reuses_a_settled_walk_and_sees_every_change() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        fs::create_dir_all(dir.join("a/empty")).expect("mkdir");
        fs::write(dir.join("a/one.md"), "1").expect("write");
        for d in [&dir, &dir.join("a"), &dir.join("a/empty")] {
            age(d);
        }
        let cache = WalkCache::new();
        assert_eq!(slugs(&cache.walk(&dir, &root)), ["a/one"]);
        assert_eq!(cache.len(), 1);
        assert_eq!(slugs(&cache.walk(&dir, &root)), ["a/one"]);

        // A file in a directory that had none: its mtime changes.
        fs::write(dir.join("a/empty/two.md"), "2").expect("write");
        assert_eq!(slugs(&cache.walk(&dir, &root)), ["a/empty/two", "a/one"]);
        // Just changed: not kept, walked again next time.
        assert!(cache.is_empty());
        fs::remove_file(dir.join("a/one.md")).expect("rm");
        assert_eq!(slugs(&cache.walk(&dir, &root)), ["a/empty/two"]);

        // A new directory, then a renamed one.
        for d in [&dir, &dir.join("a"), &dir.join("a/empty")] {
            age(d);
        }
        assert_eq!(slugs(&cache.walk(&dir, &root)), ["a/empty/two"]);
        assert_eq!(cache.len(), 1);
        fs::rename(dir.join("a/empty"), dir.join("a/full")).expect("rename");
        assert_eq!(slugs(&cache.walk(&dir, &root)), ["a/full/two"]);
        fs::remove_dir_all(dir.join("a")).expect("rm -r");
        assert!(slugs(&cache.walk(&dir, &root)).is_empty());
    }
}
