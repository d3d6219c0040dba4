//! The advisory lock every jp-kb write holds around read–apply–write, so
//! two jp-kb processes (or a CLI and the TUI) never both save on top of
//! the same old bytes and silently drop one addition.
//!
//! What is locked is the *directory* holding the file (`flock` on an open
//! directory), not the file: the file is replaced by `rename`, so a lock on
//! it would be held on an inode that is no longer the file once the first
//! writer commits (the next writer opens the new inode and is let in while
//! the first is still working). A sibling lock file would survive the
//! rename, but it would be a new, permanent file in the user's `.jp/`
//! (showing in `git status`, and watched by the TUI) that can never be
//! deleted safely. The directory is already there, already opened to sync
//! the rename, and its lock dies with the process: a killed writer never
//! leaves a stale lock. Cost: one lock per directory, so edits of two
//! files in one directory take turns — they take milliseconds.
//!
//! The lock is advisory: editors and older jp-kb versions ignore it; the
//! content check right before the rename still catches them.

use std::fs::File;
use std::path::Path;
use std::time::Duration;

use crate::edit::error::WriteError;

/// How long a writer waits for another to finish before giving up.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// An exclusive lock on a directory, released when dropped (or when the
/// process dies).
#[derive(Debug)]
pub struct DirLock {
    /// `None`: the file system does not support the lock (some network
    /// file systems refuse `flock` on a directory); writes then rely on the
    /// content check alone, as before locking existed.
    _dir: Option<File>,
}

/// Locks `dir`, waiting up to `timeout` for another writer to let go.
///
/// # Errors
/// `Locked` after `timeout`; `Io` when the directory cannot be opened.
/// `file` is the path named in the error.
pub fn lock_dir(file: &Path, dir: &Path, timeout: Duration) -> Result<DirLock, WriteError> {
    imp::lock(file, dir, timeout)
}

#[cfg(unix)]
mod imp {
    use std::fs::File;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use rustix::fs::{FlockOperation, flock};
    use rustix::io::Errno;

    use super::{DirLock, WriteError};

    fn dir_shown(dir: &Path) -> PathBuf {
        if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir.to_path_buf()
        }
    }

    /// Polls with a non-blocking `flock`, so the wait has a deadline
    /// (a blocking `flock` cannot time out without signals). The poll
    /// interval grows from 1 ms to 50 ms: short waits stay short.
    pub(super) fn lock(file: &Path, dir: &Path, timeout: Duration) -> Result<DirLock, WriteError> {
        let dir_path = dir_shown(dir);
        let dir = File::open(&dir_path).map_err(|source| WriteError::Io {
            path: file.to_path_buf(),
            action: "open its directory to lock it",
            source,
        })?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match flock(&dir, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => return Ok(DirLock { _dir: Some(dir) }),
                Err(Errno::WOULDBLOCK | Errno::INTR) => {}
                // Not supported here (EBADF/ENOLCK/EOPNOTSUPP on some
                // network file systems): go on without the lock.
                Err(_) => return Ok(DirLock { _dir: None }),
            }
            let waited = start.elapsed();
            if waited >= timeout {
                return Err(WriteError::Locked {
                    path: file.to_path_buf(),
                    dir: dir_path,
                    waited,
                });
            }
            std::thread::sleep(pause.min(timeout.saturating_sub(waited)));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::{DirLock, Duration, Path, WriteError};

    /// No directory lock off Unix (a directory cannot be opened there like
    /// a file): the content check alone guards writes.
    pub(super) fn lock(
        _file: &Path,
        _dir: &Path,
        _timeout: Duration,
    ) -> Result<DirLock, WriteError> {
        Ok(DirLock { _dir: None })
    }
}
