//! Putting an edit on disk safely: the new bytes go to a temporary file
//! in the same directory (never readable by more people than the file, see
//! [`crate::edit::temp`]), are synced, and replace the file by `rename`,
//! so a crash leaves either the old or the new content. The file's
//! permissions (and, when allowed, owner) are kept; a symbolic link is
//! written through, not replaced. A file whose bytes are no longer those
//! the caller read is never overwritten, and every write holds the
//! directory's lock ([`crate::edit::lock`]) from the read to the rename,
//! so concurrent jp-kb writers take turns instead of losing updates.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::edit::error::{SaveError, WriteError};
use crate::edit::lock::{DirLock, LOCK_TIMEOUT, lock_dir};
use crate::edit::ops::{Applied, Edit, apply};
use crate::edit::temp;

fn io_err<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(io::Error) -> WriteError + 'a {
    move |source| WriteError::Io {
        path: path.to_path_buf(),
        action,
        source,
    }
}

/// Takes the write lock for the file at `path` (the lock of the directory
/// holding it, or holding its symbolic link's target), waiting up to
/// [`LOCK_TIMEOUT`]. Every function here that writes takes it itself; this
/// is for callers that must keep others out across several steps.
///
/// # Errors
/// `Locked` when another writer kept it for the whole wait; `Io`.
pub fn lock(path: &Path) -> Result<DirLock, WriteError> {
    lock_within(path, LOCK_TIMEOUT)
}

/// [`lock`] with a chosen wait.
///
/// # Errors
/// As [`lock`].
pub fn lock_within(path: &Path, timeout: Duration) -> Result<DirLock, WriteError> {
    let target = resolve_link(path)?;
    lock_dir(path, &parent_dir(&target), timeout)
}

fn parent_dir(target: &Path) -> PathBuf {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file's bytes, `None` when it does not exist.
///
/// # Errors
/// Any read error other than "not found".
pub fn read_current(path: &Path) -> Result<Option<Vec<u8>>, WriteError> {
    match read_regular(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(path, "read the file")(e)),
    }
}

/// Reads a regular file. Anything else (a FIFO, a device, a directory) is
/// refused before it is opened, and again from the open handle in case the
/// path was swapped meanwhile; that open never blocks: a FIFO is opened
/// non-blocking, so no writer has to appear at its other end.
fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(not_regular());
    }
    crate::config::file::read_checked_open(path, |meta| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(not_regular())
        }
    })
}

fn not_regular() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "not a regular file; jp-kb only edits regular files",
    )
}

/// Replaces the file at `path` by `new`, atomically.
///
/// `expected_old` is what the caller read: `Some(bytes)` when the file
/// must still hold exactly these bytes, `None` when it must not exist yet.
/// Otherwise nothing is written and [`WriteError::Conflict`] is returned;
/// the caller re-reads and re-applies its edit. The check runs right
/// before the rename; a change landing in between those two system calls
/// cannot be detected.
///
/// # Errors
/// `Conflict` as above; `Io` naming the step that failed.
pub fn write_atomic(
    path: &Path,
    expected_old: Option<&[u8]>,
    new: &[u8],
) -> Result<(), WriteError> {
    write_atomic_with_hook(path, expected_old, new, &mut || {})
}

/// [`write_atomic`] with `before_commit` called once the temporary file is
/// complete and synced, just before the content check and the rename.
/// Tests use it to change the file "concurrently".
///
/// # Errors
/// As [`write_atomic`].
#[doc(hidden)]
pub fn write_atomic_with_hook(
    path: &Path,
    expected_old: Option<&[u8]>,
    new: &[u8],
    before_commit: &mut dyn FnMut(),
) -> Result<(), WriteError> {
    let _lock = lock(path)?;
    write_locked(path, expected_old, new, before_commit)
}

/// The write itself; the caller holds the lock.
fn write_locked(
    path: &Path,
    expected_old: Option<&[u8]>,
    new: &[u8],
    before_commit: &mut dyn FnMut(),
) -> Result<(), WriteError> {
    let target = resolve_link(path)?;
    let dir = parent_dir(&target);
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    temp::remove_leftovers(&dir, &name);
    let like = fs::metadata(&target).ok().filter(fs::Metadata::is_file);
    let mut tmp = temp::create(&dir, &name, like.as_ref())
        .map_err(io_err(path, "create a temporary file in its directory"))?;
    tmp.write_all(new)
        .map_err(io_err(path, "write the temporary file"))?;
    tmp.as_file()
        .sync_all()
        .map_err(io_err(path, "sync the temporary file"))?;
    before_commit();
    if read_current(&target)?.as_deref() != expected_old {
        return Err(WriteError::Conflict {
            path: path.to_path_buf(),
        });
    }
    tmp.persist(&target)
        .map_err(|e| io_err(path, "replace the file")(e.error))?;
    sync_dir(&dir);
    Ok(())
}

/// Deletes the file if it still holds exactly `expected` (undoing the
/// creation of a file).
///
/// # Errors
/// `Conflict` when the content differs or the file is gone; `Io`.
pub fn remove_checked(path: &Path, expected: &[u8]) -> Result<(), WriteError> {
    let _lock = lock(path)?;
    if read_current(path)?.as_deref() != Some(expected) {
        return Err(WriteError::Conflict {
            path: path.to_path_buf(),
        });
    }
    fs::remove_file(path).map_err(io_err(path, "remove the file"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        sync_dir(dir);
    }
    Ok(())
}

/// A file created in a directory that does not exist yet gets the
/// directory (the layer picker offers the user-workspace `kb.toml`, whose
/// directory JP creates only when it first needs it). Undo removes the
/// file and leaves the directory, as JP would have made it anyway.
fn create_parent(path: &Path) -> Result<(), WriteError> {
    let dir = parent_dir(&resolve_link(path)?);
    if fs::symlink_metadata(&dir).is_err() {
        fs::create_dir_all(&dir).map_err(io_err(path, "create its directory"))?;
    }
    Ok(())
}

/// A symbolic link is written through: its target is replaced.
fn resolve_link(path: &Path) -> Result<PathBuf, WriteError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(io_err(path, "follow the symbolic link"))
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// Makes the rename durable. The file already holds the new content when
/// this runs, so a failure here (some file systems refuse to sync a
/// directory) is not reported as a failed write.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// What [`save`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub path: PathBuf,
    pub applied: Applied,
    /// The file's bytes before (`None`: it did not exist).
    pub before: Option<Vec<u8>>,
    /// The file's bytes after (equal to `before` when nothing changed).
    pub after: Vec<u8>,
}

/// Reads `path` (a missing file reads as empty), applies `edit`, and
/// writes the result atomically when it changed anything. If the file
/// changes meanwhile, it is re-read and the edit re-applied once; a second
/// change is refused with [`SaveError::Conflict`]. A result that does not
/// parse is never written.
///
/// # Errors
/// `Read`, `NotUtf8`, `Edit` (with the path), `Conflict`, `Write`.
pub fn save(path: &Path, edit: &Edit) -> Result<Saved, SaveError> {
    save_with_hook(path, edit, &mut |_| {})
}

/// [`save`] with [`crate::edit::apply_declaring`]: an addition to a topic
/// the file does not define declares it there first.
///
/// # Errors
/// As [`save`].
pub fn save_declaring(path: &Path, edit: &Edit) -> Result<Saved, SaveError> {
    save_impl(path, edit, &mut |_| {}, crate::edit::ops::apply_declaring)
}

/// [`save`] with a hook run before each write's commit, given the attempt
/// number (1 or 2).
///
/// # Errors
/// As [`save`].
#[doc(hidden)]
pub fn save_with_hook(
    path: &Path,
    edit: &Edit,
    hook: &mut dyn FnMut(u8),
) -> Result<Saved, SaveError> {
    save_impl(path, edit, hook, apply)
}

/// [`save`] with any computation of the new text from the current one
/// (the TUI applies several edits as one step). The lock is held from the
/// read to the rename, so `compute` sees the bytes that get replaced.
///
/// # Errors
/// As [`save`].
pub fn save_with(
    path: &Path,
    compute: &mut dyn FnMut(&str) -> Result<Applied, crate::edit::EditError>,
) -> Result<Saved, SaveError> {
    save_locked(path, compute, &mut |_| {})
}

fn save_impl(
    path: &Path,
    edit: &Edit,
    hook: &mut dyn FnMut(u8),
    apply: fn(&str, &Edit) -> Result<Applied, crate::edit::EditError>,
) -> Result<Saved, SaveError> {
    save_locked(path, &mut |source| apply(source, edit), hook)
}

/// Read, apply, write under the lock. The lock keeps other jp-kb writers
/// out; the content check before the rename still catches any other
/// program, and then the file is re-read and the edit re-applied once.
fn save_locked(
    path: &Path,
    compute: &mut dyn FnMut(&str) -> Result<Applied, crate::edit::EditError>,
    hook: &mut dyn FnMut(u8),
) -> Result<Saved, SaveError> {
    create_parent(path).map_err(SaveError::Write)?;
    let _lock = lock(path).map_err(SaveError::Write)?;
    for attempt in 1..=2u8 {
        let before = read_current(path).map_err(|e| match e {
            WriteError::Io { source, .. } => SaveError::Read {
                path: path.to_path_buf(),
                source,
            },
            other => SaveError::Write(other),
        })?;
        let source = match &before {
            Some(bytes) => std::str::from_utf8(bytes).map_err(|_| SaveError::NotUtf8 {
                path: path.to_path_buf(),
            })?,
            None => "",
        };
        let edit_err = |source| SaveError::Edit {
            path: path.to_path_buf(),
            source,
        };
        let applied = compute(source).map_err(edit_err)?;
        if !applied.changed {
            let after = before.clone().unwrap_or_default();
            return Ok(Saved {
                path: path.to_path_buf(),
                applied,
                before,
                after,
            });
        }
        crate::edit::locate::parse_document(&applied.text).map_err(edit_err)?;
        let after = applied.text.as_bytes().to_vec();
        match write_locked(path, before.as_deref(), &after, &mut || hook(attempt)) {
            Ok(()) => {
                return Ok(Saved {
                    path: path.to_path_buf(),
                    applied,
                    before,
                    after,
                });
            }
            Err(WriteError::Conflict { .. }) if attempt == 1 => {}
            Err(WriteError::Conflict { .. }) => {
                return Err(SaveError::Conflict {
                    path: path.to_path_buf(),
                });
            }
            Err(e) => return Err(SaveError::Write(e)),
        }
    }
    Err(SaveError::Conflict {
        path: path.to_path_buf(),
    })
}
