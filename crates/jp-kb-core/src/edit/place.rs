//! Where a write may land (contract §8, "Containment"): every file jp-kb
//! writes — its own configuration, a generated or merged client file,
//! `init`'s files — must resolve, with every directory on its path, inside
//! one of a few directories: the workspace root, or the person's own JP
//! configuration or data directory for a user layer. A repository someone
//! clones can commit `.claude -> ~/.claude` or `.jp/config.d/jp-kb.toml ->
//! ~/.bashrc`; a write through such a link is refused, naming the real
//! target, and nothing is created or changed anywhere.
//!
//! Resolution is done here, component by component, as the kernel would
//! (`lstat`, `readlink`, at most 40 links), so the refusal can name where
//! a link leads even when that place does not exist yet. The directory the
//! file goes into is then *pinned*: created and opened beneath a handle on
//! the boundary ([`jp_kb_fs::Beneath`], on every OS), and every later step
//! (lock, temporary file, rename) goes through that open directory, so
//! swapping a directory for a link between the check and the rename cannot
//! redirect the write.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use jp_kb_fs::{Beneath, BeneathError, Dir};

use crate::config::workspace::Environment;
use crate::edit::error::WriteError;

/// Symbolic links followed while resolving one path (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The directories writes may land in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Boundaries {
    roots: Vec<Boundary>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Boundary {
    /// As the caller named it (paths are matched against it lexically).
    given: PathBuf,
    /// Its real location: what a resolved path must stay under.
    real: PathBuf,
}

/// A path checked against the boundaries: where the write really goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The path as the caller named it (for messages).
    pub shown: PathBuf,
    /// The resolved path: no symbolic link in it, under `root`.
    pub real: PathBuf,
    /// The real boundary it lies under.
    pub root: PathBuf,
}

impl Boundaries {
    /// Writes may land under any of `dirs` (and nowhere else).
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut roots: Vec<Boundary> = dirs
            .into_iter()
            .map(|given| Boundary {
                real: real_dir(&given),
                given: absolute(&given),
            })
            .collect();
        // The most specific boundary decides (a workspace inside the
        // person's data directory is still that workspace).
        roots.sort_by_key(|b| std::cmp::Reverse(b.given.components().count()));
        Self { roots }
    }

    /// The workspace at `root` and the user directories of `env`.
    pub fn of_workspace(root: &Path, env: &Environment) -> Self {
        let mut dirs = vec![root.to_path_buf()];
        dirs.extend(env.global_config_dir.clone());
        dirs.extend(env.user_data_dir.clone());
        Self::new(dirs)
    }

    /// Where jp-kb may write for a loaded workspace: its root, the
    /// person's own JP directories (the data directory also before JP
    /// made it), and the user-workspace directory (written to before JP
    /// ever made it).
    #[doc(hidden)]
    pub fn of_config(loaded: &crate::config::LoadedConfig) -> Self {
        Self::new(
            std::iter::once(loaded.root.clone())
                .chain(loaded.user_dirs.iter().cloned())
                .chain(loaded.jp_data_dir.iter().cloned())
                .chain(loaded.user_workspace_dir.iter().cloned()),
        )
    }

    /// Where a write to `path` really goes, or why it may not.
    ///
    /// # Errors
    /// [`WriteError::Outside`] when `path` is under no boundary or resolves
    /// out of its own; `Io` when a component cannot be examined.
    #[doc(hidden)]
    pub fn resolve(&self, path: &Path) -> Result<Place, WriteError> {
        let absolute = absolute(path);
        let Some((boundary, rel)) = self.roots.iter().find_map(|b| {
            absolute
                .strip_prefix(&b.given)
                .or_else(|_| absolute.strip_prefix(&b.real))
                .ok()
                .map(|rel| (b, rel))
        }) else {
            return Err(WriteError::Outside {
                path: path.to_path_buf(),
                target: absolute.clone(),
            });
        };
        let resolved = resolve_beneath(&boundary.real, rel).map_err(|source| WriteError::Io {
            path: path.to_path_buf(),
            action: "follow its path",
            source,
        })?;
        if !resolved.starts_with(&boundary.real) || resolved == boundary.real {
            return Err(WriteError::Outside {
                path: path.to_path_buf(),
                target: resolved,
            });
        }
        Ok(Place {
            shown: path.to_path_buf(),
            real: resolved,
            root: boundary.real.clone(),
        })
    }
}

impl Place {
    /// The directory the file goes into.
    pub fn dir(&self) -> &Path {
        self.real.parent().unwrap_or(&self.root)
    }

    /// The file's name in [`Place::dir`].
    pub fn name(&self) -> String {
        self.real
            .file_name()
            .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned())
    }

    /// Creates the directories between the boundary and the file that do
    /// not exist yet, one at a time, each opened beneath the boundary
    /// before the next is made in it (a link raced in is refused, never
    /// followed).
    ///
    /// # Errors
    /// `Io` naming the directory; `Outside` for a raced link.
    pub fn create_dirs(&self) -> Result<(), WriteError> {
        let Ok(rel) = self.dir().strip_prefix(&self.root) else {
            return Ok(());
        };
        // A user boundary JP has not made yet (its data directory): its
        // path below the nearest existing ancestor was resolved as real.
        if fs::symlink_metadata(&self.root).is_err() {
            fs::create_dir_all(&self.root)
                .map_err(|source| self.io("create its directory", source))?;
        }
        self.beneath()?
            .create_dirs(rel)
            .map_err(|e| self.beneath_error(e, "create its directory"))
    }

    /// The directory, opened beneath the boundary and held: every write
    /// step goes through the returned handle, so the directory cannot be
    /// swapped for a link in between.
    ///
    /// # Errors
    /// `Outside` when the directory no longer resolves beneath the
    /// boundary (a race); `Io`.
    pub fn pin(&self) -> Result<Dir, WriteError> {
        let rel = self.dir().strip_prefix(&self.root).unwrap_or(Path::new(""));
        self.beneath()?
            .open_dir(rel)
            .map_err(|e| self.beneath_error(e, "open its directory"))
    }

    fn beneath(&self) -> Result<Beneath, WriteError> {
        Beneath::open(&self.root).map_err(|source| self.io("open its directory", source))
    }

    fn beneath_error(&self, err: BeneathError, action: &'static str) -> WriteError {
        match err {
            BeneathError::Outside => self.raced(self.dir()),
            BeneathError::NotRegular(_) => self.io(
                action,
                io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!("{} is not a directory", self.dir().display()),
                ),
            ),
            BeneathError::Io(source) => self.io(action, source),
        }
    }

    fn raced(&self, dir: &Path) -> WriteError {
        WriteError::Outside {
            path: self.shown.clone(),
            target: fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
        }
    }

    fn io(&self, action: &'static str, source: io::Error) -> WriteError {
        WriteError::Io {
            path: self.shown.clone(),
            action,
            source,
        }
    }
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path))
    }
}

/// The real location of a boundary directory: canonical where it exists,
/// else its nearest existing ancestor's canonical path and the rest.
fn real_dir(dir: &Path) -> PathBuf {
    let dir = absolute(dir);
    let mut existing = dir.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = fs::canonicalize(existing) {
            return rest.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return dir,
        }
    }
}

/// Resolves `rel` from the real directory `base` as the kernel would,
/// following each symbolic link (up to [`MAX_LINKS`]); components that do
/// not exist yet are taken as written. The result holds no link.
fn resolve_beneath(base: &Path, rel: &Path) -> io::Result<PathBuf> {
    let mut current = base.to_path_buf();
    let mut pending: VecDeque<OsString> = parts(rel);
    let mut links = 0;
    let mut missing = false;
    while let Some(part) = pending.pop_front() {
        if part == "/" {
            current = PathBuf::from("/");
            continue;
        }
        if part == ".." {
            current.pop();
            continue;
        }
        if part == "." || part.is_empty() {
            continue;
        }
        let next = current.join(&part);
        if missing {
            current = next;
            continue;
        }
        match fs::symlink_metadata(&next) {
            Ok(meta) if meta.file_type().is_symlink() => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(io::Error::other("too many levels of symbolic links"));
                }
                let target = fs::read_link(&next)?;
                let mut followed = parts(&target);
                followed.extend(pending.drain(..));
                pending = followed;
            }
            // A file where a directory should be: the rest is taken as
            // written, and creating its directory says what is wrong.
            Ok(meta) if !meta.is_dir() && !pending.is_empty() => {
                missing = true;
                current = next;
            }
            Ok(_) => current = next,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                missing = true;
                current = next;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(current)
}

fn parts(path: &Path) -> VecDeque<OsString> {
    path.components()
        .map(|c| match c {
            Component::RootDir | Component::Prefix(_) => OsString::from("/"),
            Component::CurDir => OsString::from("."),
            Component::ParentDir => OsString::from(".."),
            Component::Normal(name) => name.to_os_string(),
        })
        .collect()
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::os::unix::fs::symlink;

    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let ws = base.join("ws");
        let home = base.join("home");
        fs::create_dir_all(ws.join(".jp")).unwrap();
        fs::create_dir_all(home.join(".claude")).unwrap();
        (tmp, ws, home)
    }

    fn outside(result: Result<Place, WriteError>) -> PathBuf {
        match result {
            Err(WriteError::Outside { target, .. }) => target,
            other => panic!("expected Outside, got {other:?}"),
        }
    }

    #[test]
    fn links_inside_resolve_and_links_out_are_refused_naming_the_target() {
        let (_tmp, ws, home) = setup();
        let b = Boundaries::new([ws.clone()]);
        fs::create_dir_all(ws.join("real")).unwrap();
        symlink("real", ws.join("inside")).unwrap();
        assert_eq!(
            b.resolve(&ws.join("inside/x.toml")).unwrap().real,
            ws.join("real/x.toml")
        );
        symlink(home.join(".claude"), ws.join(".claude")).unwrap();
        assert_eq!(
            outside(b.resolve(&ws.join(".claude/rules/jp-kb.md"))),
            home.join(".claude/rules/jp-kb.md")
        );
        symlink("../../home/.bashrc", ws.join(".jp/rel.toml")).unwrap();
        assert_eq!(
            outside(b.resolve(&ws.join(".jp/rel.toml"))),
            home.join(".bashrc")
        );
        // Out and back in again is inside.
        symlink("../ws/real", ws.join("round")).unwrap();
        assert_eq!(
            b.resolve(&ws.join("round/y")).unwrap().real,
            ws.join("real/y")
        );
        // Not under any boundary at all.
        assert_eq!(outside(b.resolve(&home.join("x"))), home.join("x"));
        // The boundary itself is not a file.
        assert!(b.resolve(&ws).is_err());
    }

    #[test]
    fn a_link_loop_is_an_error_not_a_hang() {
        let (_tmp, ws, _) = setup();
        symlink("b", ws.join("a")).unwrap();
        symlink("a", ws.join("b")).unwrap();
        let err = Boundaries::new([ws.clone()])
            .resolve(&ws.join("a/x"))
            .unwrap_err();
        assert!(err.to_string().contains("symbolic links"), "{err}");
    }

    #[test]
    fn missing_directories_are_created_inside_only() {
        let (_tmp, ws, home) = setup();
        let b = Boundaries::new([ws.clone()]);
        let place = b.resolve(&ws.join(".claude/rules/jp-kb.md")).unwrap();
        place.create_dirs().unwrap();
        assert!(ws.join(".claude/rules").is_dir());
        let pinned = place.pin().unwrap();
        pinned.write("probe", "x").unwrap();
        assert_eq!(
            fs::read_to_string(ws.join(".claude/rules/probe")).unwrap(),
            "x"
        );
        // A directory swapped for a link after the check is refused.
        fs::remove_dir_all(ws.join(".claude")).unwrap();
        symlink(home.join(".claude"), ws.join(".claude")).unwrap();
        assert!(matches!(
            place.create_dirs(),
            Err(WriteError::Outside { .. })
        ));
        assert!(matches!(place.pin(), Err(WriteError::Outside { .. })));
        assert!(!home.join(".claude/rules").exists());
    }

    #[test]
    fn the_most_specific_boundary_decides() {
        let (_tmp, ws, home) = setup();
        // A workspace inside the person's data directory.
        let b = Boundaries::new([home.clone(), home.join("proj")]);
        fs::create_dir_all(home.join("proj")).unwrap();
        symlink("../.claude", home.join("proj/link")).unwrap();
        assert_eq!(
            outside(b.resolve(&home.join("proj/link/x"))),
            home.join(".claude/x")
        );
        let _ = ws;
    }
}
