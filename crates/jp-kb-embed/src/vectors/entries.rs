//! Reading a vectors file (its layout is in `vectors.rs`): entry by
//! entry, every length checked against its bound, every byte against the
//! checksum at the end.

use std::io::Read;

use super::{MAGIC, MAX_KEY, VERSION, VectorsError};
use crate::chunk::MAX_CHUNKS;

/// An entry's fields before its vectors.
pub(super) struct Head {
    pub(super) key: String,
    pub(super) bytes: u64,
    pub(super) modified: i64,
    pub(super) hash: u64,
    pub(super) chunks: usize,
}

/// Reads a vectors file entry by entry, every length checked against its
/// bound and every byte against the checksum at [`EntryReader::finish`].
pub(super) struct EntryReader<R> {
    r: Checked<R>,
    left: u64,
}

impl<R: Read> EntryReader<R> {
    /// Reads and checks the header: this version, `dims` and the model's
    /// `fingerprint`.
    pub(super) fn open(reader: R, dims: usize, fingerprint: u32) -> Result<Self, VectorsError> {
        let mut r = Checked::new(reader);
        let mut magic = [0u8; 8];
        r.exact(&mut magic)?;
        if &magic != MAGIC || r.u32()? != VERSION {
            return Err(VectorsError::Damaged(
                "not a vectors file of this version".to_owned(),
            ));
        }
        let (file_dims, file_fingerprint) = (r.u32()? as usize, r.u32()?);
        if file_dims != dims || file_fingerprint != fingerprint {
            return Err(VectorsError::OtherModel);
        }
        let left = r.u64()?;
        Ok(Self { r, left })
    }

    /// The next entry's fields; its vectors must be read next.
    pub(super) fn next_head(&mut self) -> Result<Option<Head>, VectorsError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let r = &mut self.r;
        let key_len = r.u32()? as usize;
        if key_len > MAX_KEY {
            return Err(VectorsError::Damaged(format!("a key of {key_len} bytes")));
        }
        let mut key = vec![0u8; key_len];
        r.exact(&mut key)?;
        let key = String::from_utf8(key)
            .map_err(|_| VectorsError::Damaged("a key that is not UTF-8".to_owned()))?;
        let (bytes, modified, hash) = (r.u64()?, r.i64()?, r.u64()?);
        let chunks = r.u32()? as usize;
        if chunks > MAX_CHUNKS {
            return Err(VectorsError::Damaged(format!(
                "{chunks} chunks in one entry"
            )));
        }
        Ok(Some(Head {
            key,
            bytes,
            modified,
            hash,
            chunks,
        }))
    }

    /// The entry's vectors, into `into` (its chunks × dims floats).
    pub(super) fn vectors(&mut self, into: &mut [f32]) -> Result<(), VectorsError> {
        self.r.exact(bytemuck::cast_slice_mut(into))?;
        if cfg!(target_endian = "big") {
            for v in into {
                *v = f32::from_bits(v.to_bits().swap_bytes());
            }
        }
        Ok(())
    }

    /// Checks the checksum, and that nothing follows it.
    pub(super) fn finish(mut self) -> Result<(), VectorsError> {
        let computed = self.r.crc.clone().finalize();
        let mut stored = [0u8; 4];
        self.r.inner.read_exact(&mut stored).map_err(eof)?;
        if u32::from_le_bytes(stored) != computed {
            return Err(VectorsError::Damaged("checksum mismatch".to_owned()));
        }
        let mut extra = [0u8; 1];
        if self.r.inner.read(&mut extra)? != 0 {
            return Err(VectorsError::Damaged("bytes after the checksum".to_owned()));
        }
        Ok(())
    }
}

/// A reader that checksums what it reads.
struct Checked<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Checked<R> {
    fn new(inner: R) -> Self {
        Self {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }

    fn exact(&mut self, buf: &mut [u8]) -> Result<(), VectorsError> {
        self.inner.read_exact(buf).map_err(eof)?;
        self.crc.update(buf);
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, VectorsError> {
        let mut b = [0u8; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, VectorsError> {
        let mut b = [0u8; 8];
        self.exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn i64(&mut self) -> Result<i64, VectorsError> {
        let mut b = [0u8; 8];
        self.exact(&mut b)?;
        Ok(i64::from_le_bytes(b))
    }
}

/// A file that ends early is damaged, not unreadable.
fn eof(e: std::io::Error) -> VectorsError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        VectorsError::Damaged("truncated".to_owned())
    } else {
        VectorsError::Io(e)
    }
}
