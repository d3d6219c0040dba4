//! Whose files may configure the assistant. A configuration decides what
//! text reaches a model and which files are read for it, so jp-kb uses only
//! configuration the person (or root) owns, in directories nobody else can
//! swap it in: another user's `/tmp/.jp/` must never become the workspace
//! of someone working in `/tmp/work`. This is git's `safe.directory` rule
//! (CVE-2022-24765), applied to every layer: the workspace's `.jp/`, each
//! file loaded (its config and `kb` files, `.jp.toml`, what `extends` and
//! `--cfg` reach, the user layers).
//!
//! A path is trusted when, after following links,
//! - it is owned by the person (effective uid) or by root;
//! - it is not writable by every user (a world-writable file or `.jp/`);
//! - its directory is owned by the person or root, or is a sticky
//!   directory such as `/tmp` (where nobody can rename another's entry),
//!   and is not writable by every user unless sticky.
//!
//! A person who trusts a directory anyway lists it (or `*`) in
//! [`SafeDirectories`]: everything at or below a listed directory is used
//! without these checks. Off Unix there are no owners to compare: nothing
//! is refused.

use std::path::{Path, PathBuf};

pub use super::distrust::Distrust;
use super::error::ConfigError;

/// Directories the person trusts whoever owns them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SafeDirectories {
    /// Every directory is trusted (`*`).
    all: bool,
    /// Directories trusted with everything below them (absolute).
    dirs: Vec<PathBuf>,
}

/// Where the person lists the directories they trust, under jp-kb's own
/// configuration directory: one absolute path per line, `#` comments, `*`
/// for all.
pub const SAFE_DIRECTORIES_FILE: &str = "safe-directories";

/// The person's list of trusted directories, [`SAFE_DIRECTORIES_FILE`] in
/// jp-kb's own configuration directory (`$XDG_CONFIG_HOME/jp-kb`, else the
/// platform's).
pub fn list_file() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(dirs::config_dir)
        .map(|d| d.join("jp-kb").join(SAFE_DIRECTORIES_FILE))
}

/// The environment variable listing more trusted directories (separated
/// like `PATH`; `*` for all).
pub const SAFE_DIRECTORIES_ENV: &str = "JP_KB_SAFE_DIRECTORIES";

impl SafeDirectories {
    /// Trusts every directory: what tests and the bundled demo use, whose
    /// files were all written by the running process.
    pub fn all() -> Self {
        Self {
            all: true,
            dirs: Vec::new(),
        }
    }

    /// Trusts `dirs` (and what is below them); `*` among them trusts all.
    pub fn of(dirs: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut safe = Self::default();
        for dir in dirs {
            safe.add(dir);
        }
        safe
    }

    fn add(&mut self, dir: PathBuf) {
        if dir.as_os_str() == "*" {
            self.all = true;
        } else if dir.is_absolute() {
            // Compared with canonical paths, so a listed link or `..`
            // still names the directory it leads to.
            self.dirs.push(dir.canonicalize().unwrap_or(dir));
        }
    }

    /// What the process's environment lists: [`SAFE_DIRECTORIES_ENV`] and
    /// the list `file` ([`list_file`]), when that file is the person's own.
    pub fn from_process(file: Option<&Path>) -> Self {
        let mut safe = Self::default();
        if let Some(list) = std::env::var_os(SAFE_DIRECTORIES_ENV) {
            for dir in std::env::split_paths(&list) {
                safe.add(dir);
            }
        }
        if let Some(file) = file
            && assess(file).ok().flatten().is_none()
            && let Ok(bytes) = super::file::read_guarded(file)
        {
            for line in String::from_utf8_lossy(&bytes).lines() {
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    safe.add(PathBuf::from(line));
                }
            }
        }
        safe
    }

    /// Whether `path` is at or below a trusted directory.
    pub fn covers(&self, path: &Path) -> bool {
        self.all || {
            let real = path.canonicalize();
            let real = real.as_deref().unwrap_or(path);
            self.dirs.iter().any(|d| real.starts_with(d))
        }
    }
}

/// `path` may configure the assistant: it is in a directory the person
/// listed, or [`assess`] finds nothing wrong. A path that cannot be
/// examined passes here: the read that follows names what is wrong with it.
///
/// # Errors
/// [`ConfigError::Untrusted`] naming the path and why.
pub fn check(path: &Path, safe: &SafeDirectories) -> Result<(), ConfigError> {
    if safe.covers(path) {
        return Ok(());
    }
    match assess(path) {
        Ok(Some(why)) => Err(ConfigError::Untrusted {
            path: path.to_path_buf(),
            why,
        }),
        Ok(None) | Err(_) => Ok(()),
    }
}

/// The directory a person lists to trust `path`: the one holding it (the
/// workspace, for its `.jp/`).
pub fn directory_to_trust(path: &Path) -> PathBuf {
    path.parent().unwrap_or(path).to_path_buf()
}

/// Why `path` (after following links) may not configure the assistant, or
/// `None` when it may; an error when it cannot be examined.
///
/// # Errors
/// The `stat` of the path or its directory failed (a missing path
/// included).
#[cfg(unix)]
pub fn assess(path: &Path) -> std::io::Result<Option<Distrust>> {
    use std::os::unix::fs::MetadataExt as _;

    let real = path.canonicalize()?;
    let meta = std::fs::metadata(&real)?;
    // A FIFO, a device or a socket is never read as configuration: the
    // guarded read refuses it, naming what it is (`/dev/null` is writable
    // by all, and would be called untrusted first).
    if !meta.is_file() && !meta.is_dir() {
        return Ok(None);
    }
    if let Some(why) = owner_and_mode(meta.uid(), meta.mode(), false) {
        return Ok(Some(why));
    }
    let Some(dir) = real.parent() else {
        return Ok(None);
    };
    let dir_meta = std::fs::metadata(dir)?;
    Ok(
        owner_and_mode(dir_meta.uid(), dir_meta.mode(), true).map(|why| Distrust::Directory {
            dir: dir.to_path_buf(),
            why: Box::new(why),
        }),
    )
}

/// Off Unix there are no owners to compare.
#[cfg(not(unix))]
pub fn assess(_path: &Path) -> std::io::Result<Option<Distrust>> {
    Ok(None)
}

/// The rule on one inode's owner and mode. A sticky directory (`/tmp`)
/// is trusted whoever owns it: nobody can rename or remove another
/// user's entry in it, and the entry itself is judged on its own.
#[cfg(unix)]
fn owner_and_mode(uid: u32, mode: u32, parent: bool) -> Option<Distrust> {
    const WRITABLE_BY_ALL: u32 = 0o002;
    const STICKY: u32 = 0o1000;
    if parent && mode & STICKY != 0 {
        return None;
    }
    let me = rustix::process::geteuid().as_raw();
    if uid != me && uid != 0 {
        return Some(Distrust::OwnedBy { uid });
    }
    (mode & WRITABLE_BY_ALL != 0).then_some(Distrust::WritableByAll)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn the_rule_on_owner_and_mode() {
        let me = rustix::process::geteuid().as_raw();
        let other = me.wrapping_add(1).max(1);
        assert_eq!(owner_and_mode(me, 0o100_644, false), None);
        assert_eq!(owner_and_mode(0, 0o100_644, false), None);
        assert_eq!(
            owner_and_mode(other, 0o100_644, false),
            Some(Distrust::OwnedBy { uid: other })
        );
        assert_eq!(
            owner_and_mode(me, 0o100_666, false),
            Some(Distrust::WritableByAll)
        );
        // A sticky directory, anyone's: its entries are judged alone.
        assert_eq!(owner_and_mode(other, 0o41_777, true), None);
        // A world-writable directory without the sticky bit lets anyone
        // replace what is in it, even when it is the person's own.
        assert_eq!(
            owner_and_mode(me, 0o40_777, true),
            Some(Distrust::WritableByAll)
        );
        assert_eq!(
            owner_and_mode(other, 0o40_755, true),
            Some(Distrust::OwnedBy { uid: other })
        );
    }

    #[test]
    fn own_files_in_own_directories_are_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(&file, "").unwrap();
        assert_eq!(assess(&file).unwrap(), None);
    }

    #[test]
    fn listed_directories_cover_what_is_below_them() {
        let dir = tempfile::tempdir().unwrap();
        let below = dir.path().join("a/b");
        std::fs::create_dir_all(&below).unwrap();
        let safe = SafeDirectories::of([dir.path().to_path_buf()]);
        assert!(safe.covers(&below));
        assert!(!safe.covers(Path::new("/")));
        assert!(SafeDirectories::of([PathBuf::from("*")]).covers(Path::new("/")));
        // A relative entry names nothing.
        assert!(!SafeDirectories::of([PathBuf::from("a")]).covers(&below));
    }
}
