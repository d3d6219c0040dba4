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

use std::fs;
use std::io;
use std::path::Path;
use std::time::Duration;

/// How every temporary file's name ends (the watchers ignore such names:
/// ask [`is_temp_file`]).
pub const TEMP_SUFFIX: &str = ".jp-kb.tmp";

/// Whether `path` names one of our temporary files: a watcher that
/// reported them would reload on every write of our own.
pub fn is_temp_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(TEMP_SUFFIX))
}

/// A temporary file without the writer's pid in its name (left by an
/// older jp-kb) this old is a leftover: a write takes milliseconds.
const UNOWNED_LEFTOVER_AGE: Duration = Duration::from_secs(60);

fn prefix(name: &str) -> String {
    format!(".{name}.")
}

/// Creates the temporary file for `name` in `dir`. `like`: the target's
/// metadata when it exists, whose mode and owner the file takes before
/// anything is written to it.
pub fn create(
    dir: &Path,
    name: &str,
    like: Option<&fs::Metadata>,
) -> io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    let prefix = format!("{}{}.", prefix(name), std::process::id());
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // Narrow first, widen later: owner-only until the target's mode is
        // set (a new file: the usual 0666 less the umask).
        let mode = if like.is_some() { 0o600 } else { 0o666 };
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    let tmp = builder.tempfile_in(dir)?;
    if let Some(meta) = like {
        // fchmod is not subject to the umask, so the mode is exact.
        tmp.as_file().set_permissions(meta.permissions())?;
        keep_owner(tmp.as_file(), meta);
    }
    Ok(tmp)
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

/// Removes the temporary files of `name` in `dir` whose writer is gone.
/// Called with the directory locked: a live jp-kb writer holds that lock
/// for as long as its temporary file exists, so what is found here is a
/// leftover; checking the pid as well spares a writer that did not lock
/// (another tool version, or a file system without the lock).
/// Failures are ignored: a leftover is removed on a later write.
pub fn remove_leftovers(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
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
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > UNOWNED_LEFTOVER_AGE),
            Some(_) => false,
        };
        // Only plain files: never follow or remove anything else.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if stale && is_file {
            let _ = fs::remove_file(entry.path());
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
