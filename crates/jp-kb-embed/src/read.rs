//! Reading a model's files: regular files only (a FIFO or a device named
//! as a model file would block or never end), each with its own bound
//! ([`jp_kb_fs`]).

use std::fs::File;
use std::path::Path;

/// The bytes of the regular file at `path`, at most `limit` of them.
pub(crate) fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    jp_kb_fs::read_regular(path, limit)
}

/// The regular file at `path`, open, and what it is. Opened first, then
/// asked what it is: the answer is about the file read, not about whatever
/// the name pointed at a moment before.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<(File, std::fs::Metadata)> {
    let opened = jp_kb_fs::open_regular(path)?;
    Ok((opened.file, opened.metadata))
}
