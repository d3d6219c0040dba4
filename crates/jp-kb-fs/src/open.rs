//! Opening a regular file by its path, and reading it within a bound.
//!
//! A file is looked at before it is opened (a FIFO, a socket or a device
//! is refused untouched), opened without blocking (`O_NONBLOCK`: were it
//! swapped for a FIFO since, the open still returns at once) and without
//! becoming a controlling terminal, then asked again what it is on the
//! open handle: the answer is about the file read, not whatever the name
//! pointed at a moment before.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use crate::kind::FileKind;
use crate::refusal::Refusal;

/// A regular file, open, and its metadata as the open file reports it.
#[derive(Debug)]
pub struct RegularFile {
    pub file: File,
    pub metadata: Metadata,
}

impl RegularFile {
    /// The file's size as `fstat` said when it was opened.
    pub fn len(&self) -> u64 {
        self.metadata.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its bytes, at most `limit` of them: a file larger than `limit` is
    /// refused before a byte is read, and one that grew since is cut off
    /// at `limit + 1` bytes and refused.
    ///
    /// # Errors
    /// [`Refusal::TooLarge`] (inside the `io::Error`); a read error.
    pub fn read_to_vec(self, limit: u64) -> io::Result<Vec<u8>> {
        read_within(self.file, self.metadata.len(), limit)
    }
}

/// Whether a symbolic link at the file's own name is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    Follow,
    /// Refused ([`Refusal::Link`]): for files jp-kb keeps itself, which a
    /// link can only have replaced.
    Refuse,
}

/// Opens the regular file at `path` for reading, following links.
///
/// # Errors
/// `NotFound` (a dangling link: [`Refusal::DanglingLink`]);
/// [`Refusal::NotRegular`] naming what it is; any other I/O error.
pub fn open_regular(path: &Path) -> io::Result<RegularFile> {
    open_regular_with(path, Links::Follow)
}

/// [`open_regular`], choosing what a link at the name means.
///
/// # Errors
/// As [`open_regular`]; [`Refusal::Link`] for a link under
/// [`Links::Refuse`].
pub fn open_regular_with(path: &Path, links: Links) -> io::Result<RegularFile> {
    let looked = match links {
        Links::Follow => std::fs::metadata(path),
        Links::Refuse => std::fs::symlink_metadata(path),
    };
    match looked {
        Ok(meta) => check(&meta)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound && links == Links::Follow => {
            return Err(match std::fs::read_link(path) {
                Ok(target) => Refusal::DanglingLink(target).into(),
                Err(_) => e,
            });
        }
        Err(e) => return Err(e),
    }
    let mut options = OpenOptions::new();
    options.read(true);
    let file = open_with_flags(&mut options, path, links)?;
    let metadata = file.metadata()?;
    check(&metadata)?;
    Ok(RegularFile { file, metadata })
}

/// Opens the file at `path` for appending, creating it owner-only (0600)
/// when missing: never through a link at its name, never blocking (a FIFO
/// with no reader is an error, not a wait), and only a regular file.
///
/// # Errors
/// [`Refusal::Link`]; [`Refusal::NotRegular`]; any other I/O error.
pub fn open_append(path: &Path) -> io::Result<RegularFile> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = match open_with_flags(&mut options, path, Links::Refuse) {
        Ok(file) => file,
        Err(e) => {
            // What is at the name says more than ELOOP or ENXIO.
            if let Ok(meta) = std::fs::symlink_metadata(path) {
                check(&meta)?;
            }
            return Err(e);
        }
    };
    let metadata = file.metadata()?;
    check(&metadata)?;
    Ok(RegularFile { file, metadata })
}

/// The bytes of the regular file at `path`, at most `limit` of them
/// (links followed).
///
/// # Errors
/// As [`open_regular`] and [`RegularFile::read_to_vec`].
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    open_regular(path)?.read_to_vec(limit)
}

/// The bytes of an open file of `size` bytes (as `fstat` said), at most
/// `limit`.
///
/// # Errors
/// [`Refusal::TooLarge`]; a read error.
pub fn read_within(file: impl Read, size: u64, limit: u64) -> io::Result<Vec<u8>> {
    if size > limit {
        return Err(Refusal::TooLarge { size, limit }.into());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(Refusal::TooLarge {
            size: bytes.len() as u64,
            limit,
        }
        .into());
    }
    Ok(bytes)
}

/// `Ok` for a regular file; else what it is.
pub(crate) fn check(meta: &Metadata) -> io::Result<()> {
    match FileKind::of(&meta.file_type()) {
        None => Ok(()),
        Some(FileKind::Symlink) => Err(Refusal::Link.into()),
        Some(kind) => Err(Refusal::NotRegular(kind).into()),
    }
}

fn open_with_flags(options: &mut OpenOptions, path: &Path, links: Links) -> io::Result<File> {
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut flags = OFlags::NONBLOCK | OFlags::NOCTTY;
        if links == Links::Refuse {
            flags |= OFlags::NOFOLLOW;
        }
        options.custom_flags(flags.bits().cast_signed());
    }
    #[cfg(not(unix))]
    let _ = links;
    let file = options.open(path);
    #[cfg(unix)]
    if let Err(e) = &file
        && links == Links::Refuse
        && e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
    {
        return Err(Refusal::Link.into());
    }
    file
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::refusal::refusal;

    #[cfg(target_os = "linux")]
    fn mkfifo(path: &Path) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn special_files_are_refused_without_blocking_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        mkfifo(&fifo);
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        for (path, kind) in [
            (&fifo, FileKind::Fifo),
            (&link, FileKind::CharDevice),
            (&dir.path().to_path_buf(), FileKind::Directory),
        ] {
            let err = open_regular(path).unwrap_err();
            assert_eq!(refusal(&err), Some(&Refusal::NotRegular(kind)), "{err}");
        }
        // Appending to a FIFO nobody reads: refused at once, never a wait.
        let err = open_append(&fifo).unwrap_err();
        assert_eq!(refusal(&err), Some(&Refusal::NotRegular(FileKind::Fifo)));
    }

    #[test]
    fn a_dangling_link_is_named_and_a_link_refused_where_asked() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = open_regular(&link).unwrap_err();
        assert_eq!(refusal(&err), Some(&Refusal::DanglingLink(target.clone())));
        // Appending never creates the link's target.
        let err = open_append(&link).unwrap_err();
        assert_eq!(refusal(&err), Some(&Refusal::Link), "{err}");
        assert!(!target.exists());
        std::fs::write(&target, "x").unwrap();
        let err = open_regular_with(&link, Links::Refuse).unwrap_err();
        assert_eq!(refusal(&err), Some(&Refusal::Link));
        assert_eq!(read_regular(&link, 1).unwrap(), b"x");
    }

    #[test]
    fn reads_stop_at_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "12345").unwrap();
        assert_eq!(read_regular(&path, 5).unwrap(), b"12345");
        let err = read_regular(&path, 4).unwrap_err();
        assert_eq!(
            refusal(&err),
            Some(&Refusal::TooLarge { size: 5, limit: 4 })
        );
        // A file that grew after `fstat`: cut off, refused.
        let err = read_within(&b"123456"[..], 3, 4).unwrap_err();
        assert!(matches!(refusal(&err), Some(Refusal::TooLarge { .. })));
    }

    #[test]
    fn appends_create_owner_only_files() {
        use std::io::Write as _;
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger");
        let mut opened = open_append(&path).unwrap();
        opened.file.write_all(b"one\n").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        open_append(&path)
            .unwrap()
            .file
            .write_all(b"two\n")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    }
}
