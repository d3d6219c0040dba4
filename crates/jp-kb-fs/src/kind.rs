//! What a file that is not a regular file is, in words a person reads in
//! an error.

use std::fmt;
use std::fs::FileType;

/// A kind of file jp-kb does not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Directory,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Symlink,
    /// Anything else the OS may have.
    Other,
}

impl FileKind {
    /// What `file_type` is; `None` for a regular file.
    pub fn of(file_type: &FileType) -> Option<Self> {
        if file_type.is_file() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if file_type.is_fifo() {
                return Some(Self::Fifo);
            }
            if file_type.is_socket() {
                return Some(Self::Socket);
            }
            if file_type.is_char_device() {
                return Some(Self::CharDevice);
            }
            if file_type.is_block_device() {
                return Some(Self::BlockDevice);
            }
        }
        if file_type.is_dir() {
            return Some(Self::Directory);
        }
        if file_type.is_symlink() {
            return Some(Self::Symlink);
        }
        Some(Self::Other)
    }

    /// In full: "a named pipe (FIFO)", "a character device".
    pub fn describe(self) -> &'static str {
        match self {
            Self::Directory => "a directory",
            Self::Fifo => "a named pipe (FIFO)",
            Self::Socket => "a socket",
            Self::CharDevice => "a character device",
            Self::BlockDevice => "a block device",
            Self::Symlink => "a symbolic link",
            Self::Other => "a special file",
        }
    }

    /// In a few words, for a line among many (a walk's warnings): "a
    /// FIFO", "a device".
    pub fn short(self) -> &'static str {
        match self {
            Self::Directory => "a directory",
            Self::Fifo => "a FIFO",
            Self::Socket => "a socket",
            Self::CharDevice | Self::BlockDevice => "a device",
            Self::Symlink => "a symlink",
            Self::Other => "not a regular file",
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}
