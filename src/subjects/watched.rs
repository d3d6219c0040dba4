//! Walks and resolutions kept until the owner reports a change under
//! them, for a process that watches its topic directories (the TUI): it
//! needs no `stat` to know a walk still holds, so the reload after an edit
//! of a config file walks nothing again. Topics naming the same directory
//! share one walk, and a topic whose lists did not change keeps its
//! resolution.
//!
//! The owner must report every change it learns of
//! ([`WatchedWalks::invalidate`]) and forget everything
//! ([`WatchedWalks::clear`]) when it cannot know what changed. Compare
//! [`WalkCache`](super::WalkCache), which checks directory times instead
//! and suits a process without a watcher (the MCP server).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::resolve::Resolution;
use super::walk::{WalkResult, walk_subjects};

/// How many resolutions are kept (each holds a few bytes per subject):
/// enough for every topic of a reload and the states an undo returns to.
const KEPT_RESOLUTIONS: usize = 4;

#[derive(Debug)]
struct Kept {
    learned: Vec<String>,
    disabled: Vec<String>,
    resolution: Arc<Resolution>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Keyed by (topic directory, workspace root).
    walks: HashMap<(PathBuf, PathBuf), Arc<WalkResult>>,
    /// Most recently used last.
    resolutions: Vec<Kept>,
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct WatchedWalks {
    inner: Mutex<Inner>,
}

impl WatchedWalks {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves maps that are still valid.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The walk of `dir` (see [`walk_subjects`]), walked once until a
    /// change under it is reported.
    pub fn walk(&self, dir: &Path, root: &Path) -> Arc<WalkResult> {
        let key = (dir.to_path_buf(), root.to_path_buf());
        if let Some(walk) = self.lock().walks.get(&key) {
            return Arc::clone(walk);
        }
        // Walked without the lock: a walk can take a while.
        let walk = Arc::new(walk_subjects(dir, root));
        Arc::clone(self.lock().walks.entry(key).or_insert(walk))
    }

    /// The resolution of `dir` with these lists: the one kept when the
    /// lists and the walk are the same, else a new one.
    pub fn resolve(
        &self,
        dir: &Path,
        root: &Path,
        learned: Vec<String>,
        disabled: Vec<String>,
    ) -> Arc<Resolution> {
        let walk = self.walk(dir, root);
        {
            let mut inner = self.lock();
            let hit = inner.resolutions.iter().position(|k| {
                Arc::ptr_eq(&k.resolution.walk, &walk)
                    && k.learned == learned
                    && k.disabled == disabled
            });
            if let Some(at) = hit {
                let kept = inner.resolutions.remove(at);
                let resolution = Arc::clone(&kept.resolution);
                inner.resolutions.push(kept);
                return resolution;
            }
        }
        let resolution = Arc::new(Resolution::new(walk, learned.clone(), disabled.clone()));
        let mut inner = self.lock();
        if inner.resolutions.len() >= KEPT_RESOLUTIONS {
            inner.resolutions.remove(0);
        }
        inner.resolutions.push(Kept {
            learned,
            disabled,
            resolution: Arc::clone(&resolution),
        });
        resolution
    }

    /// Forgets the walks of directories holding (or under) a changed path.
    pub fn invalidate(&self, changed: &[PathBuf]) {
        let mut inner = self.lock();
        inner.walks.retain(|(dir, _), _| {
            !changed
                .iter()
                .any(|p| p.starts_with(dir) || dir.starts_with(p))
        });
        let Inner { walks, resolutions } = &mut *inner;
        resolutions.retain(|k| walks.values().any(|w| Arc::ptr_eq(w, &k.resolution.walk)));
    }

    /// Forgets everything: the next walk of every directory is fresh.
    pub fn clear(&self) {
        *self.lock() = Inner::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn slugs(walk: &WalkResult) -> Vec<&str> {
        walk.subjects.iter().map(|s| s.slug.as_str()).collect()
    }

    #[test]
    fn walks_once_until_told_and_shares_resolutions() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        fs::create_dir_all(dir.join("a")).expect("mkdir");
        fs::write(dir.join("a/one.md"), "1").expect("write");
        let walks = WatchedWalks::new();
        let first = walks.walk(&dir, &root);
        assert_eq!(slugs(&first), ["a/one"]);

        // Not re-walked until told: a new file is not seen yet.
        fs::write(dir.join("a/two.md"), "2").expect("write");
        assert!(Arc::ptr_eq(&first, &walks.walk(&dir, &root)));
        // A change elsewhere does not matter.
        walks.invalidate(&[root.join(".jp/config.toml")]);
        assert!(Arc::ptr_eq(&first, &walks.walk(&dir, &root)));
        walks.invalidate(&[dir.join("a/two.md")]);
        assert_eq!(slugs(&walks.walk(&dir, &root)), ["a/one", "a/two"]);

        // Same lists over the same walk: the same resolution.
        let r1 = walks.resolve(&dir, &root, vec!["a/*".into()], vec![]);
        let r2 = walks.resolve(&dir, &root, vec!["a/*".into()], vec![]);
        assert!(Arc::ptr_eq(&r1, &r2));
        assert_eq!(r1.learned_order.len(), 2);
        let r3 = walks.resolve(&dir, &root, vec![], vec!["a/one".into()]);
        assert!(!Arc::ptr_eq(&r1, &r3));
        assert!(r3.is_disabled(0));

        // Removing the directory itself (an ancestor of it changed).
        fs::remove_dir_all(&dir).expect("rm");
        walks.invalidate(std::slice::from_ref(&dir));
        assert!(walks.walk(&dir, &root).subjects.is_empty());
        walks.clear();
        assert!(walks.lock().walks.is_empty());
    }
}
