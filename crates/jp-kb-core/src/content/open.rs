//! The one guarded open of a subject file: every read of a subject (CLI,
//! TUI, MCP, `check`, token counts) opens it here, so what is read is the
//! file the workspace holds *now*, not whatever a path leads to after a
//! symlink was swapped in since the walk (issue 12, items 1 and 2).
//!
//! The walk decides which files are subjects; between that walk and the
//! read, a file or a whole directory may be replaced by a symlink leading
//! out of the workspace (a race, or a walk reused by the MCP server). So
//! the check is made on the open file itself:
//!
//! - Linux ≥ 5.6: `openat2` relative to a handle on the workspace root
//!   with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: the kernel refuses
//!   any resolution that leaves the root, atomically. It also refuses
//!   absolute symlinks, even to a place inside the root; those (and
//!   kernels without `openat2`) take the checked open below.
//! - Otherwise: an ordinary open, then the opened file's real path (from
//!   `/proc/self/fd`, or without `/proc` the canonical path whose device
//!   and inode must be the open file's) must lie under the root.
//!
//! Either way the file is opened with `O_NONBLOCK` (opening a FIFO for
//! reading would otherwise block until a writer comes) and `O_NOCTTY`, and
//! `fstat` must say it is a regular file before a byte is read.

use std::fs::File;
use std::path::Path;

/// Subjects above this many bytes are neither inlined (`learn`, `prompt`)
/// nor counted: 4 MiB is about a million tokens, beyond any model's
/// context window, and counting it takes ~150 MB (see docs/decisions.md).
pub const MAX_SUBJECT_BYTES: u64 = 4 * 1024 * 1024;

/// Resources above this many bytes are refused (`resources/read`): a
/// resource goes to the client, not necessarily into a context window, so
/// the limit is larger, yet one answer stays a bounded JSON line.
pub const MAX_RESOURCE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a subject was not opened.
#[derive(Debug)]
pub enum OpenError {
    /// The file, as it resolves now, is not under the workspace root.
    Outside,
    /// Not a regular file (a FIFO, a socket, a device, a directory).
    NotRegular(&'static str),
    /// The operating system refused.
    Io(std::io::Error),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Outside => f.write_str("resolves outside the workspace"),
            OpenError::NotRegular(kind) => write!(f, "not a regular file ({kind})"),
            OpenError::Io(err) => f.write_str(&os_reason(err)),
        }
    }
}

impl From<std::io::Error> for OpenError {
    fn from(err: std::io::Error) -> Self {
        OpenError::Io(err)
    }
}

/// The OS's reason without Rust's "(os error 13)" suffix.
pub(crate) fn os_reason(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// An open subject file and its size as the open file reports it.
#[derive(Debug)]
pub struct OpenSubject {
    pub file: File,
    pub size: u64,
}

/// Opens the subject at `path` for reading, refusing anything that does
/// not resolve, at open time, to a regular file under `root` (the
/// canonical workspace root). For many reads, see [`Root`].
pub fn open_subject(root: &Path, path: &Path) -> Result<OpenSubject, OpenError> {
    Root::new(root).open(path)
}

/// The canonical workspace root that subject reads are guarded against,
/// with a handle on it opened at the first read and kept for the next
/// ones: a batch of reads (a `learn`, a `prompt`, a `check`) resolves the
/// root's path once, not once per subject.
#[derive(Debug)]
pub struct Root<'a> {
    path: &'a Path,
    #[cfg(target_os = "linux")]
    dir: std::cell::OnceCell<Option<rustix::fd::OwnedFd>>,
}

impl<'a> Root<'a> {
    pub fn new(path: &'a Path) -> Self {
        Self {
            path,
            #[cfg(target_os = "linux")]
            dir: std::cell::OnceCell::new(),
        }
    }

    pub fn path(&self) -> &Path {
        self.path
    }

    /// Opens the subject at `path` (see [`open_subject`]).
    pub fn open(&self, path: &Path) -> Result<OpenSubject, OpenError> {
        self.open_with(path, Strategy::Best)
    }

    pub(crate) fn open_with(
        &self,
        path: &Path,
        strategy: Strategy,
    ) -> Result<OpenSubject, OpenError> {
        let root = self.path;
        // Walked subjects always lie under the root by their path; anything
        // else is not a subject of this workspace.
        let rel = path.strip_prefix(root).map_err(|_| OpenError::Outside)?;
        if rel.as_os_str().is_empty() {
            return Err(OpenError::NotRegular("a directory"));
        }
        #[cfg(target_os = "linux")]
        if strategy == Strategy::Best
            && let Some(dir) = self.dir.get_or_init(|| linux::open_root(root))
            && let Some(file) = linux::open_beneath(dir, rel)?
        {
            return regular(file);
        }
        let _ = strategy;
        let file = open_plain(path)?;
        let opened = regular(file)?;
        check_location(root, path, &opened.file)?;
        Ok(opened)
    }
}

/// Which way to open: the best the kernel has, or the fallback (tests run
/// both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Strategy {
    Best,
    #[cfg_attr(not(all(test, target_os = "linux")), allow(dead_code))]
    Fallback,
}

/// Opens `path` (following symlinks) without blocking on a FIFO.
fn open_plain(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits().cast_signed());
    }
    options.open(path)
}

/// The open file when `fstat` says it is a regular file.
fn regular(file: File) -> Result<OpenSubject, OpenError> {
    let meta = file.metadata()?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(OpenSubject {
            file,
            size: meta.len(),
        });
    }
    Err(OpenError::NotRegular(kind_name(&kind)))
}

/// What a non-regular file is, in a few words.
pub fn kind_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        return "a directory";
    }
    if kind.is_symlink() {
        return "a symlink";
    }
    "not a regular file"
}

/// Checks that `file`, opened through `path`, is under `root`: by the path
/// the kernel opened (`/proc/self/fd`), or by the canonical path naming the
/// very same file (device and inode) when there is no `/proc`.
fn check_location(root: &Path, path: &Path, file: &File) -> Result<(), OpenError> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd as _;
        use std::os::unix::fs::MetadataExt as _;
        let link = format!("/proc/self/fd/{}", file.as_raw_fd());
        if let Ok(real) = std::fs::read_link(link) {
            return if real.starts_with(root) {
                Ok(())
            } else {
                Err(OpenError::Outside)
            };
        }
        let canonical = path.canonicalize()?;
        if !canonical.starts_with(root) {
            return Err(OpenError::Outside);
        }
        let (now, open) = (std::fs::metadata(&canonical)?, file.metadata()?);
        if (now.dev(), now.ino()) != (open.dev(), open.ino()) {
            // Swapped between the open and the check: the open file may be
            // anywhere.
            return Err(OpenError::Outside);
        }
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        if path.canonicalize()?.starts_with(root) {
            Ok(())
        } else {
            Err(OpenError::Outside)
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::fs::File;
    use std::path::Path;
    use std::sync::atomic::{AtomicBool, Ordering};

    use rustix::fd::OwnedFd;
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    use rustix::io::Errno;

    use super::OpenError;

    /// Cleared once the kernel says it has no `openat2` (ENOSYS).
    static HAS_OPENAT2: AtomicBool = AtomicBool::new(true);

    /// An `O_PATH` handle on the root; `None` when there is no `openat2`
    /// or the root cannot be opened (the checked open then decides).
    pub(super) fn open_root(root: &Path) -> Option<OwnedFd> {
        if !HAS_OPENAT2.load(Ordering::Relaxed) {
            return None;
        }
        rustix::fs::open(
            root,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()
    }

    /// Opens `rel` beneath `dir`. `Ok(None)`: the kernel cannot say (no
    /// `openat2`, an absolute symlink, a resolution retried too often):
    /// the caller takes the checked open, which decides soundly too.
    pub(super) fn open_beneath(dir: &OwnedFd, rel: &Path) -> Result<Option<File>, OpenError> {
        if !HAS_OPENAT2.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
        // EAGAIN: a concurrent rename made the kernel unsure; it asks for
        // a retry.
        for _ in 0..8 {
            match rustix::fs::openat2(dir, rel, flags, Mode::empty(), resolve) {
                Ok(fd) => return Ok(Some(File::from(fd))),
                Err(Errno::AGAIN | Errno::INTR) => {}
                Err(Errno::NOSYS) => {
                    HAS_OPENAT2.store(false, Ordering::Relaxed);
                    return Ok(None);
                }
                Err(
                    e @ (Errno::NOENT
                    | Errno::ACCESS
                    | Errno::NOTDIR
                    | Errno::LOOP
                    | Errno::NAMETOOLONG),
                ) => return Err(OpenError::Io(e.into())),
                // EXDEV (leaves the root, or an absolute symlink) and
                // anything unexpected.
                Err(_) => return Ok(None),
            }
        }
        Ok(None)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::io::Read as _;
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use rustix::fs::{CWD, FileType, Mode, RenameFlags};

    const STRATEGIES: [Strategy; 2] = [Strategy::Best, Strategy::Fallback];

    /// A workspace `root` with `a.md` ("inside"), and `secret.md`
    /// ("SECRET") outside it.
    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let root = base.join("ws");
        std::fs::create_dir_all(root.join("t")).unwrap();
        std::fs::write(root.join("t/a.md"), "inside").unwrap();
        std::fs::write(base.join("secret.md"), "SECRET").unwrap();
        (tmp, root, base.join("secret.md"))
    }

    fn read(root: &Path, path: &Path, strategy: Strategy) -> Result<String, String> {
        let mut opened = Root::new(root)
            .open_with(path, strategy)
            .map_err(|e| e.to_string())?;
        let mut text = String::new();
        opened.file.read_to_string(&mut text).unwrap();
        Ok(text)
    }

    #[test]
    fn symlinks_inside_are_read_and_outside_refused() {
        let (_tmp, root, secret) = setup();
        std::os::unix::fs::symlink("a.md", root.join("t/rel.md")).unwrap();
        std::os::unix::fs::symlink(root.join("t/a.md"), root.join("t/abs.md")).unwrap();
        std::os::unix::fs::symlink(&secret, root.join("t/out.md")).unwrap();
        std::os::unix::fs::symlink("../../secret.md", root.join("t/up.md")).unwrap();
        for strategy in STRATEGIES {
            for inside in ["t/a.md", "t/rel.md", "t/abs.md"] {
                assert_eq!(
                    read(&root, &root.join(inside), strategy).as_deref(),
                    Ok("inside")
                );
            }
            for outside in ["t/out.md", "t/up.md"] {
                assert_eq!(
                    read(&root, &root.join(outside), strategy),
                    Err("resolves outside the workspace".to_owned()),
                    "{outside} {strategy:?}"
                );
            }
            assert_eq!(
                read(&root, &secret, strategy),
                Err("resolves outside the workspace".to_owned())
            );
        }
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let (_tmp, root, _) = setup();
        let fifo = root.join("t/pipe.md");
        rustix::fs::mknodat(CWD, &fifo, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
        for strategy in STRATEGIES {
            // Would block forever without O_NONBLOCK: no writer ever comes.
            assert_eq!(
                read(&root, &fifo, strategy),
                Err("not a regular file (a FIFO)".to_owned())
            );
            assert_eq!(
                read(&root, &root.join("t"), strategy),
                Err("not a regular file (a directory)".to_owned())
            );
        }
    }

    /// Swaps `a` and `b` atomically, over and over, until told to stop.
    fn flipper(a: PathBuf, b: PathBuf, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
            }
        })
    }

    #[test]
    fn a_racing_swap_never_reads_outside() {
        let (_tmp, root, secret) = setup();
        let base = root.parent().unwrap().to_path_buf();
        // A file swapped with a symlink to the secret; a directory swapped
        // with a symlink to the secret's directory.
        std::os::unix::fs::symlink(&secret, base.join("link.md")).unwrap();
        std::fs::create_dir_all(root.join("t/sub")).unwrap();
        std::fs::write(root.join("t/sub/secret.md"), "inside too").unwrap();
        std::os::unix::fs::symlink(&base, base.join("link-dir")).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let flippers = [
            flipper(root.join("t/a.md"), base.join("link.md"), Arc::clone(&stop)),
            flipper(root.join("t/sub"), base.join("link-dir"), Arc::clone(&stop)),
        ];
        let mut seen = std::collections::BTreeMap::new();
        for strategy in STRATEGIES {
            for _ in 0..2000 {
                for path in ["t/a.md", "t/sub/secret.md"] {
                    let got = read(&root, &root.join(path), strategy);
                    *seen.entry(got).or_insert(0) += 1;
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        for f in flippers {
            f.join().unwrap();
        }
        assert!(!seen.contains_key(&Ok("SECRET".to_owned())), "{seen:?}");
        // Both sides of the race were hit.
        assert!(seen.contains_key(&Ok("inside".to_owned())), "{seen:?}");
        assert!(
            seen.contains_key(&Err("resolves outside the workspace".to_owned())),
            "{seen:?}"
        );
    }
}
