//! Putting an edit on disk safely: the new bytes go to a temporary file
//! in the same directory, are synced, and replace the file by `rename`, so
//! a crash leaves either the old or the new content. The file's
//! permissions (and, when allowed, owner) are kept; a symbolic link is
//! written through, not replaced. A file whose bytes are no longer those
//! the caller read is never overwritten.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::edit::error::{SaveError, WriteError};
use crate::edit::ops::{Applied, Edit, apply};

fn io_err<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(io::Error) -> WriteError + 'a {
    move |source| WriteError::Io {
        path: path.to_path_buf(),
        action,
        source,
    }
}

/// The file's bytes, `None` when it does not exist.
///
/// # Errors
/// Any read error other than "not found".
pub fn read_current(path: &Path) -> Result<Option<Vec<u8>>, WriteError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(path, "read the file")(e)),
    }
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
    let target = resolve_link(path)?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".jp-kb.tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // Subject to the umask, like any newly created file.
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(&dir)
        .map_err(io_err(path, "create a temporary file in its directory"))?;
    tmp.write_all(new)
        .map_err(io_err(path, "write the temporary file"))?;
    tmp.as_file()
        .sync_all()
        .map_err(io_err(path, "sync the temporary file"))?;
    if let Ok(meta) = fs::metadata(&target) {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(io_err(path, "copy the file's permissions"))?;
        keep_owner(tmp.as_file(), &meta);
    }
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

/// A symbolic link is written through: its target is replaced.
fn resolve_link(path: &Path) -> Result<PathBuf, WriteError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(io_err(path, "follow the symbolic link"))
        }
        _ => Ok(path.to_path_buf()),
    }
}

#[cfg(unix)]
fn keep_owner(file: &fs::File, meta: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt as _;
    let same = file
        .metadata()
        .is_ok_and(|m| m.uid() == meta.uid() && m.gid() == meta.gid());
    if !same {
        // Only root may give a file away; otherwise the new file is ours,
        // as with any editor that saves by renaming.
        let _ = std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &fs::File, _meta: &fs::Metadata) {}

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
    for attempt in 1..=2u8 {
        let before = read_current(path).map_err(|e| match e {
            WriteError::Io { source, .. } => SaveError::Read {
                path: path.to_path_buf(),
                source,
            },
            other @ WriteError::Conflict { .. } => SaveError::Write(other),
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
        let applied = apply(source, edit).map_err(edit_err)?;
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
        match write_atomic_with_hook(path, before.as_deref(), &after, &mut || hook(attempt)) {
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
