//! The walk as it was before it ran in parallel (walkdir, one thread),
//! kept for tests only: the parallel walk must yield exactly what it
//! yields (subjects, collisions, warnings in order, directories in order).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::slug::{is_hidden_path, is_hidden_rel, slug_of, slug_of_rel};
use super::subject::Subject;
use super::walk_result::{WalkResult, WalkWarning, modified_ns, settle_collisions};

/// The sequential walk (the reference).
pub(super) fn walk_sequential(dir: &Path, root: &Path) -> (WalkResult, Vec<PathBuf>) {
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

#[cfg(test)]
pub(super) mod tests {
    use std::os::unix::ffi::OsStrExt;

    use proptest::prelude::*;

    use super::*;
    use crate::subjects::walk::walk_subjects_and_dirs;

    /// What a generated tree holds at a path.
    #[derive(Debug, Clone)]
    pub(crate) enum Kind {
        File,
        Dir,
        /// A symlink to the `n`th other entry (inside the workspace).
        LinkTo(usize),
        LinkOutside,
        LinkBroken,
        /// A symlink to the topic directory: a loop.
        LinkToTopic,
        Fifo,
        NonUtf8,
    }

    fn kind() -> impl Strategy<Value = Kind> {
        prop_oneof![
            6 => Just(Kind::File),
            3 => Just(Kind::Dir),
            2 => (0usize..64).prop_map(Kind::LinkTo),
            1 => Just(Kind::LinkOutside),
            1 => Just(Kind::LinkBroken),
            1 => Just(Kind::LinkToTopic),
            1 => Just(Kind::Fifo),
            1 => Just(Kind::NonUtf8),
        ]
    }

    pub(crate) fn entry() -> impl Strategy<Value = (Vec<String>, Kind)> {
        (
            prop::collection::vec("(\\.?[a-c]{1,2}(\\.md)?)", 1..4),
            kind(),
        )
    }

    /// Creates the entries under `dir` (those whose parent is not a
    /// directory are skipped).
    pub(crate) fn build(dir: &Path, outside: &Path, entries: &[(Vec<String>, Kind)]) {
        let paths: Vec<PathBuf> = entries.iter().map(|(p, _)| dir.join(p.join("/"))).collect();
        for (path, (_, kind)) in paths.iter().zip(entries) {
            let Some(parent) = path.parent() else {
                continue;
            };
            if std::fs::create_dir_all(parent).is_err() || path.symlink_metadata().is_ok() {
                continue;
            }
            let _ = match kind {
                Kind::File => std::fs::write(path, "x"),
                Kind::Dir => std::fs::create_dir(path),
                Kind::LinkTo(n) => std::os::unix::fs::symlink(&paths[n % paths.len()], path),
                Kind::LinkOutside => std::os::unix::fs::symlink(outside, path),
                Kind::LinkBroken => std::os::unix::fs::symlink(dir.join("nothing"), path),
                Kind::LinkToTopic => std::os::unix::fs::symlink(dir, path),
                Kind::Fifo => rustix::fs::mknodat(
                    rustix::fs::CWD,
                    path,
                    rustix::fs::FileType::Fifo,
                    rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
                    0,
                )
                .map_err(Into::into),
                Kind::NonUtf8 => {
                    std::fs::write(parent.join(std::ffi::OsStr::from_bytes(b"n\xffo.md")), "x")
                }
            };
        }
    }

    fn assert_same(dir: &Path, root: &Path) {
        let parallel = walk_subjects_and_dirs(dir, root);
        let sequential = walk_sequential(dir, root);
        assert_eq!(parallel, sequential, "walks of {}", dir.display());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The parallel walk yields what the sequential one yields:
        /// subjects, collisions, warnings and directories, in order.
        #[test]
        fn the_parallel_walk_is_the_sequential_walk(
            entries in prop::collection::vec(entry(), 1..40)
        ) {
            let tmp = tempfile::tempdir().expect("tempdir");
            let root = tmp.path().canonicalize().expect("canonical").join("ws");
            let outside = tmp.path().canonicalize().expect("canonical").join("out");
            std::fs::create_dir_all(&outside).expect("mkdir");
            let dir = root.join("t");
            std::fs::create_dir_all(&dir).expect("mkdir");
            build(&dir, &outside, &entries);
            assert_same(&dir, &root);
        }
    }

    #[test]
    fn a_wide_deep_tree_and_odd_topic_directories_walk_the_same() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        // Enough directories that every thread takes some.
        for a in 0..20 {
            for b in 0..10 {
                let d = dir.join(format!("d{a}/e{b}"));
                std::fs::create_dir_all(&d).expect("mkdir");
                for c in 0..5 {
                    std::fs::write(d.join(format!("f{c}.md")), "x").expect("write");
                }
                // Same slug as f0.md: a collision.
                std::fs::write(d.join("f0.txt"), "x").expect("write");
            }
        }
        std::os::unix::fs::symlink(dir.join("d1"), dir.join("d0/link")).expect("symlink");
        std::os::unix::fs::symlink(&dir, dir.join("d2/e0/up")).expect("symlink");
        let (walk, dirs) = walk_subjects_and_dirs(&dir, &root);
        assert_eq!(walk.subjects.len(), 20 * 10 * 5 + 10 * 5);
        assert_eq!(walk.collisions.len(), 20 * 10 + 10);
        assert_eq!(walk.warnings.len(), 1, "{:?}", walk.warnings);
        assert_eq!(dirs.len(), 1 + 20 + 200 + 1 + 10);
        assert_same(&dir, &root);
        // The topic directory missing, a file, a symlink to a directory.
        assert_same(&root.join("missing"), &root);
        std::fs::write(root.join("file"), "x").expect("write");
        assert_same(&root.join("file"), &root);
        std::os::unix::fs::symlink(&dir, root.join("link")).expect("symlink");
        assert_same(&root.join("link"), &root);
    }
}
