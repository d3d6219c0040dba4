//! Symbolic links jp-kb creates (`init` adopting a file in place: a link
//! in `.jp/kb/<topic>/` to the file where it lives), under the same
//! containment as every write ([`crate::edit::place`]): the link's
//! directory must resolve, with every directory on its path, inside the
//! boundaries, and is pinned before the link is made. A link is created
//! with `symlink`, which never replaces anything: what is already there
//! is reported, never overwritten.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::edit::error::WriteError;
use crate::edit::place::{Boundaries, Place};

/// What is at a link's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtLink {
    Nothing,
    /// A symbolic link, with its target as written.
    Link(PathBuf),
    /// Something else (a file, a directory, …).
    Other(&'static str),
}

/// Where the link at `path` goes: its directory resolved inside
/// `bounds` (a link at the name itself is not followed: it is the link).
///
/// # Errors
/// `Outside` when a directory on the path leads out; `Io`.
pub fn place_of_link(bounds: &Boundaries, path: &Path) -> Result<Place, WriteError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(WriteError::Io {
            path: path.to_path_buf(),
            action: "name the link",
            source: io::Error::new(io::ErrorKind::InvalidInput, "no file name"),
        });
    };
    // The directory as a "file" of its own parent: resolving it follows
    // every link on the way, and refuses one that leads out.
    let dir = bounds.resolve(parent)?;
    Ok(Place {
        shown: path.to_path_buf(),
        real: dir.real.join(name),
        root: dir.root,
    })
}

/// What is at `place` now.
pub fn at_link(place: &Place) -> AtLink {
    match fs::symlink_metadata(&place.real) {
        Err(_) => AtLink::Nothing,
        Ok(meta) if meta.file_type().is_symlink() => {
            AtLink::Link(fs::read_link(&place.real).unwrap_or_default())
        }
        Ok(meta) if meta.is_dir() => AtLink::Other("a directory"),
        Ok(_) => AtLink::Other("a file"),
    }
}

/// The target, relative to the link's real directory, of a link at
/// `place` to `rel` (a path relative to the boundary `place` lies in):
/// `../` for each directory between them, then `rel`.
pub fn relative_target(place: &Place, rel: &str) -> PathBuf {
    let depth = place
        .dir()
        .strip_prefix(&place.root)
        .map_or(0, |d| d.components().count());
    let mut target = PathBuf::new();
    for _ in 0..depth {
        target.push("..");
    }
    target.join(rel)
}

/// Creates the link at `place` to `target`, making its directories.
/// Returns `false` when the same link is already there.
///
/// # Errors
/// `Conflict` when something else is there (nothing is replaced);
/// `Outside` when a directory was swapped for a link leading out; `Io`.
pub fn create_link(place: &Place, target: &Path) -> Result<bool, WriteError> {
    place.create_dirs()?;
    // Made and read back through the pinned directory: a directory on the
    // path swapped for a link after the check cannot move the link.
    let dir = place.pin()?;
    // The name itself, not `Place::name` (lossy: a non-UTF-8 name).
    let Some(name) = place.real.file_name().map(Path::new) else {
        return Err(WriteError::Io {
            path: place.shown.clone(),
            action: "name the link",
            source: io::Error::new(io::ErrorKind::InvalidInput, "no file name"),
        });
    };
    match symlink_in(&dir, target, name) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if dir.read_link_contents(name).is_ok_and(|t| t == target) {
                Ok(false)
            } else {
                Err(WriteError::Conflict {
                    path: place.shown.clone(),
                })
            }
        }
        Err(source) => Err(WriteError::Io {
            path: place.shown.clone(),
            action: "create the link",
            source,
        }),
    }
}

/// `symlink_contents`: the target is written as given (a relative
/// `../../x.md` leaving the pinned directory is what an adopted file's
/// link is), never resolved here.
#[cfg(unix)]
fn symlink_in(dir: &jp_kb_fs::Dir, target: &Path, name: &Path) -> io::Result<()> {
    dir.symlink_contents(target, name)
}

#[cfg(not(unix))]
fn symlink_in(_dir: &jp_kb_fs::Dir, _target: &Path, _name: &Path) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "jp-kb adopts files with symbolic links, which need a Unix system",
    ))
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_link_is_made_once_relative_and_never_replaces_anything() {
        let tmp = tempfile::tempdir().unwrap();
        let ws = tmp.path().canonicalize().unwrap();
        fs::write(ws.join("CLAUDE.md"), "x").unwrap();
        let bounds = Boundaries::new([ws.clone()]);
        let place = place_of_link(&bounds, &ws.join(".jp/kb/project/CLAUDE.md")).unwrap();
        let target = relative_target(&place, "CLAUDE.md");
        assert_eq!(target, Path::new("../../../CLAUDE.md"));
        assert!(create_link(&place, &target).unwrap());
        assert_eq!(
            fs::read_to_string(ws.join(".jp/kb/project/CLAUDE.md")).unwrap(),
            "x"
        );
        // Again: the same link is there.
        assert!(!create_link(&place, &target).unwrap());
        assert_eq!(at_link(&place), AtLink::Link(target));
        // Another target: refused, the link kept.
        assert!(matches!(
            create_link(&place, Path::new("../../../other.md")),
            Err(WriteError::Conflict { .. })
        ));
    }

    #[test]
    fn a_linked_directory_on_the_way_moves_the_target_with_it() {
        let tmp = tempfile::tempdir().unwrap();
        let ws = tmp.path().canonicalize().unwrap();
        fs::create_dir_all(ws.join("deep/er/kb")).unwrap();
        fs::create_dir_all(ws.join(".jp")).unwrap();
        std::os::unix::fs::symlink("../deep/er/kb", ws.join(".jp/kb")).unwrap();
        let bounds = Boundaries::new([ws.clone()]);
        let place = place_of_link(&bounds, &ws.join(".jp/kb/project/CLAUDE.md")).unwrap();
        assert_eq!(
            relative_target(&place, "CLAUDE.md"),
            Path::new("../../../../CLAUDE.md")
        );
    }
}
