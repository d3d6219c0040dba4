//! The sizes and times of a listing's subjects, read after it (one
//! `stat` each, on all cores): what turns a listing
//! ([`list_subjects`](super::listing::list_subjects)) into the walk of
//! the same tree without listing its directories and building its
//! subjects a second time. Used by [`WatchedWalks`](super::WatchedWalks)
//! when the TUI listed a topic for its first frame.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::subject::Subject;
use super::walk::WalkResult;
use super::walk_result::modified_ns;
use super::walker::MAX_THREADS;

/// Below this many subjects the sizes are read on one thread.
const ONE_THREAD: usize = 1024;

/// `listed` (a listing, whose walk followed `links`) with every
/// subject's size and time read, as [`walk_subjects`](super::walk_subjects)
/// reads them: a regular file without following it, a symbolic link
/// (which the listing checked) through it. `None` when a file is gone or
/// no longer what the listing saw (the caller walks again: a walk wins
/// over a listing).
pub(super) fn read_sizes(listed: &WalkResult, links: &[PathBuf]) -> Option<WalkResult> {
    let links: HashSet<&Path> = links.iter().map(PathBuf::as_path).collect();
    let all = &listed.subjects;
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .clamp(1, MAX_THREADS);
    // A small topic on this thread alone (a thread costs more).
    let chunk = if all.len() < ONE_THREAD {
        all.len().max(1)
    } else {
        all.len().div_ceil(threads)
    };
    let mut parts = all.chunks(chunk);
    let first = parts.next().unwrap_or_default();
    let subjects = std::thread::scope(|scope| {
        let helpers: Vec<_> = parts
            .map(|part| scope.spawn(|| sized(part, &links)))
            .collect();
        let mut subjects = sized(first, &links)?;
        for helper in helpers {
            // A helper's panic is this thread's.
            let part = helper
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            subjects.extend(part);
        }
        Some(subjects)
    })?;
    Some(WalkResult {
        subjects,
        collisions: listed.collisions.clone(),
        warnings: listed.warnings.clone(),
    })
}

/// `part` with sizes and times (`None`: one could not be read).
fn sized(part: &[Subject], links: &HashSet<&Path>) -> Option<Vec<Subject>> {
    let mut out = part.to_vec();
    let mut dir = DirHandle::default();
    for subject in &mut out {
        let path = subject.path();
        let (bytes, modified) = if links.contains(path) {
            let meta = std::fs::metadata(path).ok()?;
            if !meta.is_file() {
                return None;
            }
            (meta.len(), modified_ns(&meta))
        } else {
            dir.stamp(path)?
        };
        subject.bytes = bytes;
        subject.modified = modified;
    }
    Some(out)
}

/// The directory of the last file read, open (subjects come sorted by
/// slug, so mostly a directory at a time): each file is `stat`ed
/// relative to it, as the walk does.
#[derive(Default)]
struct DirHandle {
    #[cfg(unix)]
    open: Option<(PathBuf, rustix::fd::OwnedFd)>,
}

impl DirHandle {
    /// Size and time of the regular file at `path` (not followed).
    #[cfg(unix)]
    fn stamp(&mut self, path: &Path) -> Option<(u64, i64)> {
        use rustix::fs::{AtFlags, FileType, Mode, OFlags};
        let (parent, name) = (path.parent()?, path.file_name()?);
        if self.open.as_ref().is_none_or(|(p, _)| p != parent) {
            let fd = rustix::fs::open(
                parent,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .ok()?;
            self.open = Some((parent.to_path_buf(), fd));
        }
        let (_, fd) = self.open.as_ref()?;
        let stat = rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        (FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile)
            .then(|| super::walker::stamp_of(&stat))
    }

    #[cfg(not(unix))]
    fn stamp(&mut self, path: &Path) -> Option<(u64, i64)> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        meta.is_file().then(|| (meta.len(), modified_ns(&meta)))
    }
}
