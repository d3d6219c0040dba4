//! Reading a model's files: regular files only (a FIFO or a device named
//! as a model file would block or never end), each with its own bound.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The bytes of the regular file at `path`, at most `limit` of them.
pub(crate) fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let (mut file, meta) = open_regular(path)?;
    if meta.len() > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{} bytes, more than the {limit} accepted", meta.len()),
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.by_ref().take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("more than the {limit} bytes accepted"),
        ));
    }
    Ok(bytes)
}

/// The regular file at `path`, open, and what it is. Opened first, then
/// asked what it is: the answer is about the file read, not about whatever
/// the name pointed at a moment before.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<(File, std::fs::Metadata)> {
    let file = File::options()
        .read(true)
        .custom_flags_nonblocking()
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((file, meta))
}

/// Opening without blocking on a FIFO (whose open waits for a writer).
trait NonBlocking {
    fn custom_flags_nonblocking(&mut self) -> &mut Self;
}

impl NonBlocking for std::fs::OpenOptions {
    #[cfg(unix)]
    fn custom_flags_nonblocking(&mut self) -> &mut Self {
        use std::os::unix::fs::OpenOptionsExt;
        self.custom_flags(rustix::fs::OFlags::NONBLOCK.bits().cast_signed())
    }

    #[cfg(not(unix))]
    fn custom_flags_nonblocking(&mut self) -> &mut Self {
        self
    }
}
