//! Watching the workspace for changes made outside the TUI (a config
//! edited in another editor, subject files added or removed), debounced,
//! reported as lists of changed paths.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use jp_kb_core::edit::is_temp_file;

use super::model::Model;

/// How long the file system must be quiet before a change is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

/// A running watcher and what it watches.
pub struct Watcher {
    debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    watched: BTreeSet<(PathBuf, bool)>,
}

/// Starts a watcher that reports changed paths to `report` (on the
/// debouncer's thread; the terminal sends them into its loop's channel).
pub fn start(report: impl Fn(Vec<PathBuf>) + Send + 'static) -> Result<Watcher, String> {
    let debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
        let Ok(events) = result else { return };
        // Events were lost (the kernel's queue overflowed): no list of
        // paths can be trusted, so everything is reloaded (an empty list).
        if events.iter().any(|e| e.need_rescan()) {
            report(Vec::new());
            return;
        }
        let mut paths: Vec<PathBuf> = events
            .into_iter()
            .filter(|e| !e.kind.is_access())
            .flat_map(|e| e.event.paths)
            .filter(|p| !is_temp_file(p))
            .collect();
        paths.sort();
        paths.dedup();
        if !paths.is_empty() {
            report(paths);
        }
    })
    .map_err(|e| e.to_string())?;
    Ok(Watcher {
        debouncer,
        watched: BTreeSet::new(),
    })
}

/// The directories to watch for a model: each config file's directory,
/// the `.jp` directory, and every topic directory (recursively).
pub fn targets(model: &Model) -> BTreeSet<(PathBuf, bool)> {
    let mut out = BTreeSet::new();
    for file in &model.kb.loaded.files {
        if let Some(dir) = file.path.parent() {
            out.insert((dir.to_path_buf(), false));
        }
    }
    if let Some(dir) = model.default_file.parent().filter(|d| d.is_dir()) {
        out.insert((dir.to_path_buf(), true));
    }
    out.insert((model.kb.root().to_path_buf(), false));
    for topic in &model.kb.topics {
        if let Ok(dir) = &topic.dir {
            out.insert((dir.clone(), true));
        }
    }
    out
}

impl Watcher {
    /// Watches exactly `wanted` (adding and removing watches).
    pub fn sync(&mut self, wanted: BTreeSet<(PathBuf, bool)>) {
        for (path, _) in self.watched.difference(&wanted) {
            let _ = self.debouncer.unwatch(path);
        }
        for (path, recursive) in wanted.difference(&self.watched) {
            let mode = if *recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            let _ = self.debouncer.watch(Path::new(path), mode);
        }
        self.watched = wanted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_kb_core::edit::TEMP_SUFFIX;

    #[test]
    fn reports_changes_in_watched_directories_but_not_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut watcher = start(move |paths| {
            let _ = tx.send(paths);
        })
        .unwrap();
        watcher.sync([(root.clone(), true)].into());
        std::fs::write(root.join(format!("x{TEMP_SUFFIX}")), "tmp").unwrap();
        std::fs::write(root.join("subject.md"), "hello").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut seen = Vec::new();
        while std::time::Instant::now() < deadline {
            if let Ok(paths) = rx.recv_timeout(Duration::from_millis(200)) {
                seen.extend(paths);
                if seen.iter().any(|p| p.ends_with("subject.md")) {
                    break;
                }
            }
        }
        assert!(seen.iter().any(|p| p.ends_with("subject.md")), "{seen:?}");
        assert!(!seen.iter().any(|p| is_temp_file(p)));
    }
}
