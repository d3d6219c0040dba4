//! The advisory lock every jp-kb write holds around read–apply–write, so
//! two jp-kb processes (or a CLI and the TUI) never both save on top of
//! the same old bytes and silently drop one addition.
//!
//! What is locked is the *directory* holding the file, not the file: the
//! file is replaced by `rename`, so a lock on it would be held on an inode
//! that is no longer the file once the first writer commits. The lock is
//! [`jp_kb_fs::lock_dir`]'s: a lock file in the directory that only
//! someone who may write there can make or hold (a reader of `.jp/` could
//! hold the old `flock` on the directory itself and make every edit fail),
//! removed when its holder lets go, and dead with its process. Edits of
//! two files in one directory take turns — they take milliseconds.
//!
//! The lock is advisory: editors and older jp-kb versions ignore it; the
//! content check right before the rename still catches them.

use std::path::Path;
use std::time::Duration;

pub use jp_kb_fs::DirLock;
use jp_kb_fs::{Dir, LockError};

use crate::edit::error::WriteError;

/// How long a writer waits for another to finish before giving up.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// Locks the open directory `dir` (`shown`: its path as the person knows
/// it), waiting up to `timeout` for another writer to let go. `file` is
/// the path named in the error.
///
/// # Errors
/// `Locked` after `timeout`, saying who may hold it; `Io` when the lock
/// file cannot be used.
pub fn lock_dir(
    file: &Path,
    shown: &Path,
    dir: &Dir,
    timeout: Duration,
) -> Result<DirLock, WriteError> {
    jp_kb_fs::lock_dir(dir, timeout).map_err(|e| match e {
        LockError::Held { waited, holder } => WriteError::Locked {
            path: file.to_path_buf(),
            dir: shown.to_path_buf(),
            waited,
            holder: holder.map(Box::new),
        },
        LockError::Io(source) => WriteError::Io {
            path: file.to_path_buf(),
            action: "take its directory's lock (.jp-kb.lock)",
            source,
        },
    })
}
