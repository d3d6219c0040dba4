//! Walks and resolutions kept until the owner reports a change under
//! them, for a process that watches its topic directories (the TUI): it
//! needs no `stat` to know a walk still holds, so the reload after an edit
//! of a config file walks nothing again. Topics naming the same directory
//! share one walk, a topic whose directory lies under another's takes
//! its walk from that one (see [`subtree_walk`]), and a topic whose lists
//! did not change keeps its resolution.
//!
//! The owner must report every change it learns of
//! ([`WatchedWalks::invalidate`]) and forget everything
//! ([`WatchedWalks::clear`]) when it cannot know what changed. Compare
//! [`WalkCache`](super::WalkCache), which checks directory times instead
//! and suits a process without a watcher (the MCP server).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::listing::list_subjects_and_links;
use super::pattern::GlobHits;
use super::resolve::Resolution;
use super::sizes::read_sizes;
use super::subtree::subtree_walk;
use super::walk::{WalkResult, patch_walk, walk_subjects_and_links};

/// How many resolutions are kept (each holds a few bytes per subject):
/// enough for every topic of a reload and the states an undo returns to.
const KEPT_RESOLUTIONS: usize = 4;

#[derive(Debug)]
struct Kept {
    learned: Vec<String>,
    disabled: Vec<String>,
    resolution: Arc<Resolution>,
}

/// A walk and what its globs matched (kept for the globs of the kept
/// resolutions, so a toggle matches only a new glob).
#[derive(Debug)]
struct Walked {
    walk: Arc<WalkResult>,
    hits: GlobHits,
    /// The symbolic links the walk followed (`None`: not known, as for a
    /// patched walk), which tell whether a directory under it can take
    /// its walk from this one.
    links: Option<Vec<PathBuf>>,
}

/// A listing kept for the walk of its directory that follows (see
/// [`WatchedWalks::list`]): the subjects and the links it followed.
#[derive(Debug)]
struct Listed {
    walk: Arc<WalkResult>,
    links: Vec<PathBuf>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Keyed by (topic directory, workspace root).
    walks: HashMap<(PathBuf, PathBuf), Walked>,
    /// Listings made since the last change reported, by the same key.
    listed: HashMap<(PathBuf, PathBuf), Listed>,
    /// Walks with changes reported under them, and those changes: the
    /// next walk of the directory patches them (see [`patch_walk`]), or
    /// walks again when a patch cannot tell.
    stale: HashMap<(PathBuf, PathBuf), (Arc<WalkResult>, Vec<PathBuf>)>,
    /// Most recently used last.
    resolutions: Vec<Kept>,
    /// Bumped by every invalidation: a walk that began before one may
    /// have missed the change, so it is not kept (see `keep`).
    epoch: u64,
}

impl Inner {
    /// The closest kept walk of a directory above `dir` (same root) whose
    /// links are known: its directory, the walk and those links.
    fn outer(&self, dir: &Path, root: &Path) -> Option<(PathBuf, Arc<WalkResult>, Vec<PathBuf>)> {
        self.walks
            .iter()
            .filter(|((d, r), _)| r == root && d != dir && dir.starts_with(d))
            .filter_map(|((d, _), w)| Some((d, w, w.links.as_ref()?)))
            .max_by_key(|(d, _, _)| d.components().count())
            .map(|(d, w, links)| (d.clone(), Arc::clone(&w.walk), links.clone()))
    }
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct WatchedWalks {
    inner: Mutex<Inner>,
}

impl WatchedWalks {
    /// No walk kept yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves maps that are still valid.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The walk of `dir` (see [`walk_subjects`](super::walk_subjects)),
    /// walked once until a change under it is reported, then patched for
    /// the changed files when that is enough; taken from the kept walk of
    /// a directory above it when that can tell (see [`subtree_walk`]).
    pub fn walk(&self, dir: &Path, root: &Path) -> Arc<WalkResult> {
        let key = (dir.to_path_buf(), root.to_path_buf());
        let (epoch, stale, listed, outer) = {
            let mut inner = self.lock();
            if let Some(walked) = inner.walks.get(&key) {
                return Arc::clone(&walked.walk);
            }
            (
                inner.epoch,
                inner.stale.remove(&key),
                inner.listed.remove(&key),
                inner.outer(dir, root),
            )
        };
        // Patched, derived or walked without the lock: each can take a
        // while.
        let patched = stale.and_then(|(walk, changed)| patch_walk(&walk, dir, &changed));
        let derived = || {
            outer.and_then(|(outer_dir, walk, links)| subtree_walk(&walk, &outer_dir, &links, dir))
        };
        // A listing of the directory: its files' sizes read (one `stat`
        // each), not listed again.
        let sized = || listed.and_then(|l| Some((read_sizes(&l.walk, &l.links)?, l.links)));
        let (walk, links) = if let Some(walk) = patched {
            (walk, None)
        } else if let Some((walk, links)) = sized() {
            (walk, Some(links))
        } else if let Some(walk) = derived() {
            // Derived only when no link was followed under `dir`.
            (walk, Some(Vec::new()))
        } else {
            let (walk, links) = walk_subjects_and_links(dir, root);
            (walk, Some(links))
        };
        self.keep(key, Arc::new(walk), links, epoch)
    }

    /// The subjects of `dir` from a listing (see
    /// [`list_subjects`](super::listing::list_subjects): no size or time
    /// known), kept until the next [`WatchedWalks::walk`] of `dir`, which
    /// then reads only the listed files' sizes instead of walking (unless
    /// a change was reported meanwhile, or a file is gone: then it walks).
    pub fn list(&self, dir: &Path, root: &Path) -> Arc<WalkResult> {
        let key = (dir.to_path_buf(), root.to_path_buf());
        let epoch = self.lock().epoch;
        let (walk, links) = list_subjects_and_links(dir, root);
        let walk = Arc::new(walk);
        let mut inner = self.lock();
        if inner.epoch == epoch {
            let listed = Listed {
                walk: Arc::clone(&walk),
                links,
            };
            inner.listed.insert(key, listed);
        }
        walk
    }

    /// Keeps a walk that began at `epoch`, unless a change was reported
    /// since (it may have missed it: the next walk of the directory walks
    /// again) or another thread kept one meanwhile (that one is shared).
    fn keep(
        &self,
        key: (PathBuf, PathBuf),
        walk: Arc<WalkResult>,
        links: Option<Vec<PathBuf>>,
        epoch: u64,
    ) -> Arc<WalkResult> {
        let mut inner = self.lock();
        if inner.epoch != epoch {
            return walk;
        }
        let walked = inner.walks.entry(key).or_insert(Walked {
            walk,
            hits: GlobHits::default(),
            links,
        });
        Arc::clone(&walked.walk)
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
        // A miss: match only the globs no kept resolution matched, and
        // share the `disabled` states when that list did not change.
        let mut inner = self.lock();
        let disabled_by = inner
            .resolutions
            .iter()
            .rev()
            .find(|k| Arc::ptr_eq(&k.resolution.walk, &walk) && k.disabled == disabled)
            .map(|k| Arc::clone(&k.resolution.disabled_by));
        let Inner {
            walks, resolutions, ..
        } = &mut *inner;
        let key = (dir.to_path_buf(), root.to_path_buf());
        let mut scratch = GlobHits::default();
        let hits = match walks.get_mut(&key) {
            Some(walked) if Arc::ptr_eq(&walked.walk, &walk) => &mut walked.hits,
            // Invalidated meanwhile (another thread): resolve from scratch.
            _ => &mut scratch,
        };
        hits.fill(&walk.subjects, &learned, false);
        if disabled_by.is_none() {
            hits.fill(&walk.subjects, &disabled, true);
        }
        let resolution = Arc::new(Resolution::from_hits(
            walk,
            learned.clone(),
            disabled.clone(),
            disabled_by,
            hits,
        ));
        if resolutions.len() >= KEPT_RESOLUTIONS {
            resolutions.remove(0);
        }
        resolutions.push(Kept {
            learned,
            disabled,
            resolution: Arc::clone(&resolution),
        });
        // Keep the matches of the globs the kept resolutions use.
        let same_walk: Vec<&Kept> = resolutions
            .iter()
            .filter(|k| Arc::ptr_eq(&k.resolution.walk, &resolution.walk))
            .collect();
        hits.retain(|pattern, hidden_too| {
            same_walk.iter().any(|k| {
                let list = if hidden_too { &k.disabled } else { &k.learned };
                list.iter().any(|p| p == pattern)
            })
        });
        resolution
    }

    /// Marks the walks of directories holding a changed path as stale
    /// (to be patched), and forgets those of directories under one.
    pub fn invalidate(&self, changed: &[PathBuf]) {
        let mut inner = self.lock();
        inner.epoch += 1;
        // A listing is read again from scratch after any change.
        inner.listed.clear();
        let Inner {
            walks,
            stale,
            resolutions,
            ..
        } = &mut *inner;
        // The directory itself, or one above it, changed: walk again.
        let replaced = |dir: &Path| changed.iter().any(|p| dir.starts_with(p));
        stale.retain(|(dir, _), _| !replaced(dir));
        walks.retain(|(dir, _), _| !replaced(dir));
        for ((dir, _), (_, pending)) in stale.iter_mut() {
            pending.extend(changed.iter().filter(|p| p.starts_with(dir)).cloned());
        }
        let keys: Vec<(PathBuf, PathBuf)> = walks.keys().cloned().collect();
        for key in keys {
            let under: Vec<PathBuf> = changed
                .iter()
                .filter(|p| p.starts_with(&key.0))
                .cloned()
                .collect();
            if under.is_empty() {
                continue;
            }
            if let Some(walked) = walks.remove(&key) {
                stale.insert(key, (walked.walk, under));
            }
        }
        resolutions.retain(|k| {
            walks
                .values()
                .any(|w| Arc::ptr_eq(&w.walk, &k.resolution.walk))
        });
    }

    /// Forgets everything: the next walk of every directory is fresh.
    pub fn clear(&self) {
        let mut inner = self.lock();
        let epoch = inner.epoch + 1;
        *inner = Inner {
            epoch,
            ..Inner::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn slugs(walk: &WalkResult) -> Vec<&str> {
        walk.subjects
            .iter()
            .map(super::super::walk::Subject::slug)
            .collect()
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

        // A toggle of `learned` keeps the `disabled` states (shared) and
        // matches only a glob no kept resolution used.
        let r4 = walks.resolve(&dir, &root, vec!["a/two".into()], vec!["a/one".into()]);
        assert!(Arc::ptr_eq(&r3.disabled_by, &r4.disabled_by));
        assert_eq!(r4.learned_order, [1]);
        let kept = |walks: &WatchedWalks| {
            let inner = walks.lock();
            inner.walks.values().map(|w| w.hits.len()).sum::<usize>()
        };
        // "a/*" (learned, by r1/r2) and nothing for exact entries.
        assert_eq!(kept(&walks), 1);
        let r5 = walks.resolve(&dir, &root, vec!["a/t*".into()], vec!["a/one".into()]);
        assert_eq!(r5.learned_order, [1]);
        assert_eq!(kept(&walks), 2);

        // Removing the directory itself (an ancestor of it changed).
        fs::remove_dir_all(&dir).expect("rm");
        walks.invalidate(std::slice::from_ref(&dir));
        assert!(walks.walk(&dir, &root).subjects.is_empty());
        walks.clear();
        assert!(walks.lock().walks.is_empty());
    }

    #[test]
    fn a_directory_under_a_walked_one_takes_its_walk_from_it() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let outer = root.join("tldr");
        let inner = outer.join("pages");
        fs::create_dir_all(inner.join("common")).expect("mkdir");
        fs::create_dir_all(outer.join("pages.fr")).expect("mkdir");
        for f in ["pages/common/tar.md", "pages/.h.md", "pages.fr/tar.md"] {
            fs::write(outer.join(f), f).expect("write");
        }
        let walks = WatchedWalks::new();
        assert_eq!(walks.walk(&outer, &root).subjects.len(), 3);
        // A file the outer walk has not seen (no change reported): the
        // inner walk is the outer one's view, not a second listing.
        fs::write(inner.join("unseen.md"), "x").expect("write");
        let derived = walks.walk(&inner, &root);
        assert_eq!(slugs(&derived), ["common/tar", "h"]);
        assert!(derived.subjects[1].hidden);
        // Reported: both walks see it, and equal fresh walks.
        walks.invalidate(&[inner.join("unseen.md")]);
        assert_eq!(
            *walks.walk(&outer, &root),
            crate::subjects::walk_subjects(&outer, &root)
        );
        assert_eq!(
            *walks.walk(&inner, &root),
            crate::subjects::walk_subjects(&inner, &root)
        );
        // Inner first (nothing above it kept yet): walked.
        walks.clear();
        assert_eq!(
            slugs(&walks.walk(&inner, &root)),
            ["common/tar", "h", "unseen"]
        );
    }

    #[test]
    fn a_walk_that_began_before_a_reported_change_is_not_kept() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        fs::create_dir_all(&dir).expect("mkdir");
        fs::write(dir.join("one.md"), "1").expect("write");
        let walks = WatchedWalks::new();
        let key = (dir.clone(), root.clone());
        // A walk begins (another thread, say), then a change is reported
        // before it is kept: it is used once, not kept.
        let epoch = walks.lock().epoch;
        let early = Arc::new(crate::subjects::walk_subjects(&dir, &root));
        fs::write(dir.join("two.md"), "2").expect("write");
        walks.invalidate(std::slice::from_ref(&dir));
        let used = walks.keep(key.clone(), Arc::clone(&early), None, epoch);
        assert!(Arc::ptr_eq(&used, &early));
        assert!(walks.lock().walks.is_empty());
        assert_eq!(slugs(&walks.walk(&dir, &root)), ["one", "two"]);
        // Without a change in between, a walk is kept and shared.
        let epoch = walks.lock().epoch;
        let kept = walks.keep(key, Arc::new(WalkResult::default()), None, epoch);
        assert!(!Arc::ptr_eq(&kept, &early));
        assert_eq!(
            slugs(&kept),
            ["one", "two"],
            "the walk kept first is shared"
        );
    }
}
