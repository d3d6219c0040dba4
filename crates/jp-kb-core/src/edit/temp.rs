//! The temporary file a write fills before renaming it over the target.
//!
//! It is never readable by more people than the target: it is created
//! with mode 0600 (0666 less the umask for a new file) and given the
//! target's mode and owner with `fchmod`/`fchown` before its first byte
//! is written. Its name, `.<file>.<pid>.<random>.jp-kb.tmp`, carries the
//! writer's process id, so a copy left behind by a killed writer is
//! removed by the next write to that file once its writer is gone (an
//! unnamed `O_TMPFILE` would leave nothing at all, but linking it in
//! needs `/proc` or a capability, and is Linux-only).

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use jp_kb_fs::Dir;

/// How every temporary file's name ends (the watchers ignore such names:
/// ask [`is_temp_file`]).
pub const TEMP_SUFFIX: &str = ".jp-kb.tmp";

/// Whether `path` names one of our temporary files, or a directory's lock
/// file (`jp_kb_fs::LOCK_FILE`): a watcher that reported them would
/// reload on every write of our own.
pub fn is_temp_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == jp_kb_fs::LOCK_FILE || n.to_string_lossy().ends_with(TEMP_SUFFIX))
}

/// A temporary file without the writer's pid in its name (left by an
/// older jp-kb) this old is a leftover: a write takes milliseconds.
const UNOWNED_LEFTOVER_AGE: Duration = Duration::from_secs(60);

fn prefix(name: &str) -> String {
    format!(".{name}.")
}

/// The mode and owner of the file a temporary file replaces.
#[derive(Debug, Clone, Copy)]
pub struct Like {
    #[cfg(unix)]
    mode: u32,
    #[cfg(unix)]
    uid: u32,
    #[cfg(unix)]
    gid: u32,
}

impl Like {
    /// Those of the regular file `name` in `dir`; `None` when there is
    /// none (a new file, or something else at the name).
    pub fn of(dir: &Dir, name: &str) -> Option<Self> {
        let meta = dir
            .symlink_metadata(name)
            .ok()
            .filter(jp_kb_fs::Metadata::is_file)?;
        #[cfg(unix)]
        {
            use jp_kb_fs::MetadataExt as _;
            Some(Self {
                mode: meta.mode() & 0o7777,
                uid: meta.uid(),
                gid: meta.gid(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Some(Self {})
        }
    }
}

/// A temporary file in a directory, removed when dropped unless it was
/// renamed over its target ([`TempFile::persist`]).
#[derive(Debug)]
pub struct TempFile {
    dir: Dir,
    name: String,
    file: File,
    persisted: bool,
}

impl TempFile {
    pub fn as_file(&self) -> &File {
        &self.file
    }

    /// Renames it over `target` in the same directory.
    ///
    /// # Errors
    /// The rename's error (the file is then removed).
    pub fn persist(mut self, target: &str) -> io::Result<()> {
        self.dir.rename(&self.name, &self.dir, target)?;
        self.persisted = true;
        Ok(())
    }
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = self.dir.remove_file(&self.name);
        }
    }
}

/// Creates the temporary file for `name` in `dir`. `like`: the target's
/// mode and owner when it exists, which the file takes before anything is
/// written to it.
pub fn create(dir: &Dir, name: &str, like: Option<Like>) -> io::Result<TempFile> {
    // Narrow first, widen later: owner-only until the target's mode is
    // set (a new file: the usual 0666 less the umask).
    let mode = if like.is_some() { 0o600 } else { 0o666 };
    let mut attempt = 0;
    let (tmp_name, file) = loop {
        let tmp_name = format!(
            "{}{}.{}{TEMP_SUFFIX}",
            prefix(name),
            std::process::id(),
            random_word()
        );
        match jp_kb_fs::create_new(dir, Path::new(&tmp_name), mode) {
            Ok(file) => break (tmp_name, file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 16 => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    let tmp = TempFile {
        dir: dir.try_clone()?,
        name: tmp_name,
        file,
        persisted: false,
    };
    if let Some(like) = like {
        keep_mode_and_owner(&tmp.file, like)?;
    }
    Ok(tmp)
}

/// Six letters and digits, different at every call.
fn random_word() -> String {
    use std::hash::{BuildHasher as _, Hasher as _};
    // Each `RandomState` is seeded anew (per thread, then counted on).
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    let mut n = hasher.finish();
    (0..6)
        .map(|_| {
            let c = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                [usize::try_from(n % 62).unwrap_or(0)];
            n /= 62;
            char::from(c)
        })
        .collect()
}

#[cfg(unix)]
fn keep_mode_and_owner(file: &File, like: Like) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    // fchmod is not subject to the umask, so the mode is exact.
    file.set_permissions(std::fs::Permissions::from_mode(like.mode))?;
    let same = file
        .metadata()
        .is_ok_and(|m| m.uid() == like.uid && m.gid() == like.gid);
    if !same {
        // Only root may give a file away; otherwise the new file is ours,
        // as with any editor that saves by renaming.
        let _ = std::os::unix::fs::fchown(file, Some(like.uid), Some(like.gid));
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_mode_and_owner(_file: &File, _like: Like) -> io::Result<()> {
    Ok(())
}

/// Removes the temporary files of `name` in `dir` whose writer is gone.
/// Called with the directory locked: a live jp-kb writer holds that lock
/// for as long as its temporary file exists, so what is found here is a
/// leftover; checking the pid as well spares a writer that did not lock
/// (another tool version, or a file system without the lock).
/// Failures are ignored: a leftover is removed on a later write.
pub fn remove_leftovers(dir: &Dir, name: &str) {
    let Ok(entries) = dir.entries() else {
        return;
    };
    let prefix = prefix(name);
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(middle) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix.as_str()))
            .and_then(|n| n.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        let stale = match middle.split_once('.') {
            Some((pid, random)) if !random.contains('.') => {
                pid.parse::<u32>().is_ok_and(|pid| !writer_alive(pid))
            }
            // No pid in the name: an older jp-kb's file; stale once old.
            None => entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.into_std().elapsed().ok())
                .is_some_and(|age| age > UNOWNED_LEFTOVER_AGE),
            Some(_) => false,
        };
        // Only plain files: never follow or remove anything else.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if stale && is_file {
            let _ = dir.remove_file(&file_name);
        }
    }
}

/// Whether process `pid` exists (signal 0 probes without signalling).
#[cfg(unix)]
fn writer_alive(pid: u32) -> bool {
    use rustix::process::{Pid, test_kill_process};
    if pid == std::process::id() {
        return true;
    }
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return false;
    };
    // EPERM: it exists but belongs to someone else.
    !matches!(test_kill_process(pid), Err(rustix::io::Errno::SRCH))
}

#[cfg(not(unix))]
fn writer_alive(_pid: u32) -> bool {
    true
}
