//! Putting an edit on disk safely: the new bytes go to a temporary file
//! in the same directory (never readable by more people than the file, see
//! [`crate::edit::temp`]), are synced, and replace the file by `rename`,
//! so a crash leaves either the old or the new content. The file's
//! permissions (and, when allowed, owner) are kept; a symbolic link that
//! stays inside the workspace is written through, not replaced, and one
//! leading out is refused ([`crate::edit::place`]). A file whose bytes are no longer those
//! the caller read is never overwritten, and every write holds the
//! directory's lock ([`crate::edit::lock`]) from the read to the rename,
//! so concurrent jp-kb writers take turns instead of losing updates.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use jp_kb_fs::Dir;

use crate::edit::error::{SaveError, WriteError};
use crate::edit::lock::{DirLock, LOCK_TIMEOUT, lock_dir};
use crate::edit::ops::{Applied, Edit, apply};
use crate::edit::place::{Boundaries, Place};
use crate::edit::temp::{self, Like};

fn io_err<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(io::Error) -> WriteError + 'a {
    move |source| WriteError::Io {
        path: path.to_path_buf(),
        action,
        source,
    }
}

/// A place checked against `bounds`, with the directory it goes into
/// created and pinned ([`Place::pin`]): every step below goes through that
/// open directory.
struct Target {
    place: Place,
    dir: Dir,
    name: String,
}

impl Target {
    fn new(bounds: &Boundaries, path: &Path, create_dirs: bool) -> Result<Self, WriteError> {
        let place = bounds.resolve(path)?;
        if create_dirs {
            place.create_dirs()?;
        }
        let dir = place.pin()?;
        let name = place.name();
        Ok(Self { place, dir, name })
    }

    fn lock(&self, timeout: Duration) -> Result<DirLock, WriteError> {
        // Named as the person knows it, not as the pinned handle.
        lock_dir(&self.place.shown, self.place.dir(), &self.dir, timeout)
    }
}

/// Takes the write lock for the file at `path` (the lock of the directory
/// it really lies in), waiting up to [`LOCK_TIMEOUT`]. Every function here
/// that writes takes it itself; this is for callers that must keep others
/// out across several steps.
///
/// # Errors
/// `Locked` when another writer kept it for the whole wait; `Outside`;
/// `Io`.
pub fn lock(bounds: &Boundaries, path: &Path) -> Result<DirLock, WriteError> {
    lock_within(bounds, path, LOCK_TIMEOUT)
}

/// [`lock`] with a chosen wait.
///
/// # Errors
/// As [`lock`].
pub fn lock_within(
    bounds: &Boundaries,
    path: &Path,
    timeout: Duration,
) -> Result<DirLock, WriteError> {
    Target::new(bounds, path, false)?.lock(timeout)
}

/// The file's bytes, `None` when it does not exist. Read through the
/// guarded open ([`crate::content::Root`]): the file must resolve inside
/// `bounds` (no link out), be a regular file (a FIFO is refused without
/// blocking, a device is never read) and hold at most
/// [`crate::config::file::MAX_FILE_BYTES`].
///
/// # Errors
/// `Outside`; any read error other than "not found", naming the file.
pub fn read_contained(bounds: &Boundaries, path: &Path) -> Result<Option<Vec<u8>>, WriteError> {
    let place = bounds.resolve(path)?;
    let opened = match crate::content::Root::new(&place.root).open(&place.real) {
        Ok(opened) => opened,
        Err(crate::content::open::OpenError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(crate::content::open::OpenError::Outside) => {
            return Err(WriteError::Outside {
                path: path.to_path_buf(),
                target: fs::canonicalize(&place.real).unwrap_or(place.real),
            });
        }
        Err(crate::content::open::OpenError::NotRegular(kind)) => {
            return Err(io_err(path, "read the file")(not_regular(kind)));
        }
        Err(crate::content::open::OpenError::Io(e)) => {
            return Err(io_err(path, "read the file")(e));
        }
    };
    jp_kb_fs::read_within(
        opened.file,
        opened.size,
        crate::config::file::MAX_FILE_BYTES,
    )
    .map(Some)
    .map_err(io_err(path, "read the file"))
}

/// The bytes of the file `name` in the pinned directory, `None` when
/// missing. Only a regular file is read, opened without blocking and
/// never through a link (the place was resolved: a link at the name now
/// was swapped in since).
fn read_current(target: &Target) -> Result<Option<Vec<u8>>, WriteError> {
    let shown = &target.place.shown;
    let opened = match jp_kb_fs::open_regular_in(&target.dir, Path::new(&target.name)) {
        Ok(opened) => opened,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            let source = match jp_kb_fs::refusal(&e) {
                Some(jp_kb_fs::Refusal::NotRegular(kind)) => not_regular(kind.short()),
                Some(jp_kb_fs::Refusal::Link) => not_regular("a symlink"),
                _ => e,
            };
            return Err(io_err(shown, "read the file")(source));
        }
    };
    opened
        .read_to_vec(crate::config::file::MAX_FILE_BYTES)
        .map(Some)
        .map_err(io_err(shown, "read the file"))
}

fn not_regular(kind: &str) -> io::Error {
    let what = if kind == "not a regular file" {
        "not a regular file".to_owned()
    } else {
        format!("is {kind}, not a regular file")
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what}; jp-kb only edits regular files"),
    )
}

/// Replaces the file at `path` by `new`, atomically, creating the
/// directories it needs; `path` must resolve inside `bounds`
/// ([`crate::edit::place`]).
///
/// `expected_old` is what the caller read: `Some(bytes)` when the file
/// must still hold exactly these bytes, `None` when it must not exist yet.
/// Otherwise nothing is written and [`WriteError::Conflict`] is returned;
/// the caller re-reads and re-applies its edit. The check runs right
/// before the rename; a change landing in between those two system calls
/// cannot be detected.
///
/// # Errors
/// `Outside`; `Conflict` as above; `Io` naming the step that failed.
pub fn write_atomic(
    bounds: &Boundaries,
    path: &Path,
    expected_old: Option<&[u8]>,
    new: &[u8],
) -> Result<(), WriteError> {
    write_atomic_with_hook(bounds, path, expected_old, new, &mut || {})
}

/// [`write_atomic`] with `before_commit` called once the temporary file is
/// complete and synced, just before the content check and the rename.
/// Tests use it to change the file "concurrently".
///
/// # Errors
/// As [`write_atomic`].
#[doc(hidden)]
pub fn write_atomic_with_hook(
    bounds: &Boundaries,
    path: &Path,
    expected_old: Option<&[u8]>,
    new: &[u8],
    before_commit: &mut dyn FnMut(),
) -> Result<(), WriteError> {
    let target = Target::new(bounds, path, true)?;
    let _lock = target.lock(LOCK_TIMEOUT)?;
    write_locked(&target, expected_old, new, before_commit)
}

/// The write itself; the caller holds the lock. A symbolic link at the
/// file's own name that stays inside was resolved to its target by
/// [`Boundaries::resolve`], so the target is what gets replaced.
fn write_locked(
    target: &Target,
    expected_old: Option<&[u8]>,
    new: &[u8],
    before_commit: &mut dyn FnMut(),
) -> Result<(), WriteError> {
    let path = &target.place.shown;
    let (dir, name) = (&target.dir, target.name.as_str());
    temp::remove_leftovers(dir, name);
    let mut tmp = temp::create(dir, name, Like::of(dir, name))
        .map_err(io_err(path, "create a temporary file in its directory"))?;
    tmp.write_all(new)
        .map_err(io_err(path, "write the temporary file"))?;
    tmp.as_file()
        .sync_all()
        .map_err(io_err(path, "sync the temporary file"))?;
    before_commit();
    if read_current(target)?.as_deref() != expected_old {
        return Err(WriteError::Conflict { path: path.clone() });
    }
    tmp.persist(name)
        .map_err(io_err(path, "replace the file"))?;
    sync_dir(dir);
    Ok(())
}

/// Deletes the file if it still holds exactly `expected` (undoing the
/// creation of a file).
///
/// # Errors
/// `Conflict` when the content differs or the file is gone; `Outside`;
/// `Io`.
pub fn remove_checked(bounds: &Boundaries, path: &Path, expected: &[u8]) -> Result<(), WriteError> {
    let target = Target::new(bounds, path, false)?;
    let _lock = target.lock(LOCK_TIMEOUT)?;
    if read_current(&target)?.as_deref() != Some(expected) {
        return Err(WriteError::Conflict {
            path: path.to_path_buf(),
        });
    }
    target
        .dir
        .remove_file(&target.name)
        .map_err(io_err(path, "remove the file"))?;
    sync_dir(&target.dir);
    Ok(())
}

/// Makes the rename durable. The file already holds the new content when
/// this runs, so a failure here (some file systems refuse to sync a
/// directory) is not reported as a failed write.
fn sync_dir(dir: &Dir) {
    let _ = jp_kb_fs::sync_dir(dir);
}

/// What [`save`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Saved {
    /// The file.
    pub path: PathBuf,
    /// Its new text, whether it changed, and the summary.
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
pub fn save(bounds: &Boundaries, path: &Path, edit: &Edit) -> Result<Saved, SaveError> {
    save_with_hook(bounds, path, edit, &mut |_| {})
}

/// [`save`] with [`crate::edit::apply_declaring`]: an addition to a topic
/// the file does not define declares it there first.
///
/// # Errors
/// As [`save`].
pub fn save_declaring(bounds: &Boundaries, path: &Path, edit: &Edit) -> Result<Saved, SaveError> {
    save_impl(
        bounds,
        path,
        edit,
        &mut |_| {},
        crate::edit::ops::apply_declaring,
    )
}

/// [`save`] with a hook run before each write's commit, given the attempt
/// number (1 or 2).
///
/// # Errors
/// As [`save`].
#[doc(hidden)]
pub fn save_with_hook(
    bounds: &Boundaries,
    path: &Path,
    edit: &Edit,
    hook: &mut dyn FnMut(u8),
) -> Result<Saved, SaveError> {
    save_impl(bounds, path, edit, hook, apply)
}

/// [`save`] with any computation of the new text from the current one
/// (the TUI applies several edits as one step). The lock is held from the
/// read to the rename, so `compute` sees the bytes that get replaced.
///
/// # Errors
/// As [`save`].
pub fn save_with(
    bounds: &Boundaries,
    path: &Path,
    compute: &mut dyn FnMut(&str) -> Result<Applied, crate::edit::EditError>,
) -> Result<Saved, SaveError> {
    save_locked(bounds, path, compute, &mut |_| {})
}

fn save_impl(
    bounds: &Boundaries,
    path: &Path,
    edit: &Edit,
    hook: &mut dyn FnMut(u8),
    apply: fn(&str, &Edit) -> Result<Applied, crate::edit::EditError>,
) -> Result<Saved, SaveError> {
    save_locked(bounds, path, &mut |source| apply(source, edit), hook)
}

/// Read, apply, write under the lock. The lock keeps other jp-kb writers
/// out; the content check before the rename still catches any other
/// program, and then the file is re-read and the edit re-applied once.
fn save_locked(
    bounds: &Boundaries,
    path: &Path,
    compute: &mut dyn FnMut(&str) -> Result<Applied, crate::edit::EditError>,
    hook: &mut dyn FnMut(u8),
) -> Result<Saved, SaveError> {
    // A file created in a directory that does not exist yet gets the
    // directory (the layer picker offers the user-workspace `kb.toml`,
    // whose directory JP creates only when it first needs it). Undo
    // removes the file and leaves the directory, as JP would have made it
    // anyway.
    let target = Target::new(bounds, path, true).map_err(SaveError::Write)?;
    let _lock = target.lock(LOCK_TIMEOUT).map_err(SaveError::Write)?;
    for attempt in 1..=2u8 {
        let before = read_current(&target).map_err(|e| match e {
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
        crate::edit::valid::parses(path, &applied.text).map_err(edit_err)?;
        let after = applied.text.as_bytes().to_vec();
        match write_locked(&target, before.as_deref(), &after, &mut || hook(attempt)) {
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
