//! Who holds a directory's lock, for the writer that waited in vain: the
//! process (from the kernel's lock table, `/proc/locks`, else the pid a
//! jp-kb holder writes into the lock file), its command name, and its
//! user (else the lock file's owner). Best effort: what cannot be known is
//! left out. Everything shown is cut to printable ASCII (a process names
//! itself).

use std::fmt;

/// Who may hold a lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub pid: Option<u32>,
    /// The process's command name (Linux).
    pub command: Option<String>,
    /// The user: the holding process's, else the lock file's owner; a
    /// name where the system's user list has one, else the number.
    pub user: Option<String>,
    /// The kernel says no process holds it: another user's lock file left
    /// by a holder that died (it is theirs to remove), named here.
    pub left_over: Option<&'static str>,
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pid {
            Some(pid) => {
                write!(f, "process {pid}")?;
                if let Some(command) = &self.command {
                    write!(f, " ({command})")?;
                }
                if let Some(user) = &self.user {
                    write!(f, " of user {user}")?;
                }
                Ok(())
            }
            None => match (&self.user, self.left_over) {
                (Some(user), Some(file)) => write!(
                    f,
                    "nobody: a lock file of user {user} is left over; remove {file} if no jp-kb of theirs runs"
                ),
                (Some(user), None) => write!(f, "user {user}"),
                (None, _) => f.write_str("another program"),
            },
        }
    }
}

/// Who holds the lock file `name` in the directory `dir`, where it can be
/// known.
#[cfg(unix)]
pub(crate) fn find(dir: rustix::fd::BorrowedFd<'_>, name: &'static str) -> Option<Holder> {
    use rustix::fs::AtFlags;
    let stat = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
    #[cfg(target_os = "linux")]
    let (kernel, left_over) = match kernel_holder(stat.st_dev, stat.st_ino) {
        Kernel::Holder(pid) => (Some(pid), false),
        Kernel::Nobody => (None, true),
        Kernel::Unknown => (None, false),
    };
    #[cfg(not(target_os = "linux"))]
    let (kernel, left_over) = (None, false);
    let pid = kernel.or_else(|| written_pid(dir, name));
    let uid = pid.and_then(process_uid).unwrap_or(stat.st_uid);
    Some(Holder {
        pid,
        command: pid.and_then(command),
        user: Some(user_name(uid)),
        left_over: (left_over && pid.is_none()).then_some(name),
    })
}

/// What the kernel's lock table says of a file.
#[cfg(target_os = "linux")]
enum Kernel {
    Holder(u32),
    Nobody,
    /// No table to read.
    Unknown,
}

/// The process holding a `flock` on the file (`dev`, `ino`), by the
/// kernel's lock table.
#[cfg(target_os = "linux")]
fn kernel_holder(dev: u64, ino: u64) -> Kernel {
    let Ok(table) = std::fs::read_to_string("/proc/locks") else {
        return Kernel::Unknown;
    };
    let (major, minor) = (rustix::fs::major(dev), rustix::fs::minor(dev));
    let mut by_inode = None;
    for line in table.lines() {
        // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`; a waiter's
        // line has `->` after the number.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, "FLOCK", _, _, pid, place, ..] = fields[..] else {
            continue;
        };
        let mut parts = place.split(':');
        let (Some(maj), Some(min), Some(inode)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if inode.parse::<u64>().ok() != Some(ino) {
            continue;
        }
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let same_device = u32::from_str_radix(maj, 16).ok() == Some(major)
            && u32::from_str_radix(min, 16).ok() == Some(minor);
        if same_device {
            return Kernel::Holder(pid);
        }
        // Some file systems (btrfs) report another device in `stat`.
        by_inode.get_or_insert(pid);
    }
    by_inode.map_or(Kernel::Nobody, Kernel::Holder)
}

/// The pid a jp-kb holder wrote into the lock file, when it can be read
/// and that process still runs.
#[cfg(unix)]
fn written_pid(dir: rustix::fd::BorrowedFd<'_>, name: &str) -> Option<u32> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let file = rustix::fs::openat(dir, name, flags, Mode::empty()).ok()?;
    let mut bytes = [0u8; 16];
    let n = rustix::io::pread(&file, &mut bytes, 0).ok()?;
    let pid: u32 = std::str::from_utf8(&bytes[..n]).ok()?.trim().parse().ok()?;
    let raw = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
    // EPERM: it runs, as someone else.
    match rustix::process::test_kill_process(raw) {
        Err(rustix::io::Errno::SRCH) => None,
        _ => Some(pid),
    }
}

#[cfg(unix)]
fn process_uid(pid: u32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(format!("/proc/{pid}"))
        .ok()
        .map(|m| m.uid())
}

#[cfg(unix)]
fn command(pid: u32) -> Option<String> {
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(printable(name.trim_end_matches('\n')))
}

/// `uid`'s name in `/etc/passwd`, else the number (a directory service's
/// users are shown by number).
#[cfg(unix)]
fn user_name(uid: u32) -> String {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    passwd
        .lines()
        .find_map(|line| {
            let mut fields = line.split(':');
            let name = fields.next()?;
            (fields.nth(1)?.parse::<u32>().ok()? == uid).then(|| printable(name))
        })
        .unwrap_or_else(|| uid.to_string())
}

/// `text` as printable ASCII, at most 32 characters; anything else `?`.
#[cfg_attr(not(unix), allow(dead_code))]
fn printable(text: &str) -> String {
    text.chars()
        .take(32)
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_reads_as_a_person_says_it() {
        let holder = Holder {
            pid: Some(42),
            command: Some(printable("fl\u{1b}[2Jock")),
            user: Some("nobody".to_owned()),
            left_over: None,
        };
        assert_eq!(holder.to_string(), "process 42 (fl?[2Jock) of user nobody");
        let mut owner = Holder {
            pid: None,
            command: None,
            user: Some("1001".to_owned()),
            left_over: None,
        };
        assert_eq!(owner.to_string(), "user 1001");
        owner.left_over = Some(".jp-kb.lock");
        assert_eq!(
            owner.to_string(),
            "nobody: a lock file of user 1001 is left over; remove .jp-kb.lock if no jp-kb of theirs runs"
        );
    }
}
