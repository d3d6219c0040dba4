//! A topic of the effective configuration together with its directory and
//! subjects, resolved on first use.

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::config::Topic;
use crate::subjects::{Listing, Resolution, WalkCache, WatchedWalks, walk_subjects};

/// Why a topic's subjects cannot be read (contract §2.1: the topic is shown
/// with the error; other topics still work).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TopicError {
    /// The topic has no `subjects`.
    #[error("`subjects` is not set (it is required)")]
    MissingSubjects,
    /// The `subjects` value (given) is an absolute path.
    #[error("`subjects` = {0:?} is absolute; it must be relative to the workspace root")]
    Absolute(String),
    /// The `subjects` value (given) climbs out of the workspace root.
    #[error("`subjects` = {0:?} leaves the workspace root")]
    Escapes(String),
    /// The `subjects` directory is, or passes through, a symbolic link
    /// leading out of the workspace root.
    #[error("`subjects` = {path:?} resolves to {target}, outside the workspace root")]
    EscapesViaSymlink {
        /// The `subjects` value.
        path: String,
        /// Where it really leads.
        target: PathBuf,
    },
    /// The directory (its path) does not exist.
    #[error("subjects directory {0} does not exist")]
    NotFound(PathBuf),
    /// The path (given) is not a directory.
    #[error("subjects path {0} is not a directory")]
    NotADirectory(PathBuf),
}

/// Checks a `subjects` value and returns the directory it names.
pub fn subjects_dir(root: &Path, subjects: Option<&str>) -> Result<PathBuf, TopicError> {
    let value = subjects.ok_or(TopicError::MissingSubjects)?;
    let rel = Path::new(value);
    if rel.has_root() || rel.is_absolute() {
        return Err(TopicError::Absolute(value.to_owned()));
    }
    let mut normal = PathBuf::new();
    for component in rel.components() {
        match component {
            Component::Normal(c) => normal.push(c),
            Component::CurDir => {}
            Component::ParentDir => {
                if !normal.pop() {
                    return Err(TopicError::Escapes(value.to_owned()));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(TopicError::Absolute(value.to_owned()));
            }
        }
    }
    let dir = root.join(&normal);
    match dir.canonicalize() {
        Ok(canonical) if !canonical.starts_with(root) => Err(TopicError::EscapesViaSymlink {
            path: value.to_owned(),
            target: canonical,
        }),
        Ok(canonical) if !canonical.is_dir() => Err(TopicError::NotADirectory(dir)),
        Ok(_) => Ok(dir),
        Err(_) => Err(TopicError::NotFound(dir)),
    }
}

/// Where a topic's walk and resolution come from.
#[derive(Debug, Clone, Default)]
pub enum WalkSource {
    /// Walked and resolved anew.
    #[default]
    Fresh,
    /// Walked through a cache that checks directory times.
    Cached(Arc<WalkCache>),
    /// Kept until the owner reports a change (the TUI's watcher).
    Watched(Arc<WatchedWalks>),
}

/// One topic: its configuration, its directory (or the error), and its
/// subjects, walked and resolved lazily the first time they are needed.
#[derive(Debug)]
pub struct TopicState {
    /// Its effective configuration, each value with its origin.
    pub config: Topic,
    /// Its subjects directory, canonical, or why it cannot be used.
    pub dir: Result<PathBuf, TopicError>,
    root: PathBuf,
    resolution: OnceLock<Arc<Resolution>>,
    walks: WalkSource,
}

impl TopicState {
    /// The topic `config` of the workspace at `root`, walked fresh when first needed.
    pub fn new(config: Topic, root: &Path) -> Self {
        Self::with_walk_cache(config, root, None)
    }

    /// A topic whose directory walk goes through `walks` (reused while
    /// nothing in the directory changed).
    pub fn with_walk_cache(config: Topic, root: &Path, walks: Option<Arc<WalkCache>>) -> Self {
        Self::with_source(
            config,
            root,
            walks.map_or(WalkSource::Fresh, WalkSource::Cached),
        )
    }

    /// A topic walked and resolved through `walks`.
    pub fn with_source(config: Topic, root: &Path, walks: WalkSource) -> Self {
        let dir = subjects_dir(root, config.subjects.as_ref().map(|s| s.value.as_str()));
        Self {
            config,
            dir,
            root: root.to_path_buf(),
            resolution: OnceLock::new(),
            walks,
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.config.id
    }

    /// This topic with `config` instead of its own, over the same root and
    /// walk source: a state the planner imagines (`edit::plan::planned`).
    /// `resolution`, when given, is taken as is (a re-resolution over the
    /// walk this topic already has); otherwise it is resolved when needed.
    #[must_use]
    pub fn replanned(&self, config: Topic, resolution: Option<Arc<Resolution>>) -> Self {
        let state = Self::with_source(config, &self.root, self.walks.clone());
        if let Some(resolution) = resolution {
            let _ = state.resolution.set(resolution);
        }
        state
    }

    /// The resolution when it was made already (nothing is walked).
    pub fn resolved(&self) -> Option<&Arc<Resolution>> {
        self.resolution.get()
    }

    /// The canonical workspace root: what every read of a subject is
    /// guarded against (see [`crate::content::open`]).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether it is enabled (`enable` is true or unset).
    pub fn enabled(&self) -> bool {
        self.config.enabled()
    }

    /// The subjects and their states; `None` when the directory is in
    /// error.
    pub fn resolution(&self) -> Option<&Resolution> {
        self.shared_resolution().map(Arc::as_ref)
    }

    /// [`TopicState::resolution`], shared (to tell whether two loads
    /// resolved the same way without comparing every subject).
    pub fn shared_resolution(&self) -> Option<&Arc<Resolution>> {
        let dir = self.dir.as_ref().ok()?;
        Some(self.resolution.get_or_init(|| {
            let (learned, disabled) = (
                self.config.learned_patterns(),
                self.config.disabled_entries(),
            );
            match &self.walks {
                WalkSource::Fresh => Arc::new(Resolution::new(
                    walk_subjects(dir, &self.root),
                    learned,
                    disabled,
                )),
                WalkSource::Cached(cache) => Arc::new(Resolution::new(
                    cache.walk(dir, &self.root),
                    learned,
                    disabled,
                )),
                WalkSource::Watched(walks) => walks.resolve(dir, &self.root, learned, disabled),
            }
        }))
    }

    /// The topic's subjects from a listing of its directory without a
    /// `stat` of any file (see [`Listing`]): what can be shown before
    /// [`TopicState::resolution`] has walked. Listed anew at each call;
    /// with watched walks ([`WatchedWalks::list`]) the walk that follows
    /// reads the listed files' sizes instead of listing again. `None`
    /// when the directory is in error.
    pub fn listing(&self) -> Option<Listing> {
        let dir = self.dir.as_ref().ok()?;
        let (learned, disabled) = (
            self.config.learned_patterns(),
            self.config.disabled_entries(),
        );
        Some(match &self.walks {
            WalkSource::Watched(walks) => {
                Listing::of_walk(walks.list(dir, &self.root), learned, disabled)
            }
            WalkSource::Fresh | WalkSource::Cached(_) => {
                Listing::new(dir, &self.root, learned, disabled)
            }
        })
    }

    /// Enabled, without error, and with an available subject.
    pub fn is_learnable(&self) -> bool {
        self.enabled() && self.resolution().is_some_and(Resolution::has_available)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_absolute_and_escaping_paths() {
        let root = Path::new("/nonexistent-root");
        assert_eq!(
            subjects_dir(root, Some("/etc")),
            Err(TopicError::Absolute("/etc".into()))
        );
        assert_eq!(
            subjects_dir(root, Some("a/../../x")),
            Err(TopicError::Escapes("a/../../x".into()))
        );
        assert_eq!(subjects_dir(root, None), Err(TopicError::MissingSubjects));
        assert!(matches!(
            subjects_dir(root, Some("a/./b")),
            Err(TopicError::NotFound(_))
        ));
    }
}
