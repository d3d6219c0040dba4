//! The one guarded open of a subject file: every read of a subject (CLI,
//! TUI, MCP, `check`, token counts) opens it here, so what is read is the
//! file the workspace holds *now*, not whatever a path leads to after a
//! symlink was swapped in since the walk (issue 12, items 1 and 2).
//!
//! The walk decides which files are subjects; between that walk and the
//! read, a file or a whole directory may be replaced by a symlink leading
//! out of the workspace (a race, or a walk reused by the MCP server). So
//! the file is opened beneath a handle on the workspace root
//! ([`jp_kb_fs::Beneath`]: the kernel refuses any resolution that leaves
//! it, on every OS), without blocking and without becoming a controlling
//! terminal, and `fstat` must say it is a regular file before a byte is
//! read. An absolute symlink to a place inside the root is opened by its
//! path and checked where it really is ([`jp_kb_fs::open_checked`]).

use std::fs::File;
use std::path::Path;

use jp_kb_fs::{Beneath, BeneathError};

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

impl From<BeneathError> for OpenError {
    fn from(err: BeneathError) -> Self {
        match err {
            BeneathError::Outside => OpenError::Outside,
            BeneathError::NotRegular(kind) => OpenError::NotRegular(kind.short()),
            BeneathError::Io(e) => OpenError::Io(e),
        }
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
    /// `None` when the root cannot be opened as a directory: every file is
    /// then opened by its path and checked.
    beneath: std::cell::OnceCell<Option<Beneath>>,
}

impl<'a> Root<'a> {
    pub fn new(path: &'a Path) -> Self {
        Self {
            path,
            beneath: std::cell::OnceCell::new(),
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
        let beneath = match strategy {
            Strategy::Best => self.beneath.get_or_init(|| Beneath::open(root).ok()),
            Strategy::Fallback => &None,
        };
        let opened = match beneath {
            Some(beneath) => beneath.open_file(rel)?,
            None => jp_kb_fs::open_checked(root, path)?,
        };
        Ok(OpenSubject {
            size: opened.len(),
            file: opened.file,
        })
    }
}

/// Which way to open: beneath the root's handle, or by the path and
/// checked (tests run both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Strategy {
    Best,
    #[cfg_attr(not(all(test, target_os = "linux")), allow(dead_code))]
    Fallback,
}

/// What a non-regular file is, in a few words.
pub fn kind_name(kind: &std::fs::FileType) -> &'static str {
    jp_kb_fs::FileKind::of(kind).map_or("not a regular file", jp_kb_fs::FileKind::short)
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
