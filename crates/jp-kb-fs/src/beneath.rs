//! Containment: reads and writes that stay beneath a root directory, by
//! the kernel's resolution rather than a check of a path that may change
//! before it is used (a file or a whole directory swapped for a symbolic
//! link leading out, between a walk and a read, or a check and a write).
//!
//! The root is opened once ([`Beneath::open`]); every later open is
//! relative to that handle through `cap-std`: on Linux ≥ 5.6 one
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`, elsewhere (macOS,
//! the BSDs, older Linux) a walk of the path one component at a time,
//! each opened with `O_NOFOLLOW` relative to the last and each link read
//! and resolved by hand, never leaving the root. Links inside the root are
//! followed; a resolution that would leave it fails. A writer opens the
//! directory it writes into this way ([`Beneath::open_dir`]) and does
//! everything else relative to that open directory: the directory cannot
//! be swapped for a link in between.
//!
//! One exception for reads: an *absolute* link to a place inside the root
//! is refused by the resolution above (it names the root from outside);
//! such a file is opened by its path and then checked where it really is
//! ([`open_checked`]: `/proc/self/fd` on Linux, `F_GETPATH` on macOS,
//! else the canonical path naming the same device and inode).

use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};

use cap_std::fs::Dir;

use crate::kind::FileKind;
use crate::open::RegularFile;
use crate::refusal::Refusal;

/// Why an open beneath the root failed.
#[derive(Debug)]
pub enum BeneathError {
    /// The file, as it resolves now, is not beneath the root.
    Outside,
    /// Not a regular file.
    NotRegular(FileKind),
    /// The operating system refused.
    Io(io::Error),
}

impl std::fmt::Display for BeneathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Outside => f.write_str("resolves outside the root"),
            Self::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            Self::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BeneathError {}

impl From<io::Error> for BeneathError {
    fn from(e: io::Error) -> Self {
        match crate::refusal::refusal(&e) {
            Some(Refusal::NotRegular(kind)) => Self::NotRegular(*kind),
            _ => Self::Io(e),
        }
    }
}

/// A root directory, open, that reads and writes stay beneath.
#[derive(Debug)]
pub struct Beneath {
    path: PathBuf,
    dir: Dir,
}

impl Beneath {
    /// Opens the directory at `root` (its real path: what lies beneath is
    /// judged against it).
    ///
    /// # Errors
    /// Any I/O error opening it.
    pub fn open(root: &Path) -> io::Result<Self> {
        let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority())?;
        Ok(Self {
            path: root.to_path_buf(),
            dir,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the regular file at `rel` (relative to the root) for reading,
    /// without blocking (a FIFO is refused at once, never waited on).
    ///
    /// # Errors
    /// [`BeneathError::Outside`]; [`BeneathError::NotRegular`]; `Io`
    /// (`NotFound` and the like).
    pub fn open_file(&self, rel: &Path) -> Result<RegularFile, BeneathError> {
        let mut options = cap_std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt as _;
            let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
            options.custom_flags(flags.bits().cast_signed());
        }
        match self.dir.open_with(rel, &options) {
            Ok(file) => regular(file.into_std()),
            // Leaves the root, or an absolute link (which may lead back
            // in): decided on the file opened by its path.
            Err(e) if is_escape(&e) => open_checked(&self.path, &self.path.join(rel)),
            Err(e) => Err(BeneathError::Io(e)),
        }
    }

    /// Opens the directory at `rel` (`""`: the root itself): the handle a
    /// writer does everything through.
    ///
    /// # Errors
    /// [`BeneathError::Outside`] when it does not resolve beneath the root
    /// as a directory (a link leading out, or swapped in); `Io`.
    pub fn open_dir(&self, rel: &Path) -> Result<Dir, BeneathError> {
        if rel.as_os_str().is_empty() {
            return Ok(self.dir.try_clone()?);
        }
        self.dir.open_dir(rel).map_err(outside_or_io)
    }

    /// Creates the directories of `rel` that do not exist yet, one at a
    /// time, each opened (never through a link) before the next is made in
    /// it.
    ///
    /// # Errors
    /// [`BeneathError::Outside`] for a link or a file on the way (or a
    /// `..`); `Io`.
    pub fn create_dirs(&self, rel: &Path) -> Result<(), BeneathError> {
        let mut dir = self.dir.try_clone()?;
        let mut made = self.path.clone();
        for part in rel.components() {
            let Component::Normal(name) = part else {
                if part == Component::CurDir {
                    continue;
                }
                return Err(BeneathError::Outside);
            };
            made.push(name);
            match dir.create_dir(name) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(outside_or_io(e)),
            }
            dir = match open_child_dir(&dir, name) {
                Ok(child) => child,
                // A file where a directory should be is said as such; a
                // link (raced in) is outside.
                Err(e) => match dir.symlink_metadata(name) {
                    Ok(meta) if !meta.is_dir() && !meta.is_symlink() => {
                        return Err(BeneathError::Io(io::Error::new(
                            io::ErrorKind::NotADirectory,
                            format!("{} is a file, not a directory", made.display()),
                        )));
                    }
                    _ => return Err(outside_or_io(e)),
                },
            };
        }
        Ok(())
    }
}

/// The directory `name` (one component) in `dir`, never through a link.
fn open_child_dir(dir: &Dir, name: &std::ffi::OsStr) -> io::Result<Dir> {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(dir, name, flags, Mode::empty())?;
        Ok(Dir::from_std_file(File::from(fd)))
    }
    #[cfg(not(unix))]
    {
        let meta = dir.symlink_metadata(name)?;
        if !meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        dir.open_dir(name)
    }
}

/// Opens the directory at `path` (by its path, links followed): a handle
/// to lock, or to create files in.
///
/// # Errors
/// Any I/O error.
pub fn open_dir(path: &Path) -> io::Result<Dir> {
    Dir::open_ambient_dir(path, cap_std::ambient_authority())
}

/// Creates the file `name` in `dir` for writing, failing if anything is
/// there already (never through a link), with `mode` (less the umask) on
/// Unix.
///
/// # Errors
/// `AlreadyExists`; any other I/O error.
pub fn create_new(dir: &Dir, name: &Path, mode: u32) -> io::Result<File> {
    let mut options = cap_std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    cap_std::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    Ok(dir.open_with(name, &options)?.into_std())
}

/// Opens the regular file `name` in the open directory `dir` for reading:
/// never through a link at its name ([`Refusal::Link`]: a writer resolved
/// its place first, so a link there now was swapped in since), without
/// blocking, and only a regular file ([`Refusal::NotRegular`], by `fstat`
/// on the open file).
///
/// # Errors
/// `NotFound`; the refusals above; any other I/O error.
pub fn open_regular_in(dir: &Dir, name: &Path) -> io::Result<RegularFile> {
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use cap_std::fs::OpenOptionsExt as _;
        let flags = rustix::fs::OFlags::NONBLOCK
            | rustix::fs::OFlags::NOCTTY
            | rustix::fs::OFlags::NOFOLLOW;
        options.custom_flags(flags.bits().cast_signed());
    }
    let file = match dir.open_with(name, &options) {
        Ok(file) => file.into_std(),
        Err(e) => {
            // What is at the name says more than ELOOP or EPERM.
            return Err(match dir.symlink_metadata(name) {
                Ok(meta) if meta.is_symlink() => Refusal::Link.into(),
                _ => e,
            });
        }
    };
    let metadata = file.metadata()?;
    crate::open::check(&metadata)?;
    Ok(RegularFile { file, metadata })
}

/// Makes the entries of `dir` durable (after a rename in it). Some file
/// systems refuse; the caller decides whether that matters.
///
/// # Errors
/// Any I/O error.
pub fn sync_dir(dir: &Dir) -> io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        // The handle may be `O_PATH` (no fsync): open the directory itself.
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(dir, ".", flags, Mode::empty())?;
        rustix::fs::fsync(fd)?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Opens `path` (following links, without blocking) and accepts it only
/// if the file opened is a regular file that really lies under `root`
/// (see the module docs).
///
/// # Errors
/// As [`Beneath::open_file`].
pub fn open_checked(root: &Path, path: &Path) -> Result<RegularFile, BeneathError> {
    // Looked at first: a link may lead anywhere (`/dev/watchdog`, a tape,
    // a FIFO someone writes to), and opening some devices acts. What is
    // not a regular file now is refused untouched; one swapped in after
    // this look is refused by `fstat` on the open file.
    if let Some(kind) = FileKind::of(&std::fs::metadata(path)?.file_type()) {
        return Err(BeneathError::NotRegular(kind));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits().cast_signed());
    }
    let opened = regular(options.open(path)?)?;
    check_location(root, path, &opened.file)?;
    Ok(opened)
}

/// The open file when `fstat` says it is a regular file.
fn regular(file: File) -> Result<RegularFile, BeneathError> {
    let metadata = file.metadata()?;
    match FileKind::of(&metadata.file_type()) {
        None => Ok(RegularFile { file, metadata }),
        Some(kind) => Err(BeneathError::NotRegular(kind)),
    }
}

/// `cap-std`'s refusal to leave the root (it carries no OS error).
fn is_escape(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::PermissionDenied && e.raw_os_error().is_none()
}

fn outside_or_io(e: io::Error) -> BeneathError {
    #[cfg(unix)]
    let raced = [rustix::io::Errno::LOOP, rustix::io::Errno::NOTDIR]
        .iter()
        .any(|errno| e.raw_os_error() == Some(errno.raw_os_error()));
    #[cfg(not(unix))]
    let raced = false;
    if is_escape(&e) || raced {
        BeneathError::Outside
    } else {
        BeneathError::Io(e)
    }
}

/// Checks that `file`, opened through `path`, is under `root`: by the
/// path the kernel opened, or by the canonical path naming the very same
/// file (device and inode).
fn check_location(root: &Path, path: &Path, file: &File) -> Result<(), BeneathError> {
    if let Some(real) = opened_path(file) {
        return if real.starts_with(root) {
            Ok(())
        } else {
            Err(BeneathError::Outside)
        };
    }
    let canonical = path.canonicalize()?;
    if !canonical.starts_with(root) {
        return Err(BeneathError::Outside);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let (now, open) = (std::fs::metadata(&canonical)?, file.metadata()?);
        if (now.dev(), now.ino()) != (open.dev(), open.ino()) {
            // Swapped between the open and the check: the open file may
            // be anywhere.
            return Err(BeneathError::Outside);
        }
    }
    Ok(())
}

/// The path the kernel opened `file` at, where it says.
fn opened_path(file: &File) -> Option<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd as _;
        std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()
    }
    #[cfg(target_vendor = "apple")]
    {
        use std::os::unix::ffi::OsStringExt as _;
        let path = rustix::fs::getpath(file).ok()?;
        Some(PathBuf::from(std::ffi::OsString::from_vec(
            path.into_bytes(),
        )))
    }
    #[cfg(not(any(target_os = "linux", target_vendor = "apple")))]
    {
        let _ = file;
        None
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests;
