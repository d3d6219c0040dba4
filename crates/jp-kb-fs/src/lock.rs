//! A directory's lock, held by every jp-kb writer of a file in it (an
//! edit from read to rename, a ledger append, a compaction), so two
//! writers take turns instead of one silently dropping the other's work.
//!
//! The lock is `flock` on a lock file in the directory, `.jp-kb.lock`,
//! created owner-only (0600) while it is held and removed by its holder
//! when it lets go. `flock` on the directory itself (the lock until issue
//! 35) could be taken by anyone who can *read* the directory, so another
//! user could make every edit of a shared checkout fail; the lock file
//! needs write access to be made, and being 0600 only its owner (or root)
//! can open it again. A lock file someone else could open (a checkout of
//! a repository that committed one, a file another tool made) is not
//! trusted when it is ours: it is replaced by a fresh one. Another user's
//! lock file is theirs: they could write here, so they may hold the lock,
//! and a writer that waited for them in vain says so ([`Holder`]).
//!
//! The lock dies with its process (a killed writer leaves at most an
//! unlocked file, taken and removed by the next writer). Removing the file
//! while others wait on it is safe: a waiter that gets the lock of a file
//! no longer at the name lets go and tries again (the classic `flock` +
//! `unlink` protocol). It is advisory: editors and other tools ignore it;
//! the writers' content check before their rename still catches them.
//! Where the file system has no `flock`, or no lock file can be made (a
//! read-only directory), writers go on without it and their own steps say
//! what fails. Off Unix there is no lock.

use std::fmt;
use std::io;
use std::time::{Duration, Instant};

pub use crate::holder::Holder;

/// The lock file's name in the locked directory.
pub const LOCK_FILE: &str = ".jp-kb.lock";

/// A held lock, released (and its file removed) when dropped, or when the
/// process dies.
#[derive(Debug)]
pub struct DirLock {
    /// `None`: going on without a lock (see the module docs).
    #[cfg(unix)]
    held: Option<unix::Held>,
}

impl DirLock {
    /// Whether a lock is really held (false where locks are not
    /// supported).
    pub fn is_held(&self) -> bool {
        #[cfg(unix)]
        return self.held.is_some();
        #[cfg(not(unix))]
        false
    }
}

/// Why a lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Someone held it for the whole wait.
    Held {
        waited: Duration,
        /// Who may hold it, where that can be known.
        holder: Option<Holder>,
    },
    /// The lock file cannot be used (a link or a FIFO put there, an I/O
    /// error).
    Io(io::Error),
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Held { waited, holder } => {
                write!(f, "held for {:.1} s", waited.as_secs_f64())?;
                match holder {
                    Some(holder) => write!(f, " by {holder}"),
                    None => Ok(()),
                }
            }
            Self::Io(e) => write!(f, "{LOCK_FILE}: {e}"),
        }
    }
}

impl std::error::Error for LockError {}

/// Locks the directory `dir` (an open handle: the lock is taken in the
/// very directory the caller writes into), waiting up to `timeout` for a
/// holder to let go. The wait polls, from 1 ms up to 50 ms apart: short
/// waits stay short, and a deadline needs no signals.
///
/// # Errors
/// [`LockError::Held`] after `timeout`; [`LockError::Io`].
pub fn lock_dir(dir: &cap_std::fs::Dir, timeout: Duration) -> Result<DirLock, LockError> {
    #[cfg(unix)]
    {
        use rustix::fd::AsFd as _;
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match unix::attempt(dir.as_fd()).map_err(LockError::Io)? {
                unix::Attempt::Held(held) => return Ok(DirLock { held: Some(held) }),
                unix::Attempt::Unsupported => return Ok(DirLock { held: None }),
                // The file changed under us: at once again.
                unix::Attempt::Retry if start.elapsed() < timeout => continue,
                unix::Attempt::Retry | unix::Attempt::Busy => {}
            }
            let waited = start.elapsed();
            if waited >= timeout {
                return Err(LockError::Held {
                    waited,
                    holder: crate::holder::find(dir.as_fd(), LOCK_FILE),
                });
            }
            std::thread::sleep(pause.min(timeout.saturating_sub(waited)));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (dir, timeout, Instant::now());
        Ok(DirLock {})
    }
}

#[cfg(unix)]
mod unix {
    use std::io;

    use rustix::fd::{AsFd as _, BorrowedFd, OwnedFd};
    use rustix::fs::{AtFlags, FileType, FlockOperation, Mode, OFlags, Stat};
    use rustix::io::Errno;

    use super::LOCK_FILE;
    use crate::kind::FileKind;
    use crate::refusal::Refusal;

    /// The lock file, locked, and the directory it is in.
    #[derive(Debug)]
    pub(super) struct Held {
        dir: OwnedFd,
        file: OwnedFd,
    }

    impl Drop for Held {
        /// Removes the file (while still holding its lock) when it is
        /// still the one at the name; closing it then lets go.
        fn drop(&mut self) {
            if let Ok(stat) = rustix::fs::fstat(&self.file)
                && at_name(self.dir.as_fd(), &stat)
            {
                let _ = rustix::fs::unlinkat(&self.dir, LOCK_FILE, AtFlags::empty());
            }
        }
    }

    pub(super) enum Attempt {
        Held(Held),
        /// Someone holds it.
        Busy,
        /// The file at the name changed: try again at once.
        Retry,
        /// No lock can be had here.
        Unsupported,
    }

    pub(super) fn attempt(dir: BorrowedFd<'_>) -> io::Result<Attempt> {
        let flags = OFlags::RDWR
            | OFlags::CREATE
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::NOCTTY
            | OFlags::CLOEXEC;
        let file = match rustix::fs::openat(dir, LOCK_FILE, flags, Mode::RUSR | Mode::WUSR) {
            Ok(file) => file,
            // Another user's lock file (0600): theirs while it is there.
            Err(Errno::ACCESS | Errno::PERM) if exists(dir) => return Ok(Attempt::Busy),
            Err(Errno::INTR) => return Ok(Attempt::Retry),
            Err(Errno::LOOP) => return Err(Refusal::Link.into()),
            // No lock file can be made here (no write access, a read-only
            // or special file system, a full disk): go on without; the
            // write's own steps fail and say why, if they must.
            Err(_) => return Ok(Attempt::Unsupported),
        };
        let stat = rustix::fs::fstat(&file)?;
        let kind = FileType::from_raw_mode(stat.st_mode);
        if kind != FileType::RegularFile {
            return Err(Refusal::NotRegular(kind_of(kind)).into());
        }
        // Ours, yet others may open it: not a file jp-kb made. Whoever has
        // it open could hold it; a fresh one is made instead.
        if stat.st_uid == rustix::process::geteuid().as_raw() && stat.st_mode & 0o077 != 0 {
            if at_name(dir, &stat) {
                rustix::fs::unlinkat(dir, LOCK_FILE, AtFlags::empty())?;
            }
            return Ok(Attempt::Retry);
        }
        match rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(Errno::WOULDBLOCK | Errno::INTR) => return Ok(Attempt::Busy),
            // No flock on this file system (some network ones).
            Err(_) => return Ok(Attempt::Unsupported),
        }
        // Its last holder removed it while we waited: the lock is whatever
        // file is at the name now.
        if !at_name(dir, &stat) {
            return Ok(Attempt::Retry);
        }
        // Who holds it, for a writer that waits in vain (best effort).
        let pid = format!("{}\n", std::process::id());
        if rustix::fs::ftruncate(&file, 0).is_ok() {
            let _ = rustix::io::pwrite(&file, pid.as_bytes(), 0);
        }
        let dir = rustix::io::fcntl_dupfd_cloexec(dir, 0)?;
        Ok(Attempt::Held(Held { dir, file }))
    }

    fn exists(dir: BorrowedFd<'_>) -> bool {
        rustix::fs::statat(dir, LOCK_FILE, AtFlags::SYMLINK_NOFOLLOW).is_ok()
    }

    /// Whether the file at the name is the file `stat` describes.
    fn at_name(dir: BorrowedFd<'_>, stat: &Stat) -> bool {
        rustix::fs::statat(dir, LOCK_FILE, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|now| (now.st_dev, now.st_ino) == (stat.st_dev, stat.st_ino))
    }

    fn kind_of(kind: FileType) -> FileKind {
        match kind {
            FileType::Directory => FileKind::Directory,
            FileType::Fifo => FileKind::Fifo,
            FileType::Socket => FileKind::Socket,
            FileType::CharacterDevice => FileKind::CharDevice,
            FileType::BlockDevice => FileKind::BlockDevice,
            FileType::Symlink => FileKind::Symlink,
            _ => FileKind::Other,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn dir(path: &std::path::Path) -> cap_std::fs::Dir {
        cap_std::fs::Dir::open_ambient_dir(path, cap_std::ambient_authority()).unwrap()
    }

    #[test]
    fn one_holder_at_a_time_across_threads_and_nothing_left_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let counter = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..50 {
                        let lock = lock_dir(&dir(tmp.path()), Duration::from_secs(10)).unwrap();
                        assert!(lock.is_held());
                        // Nobody else inside.
                        assert_eq!(counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst), 0);
                        counter.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                        drop(lock);
                    }
                });
            }
        });
        assert!(!tmp.path().join(LOCK_FILE).exists());
    }

    #[test]
    fn a_held_lock_times_out_naming_this_process() {
        let tmp = tempfile::tempdir().unwrap();
        let held = lock_dir(&dir(tmp.path()), Duration::from_secs(1)).unwrap();
        let mode = std::fs::metadata(tmp.path().join(LOCK_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let err = lock_dir(&dir(tmp.path()), Duration::from_millis(100)).unwrap_err();
        let LockError::Held { waited, holder } = &err else {
            panic!("{err}");
        };
        assert!(*waited >= Duration::from_millis(100));
        let holder = holder.as_ref().unwrap();
        assert_eq!(holder.pid, Some(std::process::id()), "{holder}");
        assert!(
            err.to_string()
                .contains(&format!("by process {}", std::process::id()))
        );
        drop(held);
        assert!(lock_dir(&dir(tmp.path()), Duration::ZERO).is_ok());
    }

    #[test]
    fn a_lock_file_others_could_open_is_replaced_and_a_link_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(LOCK_FILE);
        std::fs::write(&path, "").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        // Held through the old file by someone who opened it.
        let other = std::fs::File::open(&path).unwrap();
        rustix::fs::flock(&other, rustix::fs::FlockOperation::LockExclusive).unwrap();
        let lock = lock_dir(&dir(tmp.path()), Duration::from_millis(200)).unwrap();
        assert!(lock.is_held());
        drop(lock);
        std::os::unix::fs::symlink("/etc/passwd", &path).unwrap();
        let err = lock_dir(&dir(tmp.path()), Duration::from_millis(100)).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }

    #[test]
    fn a_left_over_unlocked_file_is_taken() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(LOCK_FILE);
        std::fs::write(&path, "4194305\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let lock = lock_dir(&dir(tmp.path()), Duration::ZERO).unwrap();
        assert!(lock.is_held());
        drop(lock);
        assert!(!path.exists());
    }
}
