//! The one file format of the search cache. Every file the search keeps
//! in its cache directory is one of these, told apart by its [`Kind`]: the
//! index's two segments (`main.idx`, `delta.idx`), the saved topic walks,
//! the saved places of the index's files and the memo of hits' token
//! counts. One [`FORMAT_VERSION`] covers them all, as tantivy's one
//! version covers its segments and `meta.json`: a change to any kind's
//! layout, or to the tokenizer, bumps it, and every file of another
//! version is rebuilt.
//!
//! A file is a short header and sections, each section with its CRC-32 in
//! the header. A section is read whole ([`CacheFile::section`], checked
//! against its CRC) or, when it is large, in pieces whose own CRCs a kind
//! keeps in a table of its own ([`CacheFile::piece`]): a search reads the
//! parts it needs, never the whole file, and damage anywhere is found
//! where that part is read. Every offset and length is checked; a damaged
//! file is an error, never a panic nor a different answer.
//!
//! Layout (little-endian):
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic, `JPKBSRCH` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 4 | kind ([`Kind`]) |
//! | 4 | section count (at most [`MAX_SECTIONS`]) |
//! | 20 a section | its offset, length (`u64` each) and CRC-32 |
//! | 8 | the file's length |
//! | 4 | the CRC-32 of the header before it |
//! | … | the sections, back to back, in order |
//!
//! Files are replaced whole (temporary file, rename: [`crate::write_atomic`]),
//! so a reader sees an old file or a new one; an open file keeps reading
//! the one it opened.

use std::borrow::Cow;
use std::fs::File;
use std::path::Path;

use crate::codec::{Corrupt, Reader, crc};

/// Opens a regular file without blocking: a FIFO put in the cache must
/// not hang a search or the MCP server (issue 24, item 4).
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    jp_kb_fs::open_regular(path).map(|opened| opened.file)
}

/// True when a read failed because there is nothing there.
pub fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// Bumped whenever the layout of any kind, or the tokenizer, changes: a
/// file of another version is rebuilt.
pub const FORMAT_VERSION: u32 = 9;
const MAGIC: &[u8; 8] = b"JPKBSRCH";
/// The most sections a file has.
pub const MAX_SECTIONS: usize = 16;
/// The largest section read whole: a larger one is damage (the largest
/// real one, a saved walk of tldr's 45k pages, is ~3 MB).
const MAX_WHOLE: u64 = 1 << 30;
const PREFIX: usize = 8 + 4 + 4 + 4;
const ENTRY: usize = 20;
const TAIL: usize = 8 + 4;

/// What a cache file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// A segment of the index (`crate::segment`).
    Segment = 1,
    /// The topics' walks (the core's `search::walks`).
    Walks = 2,
    /// The index's files' places (the core's `search::saved_places`).
    Places = 3,
    /// Hits' token counts ([`crate::Memo`]).
    Memo = 4,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Segment => "search index",
            Kind::Walks => "walks file",
            Kind::Places => "places file",
            Kind::Memo => "memo file",
        }
    }
}

/// Why a cache file, or a part of it, cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// Not a jp-kb cache file, or one of another kind.
    #[error("not a jp-kb {0}")]
    Foreign(&'static str),
    /// A file of another format version.
    #[error("made by another version of jp-kb (format {0}, this one reads {FORMAT_VERSION})")]
    OtherVersion(u32),
    /// Truncated, or a part whose checksum or structure is wrong.
    #[error("damaged ({0})")]
    Corrupt(&'static str),
    /// The file could not be read.
    #[error("unreadable ({0})")]
    Unreadable(String),
}

impl From<Corrupt> for CacheError {
    fn from(c: Corrupt) -> Self {
        CacheError::Corrupt(c.0)
    }
}

/// Where a part lies in the file, and its CRC-32.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Part {
    pub at: u64,
    pub len: u64,
    pub crc: u32,
}

/// The bytes of a cache file of `kind` holding `sections`, in order.
pub fn encode(kind: Kind, sections: &[&[u8]]) -> Vec<u8> {
    debug_assert!(sections.len() <= MAX_SECTIONS);
    let header_len = PREFIX + sections.len() * ENTRY + TAIL;
    let total: usize = sections.iter().map(|s| s.len()).sum();
    let mut out = Vec::with_capacity(header_len + total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(kind as u32).to_le_bytes());
    out.extend_from_slice(
        &u32::try_from(sections.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    let mut at = header_len as u64;
    for s in sections {
        out.extend_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&(s.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc(s).to_le_bytes());
        at += s.len() as u64;
    }
    out.extend_from_slice(&at.to_le_bytes());
    let sum = crc(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    for s in sections {
        out.extend_from_slice(s);
    }
    out
}

/// Where a file's bytes are: a file read by position, or memory (a
/// segment just built, an index that is not saved).
#[derive(Debug)]
enum Source {
    Memory(Vec<u8>),
    File(File),
}

impl Source {
    fn len(&self) -> Result<u64, CacheError> {
        match self {
            Source::Memory(bytes) => Ok(bytes.len() as u64),
            Source::File(file) => file
                .metadata()
                .map(|m| m.len())
                .map_err(|e| CacheError::Unreadable(e.to_string())),
        }
    }

    /// `len` bytes at `at`; short is damage (the file was cut).
    fn read(&self, at: u64, len: u64) -> Result<Cow<'_, [u8]>, CacheError> {
        let too_far = CacheError::Corrupt("truncated");
        let end = at.checked_add(len).ok_or(too_far.clone())?;
        match self {
            Source::Memory(bytes) => {
                let (Ok(at), Ok(end)) = (usize::try_from(at), usize::try_from(end)) else {
                    return Err(too_far);
                };
                bytes.get(at..end).map(Cow::Borrowed).ok_or(too_far)
            }
            Source::File(file) => {
                let len = usize::try_from(len).map_err(|_| too_far.clone())?;
                let mut buf = vec![0; len];
                read_exact_at(file, &mut buf, at).map_err(|e| {
                    if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        too_far
                    } else {
                        CacheError::Unreadable(e.to_string())
                    }
                })?;
                Ok(Cow::Owned(buf))
            }
        }
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(not(unix))]
fn read_exact_at(mut file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::io::{Read as _, Seek as _};
    file.seek(std::io::SeekFrom::Start(at))?;
    file.read_exact(buf)
}

/// An open cache file, its header read and checked.
#[derive(Debug)]
pub struct CacheFile {
    source: Source,
    sections: Vec<Part>,
}

impl CacheFile {
    /// Opens the cache file of `kind` at `path` without blocking (a FIFO
    /// there is refused) and reads its header: `Ok(None)` when there is
    /// none.
    pub fn open(path: &Path, kind: Kind) -> Result<Option<Self>, CacheError> {
        match open_regular(path) {
            Ok(file) => Self::open_file(file, kind).map(Some),
            Err(e) if is_absent(&e) => Ok(None),
            Err(e) => Err(CacheError::Unreadable(e.to_string())),
        }
    }

    /// A cache file of `kind` open as `file`.
    pub fn open_file(file: File, kind: Kind) -> Result<Self, CacheError> {
        Self::new(Source::File(file), kind)
    }

    /// A cache file of `kind` held in memory.
    pub fn from_bytes(bytes: Vec<u8>, kind: Kind) -> Result<Self, CacheError> {
        Self::new(Source::Memory(bytes), kind)
    }

    fn new(source: Source, kind: Kind) -> Result<Self, CacheError> {
        let file_len = source.len()?;
        let longest = (PREFIX + MAX_SECTIONS * ENTRY + TAIL) as u64;
        let head = source.read(0, longest.min(file_len))?;
        let foreign = CacheError::Foreign(kind.name());
        if head.get(..MAGIC.len()) != Some(&MAGIC[..]) {
            return Err(foreign);
        }
        let mut r = Reader {
            data: &head,
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(CacheError::OtherVersion(version));
        }
        if r.u32()? != kind as u32 {
            return Err(foreign);
        }
        let count = r.u32()? as usize;
        if count > MAX_SECTIONS {
            return Err(CacheError::Corrupt("section count"));
        }
        let header_len = PREFIX + count * ENTRY + TAIL;
        let mut sections = Vec::with_capacity(count);
        let mut expected = header_len as u64;
        for _ in 0..count {
            let part = Part {
                at: r.u64()?,
                len: r.u64()?,
                crc: r.u32()?,
            };
            if part.at != expected {
                return Err(CacheError::Corrupt("section lengths"));
            }
            expected = expected
                .checked_add(part.len)
                .ok_or(CacheError::Corrupt("section lengths"))?;
            sections.push(part);
        }
        let stated_len = r.u64()?;
        let header_crc = r.u32()?;
        if head.get(..header_len - 4).map(crc) != Some(header_crc) {
            return Err(CacheError::Corrupt("checksum mismatch"));
        }
        if stated_len != file_len {
            return Err(CacheError::Corrupt("truncated"));
        }
        if expected != file_len {
            return Err(CacheError::Corrupt("section lengths"));
        }
        Ok(Self { source, sections })
    }

    /// How many sections the file has.
    pub fn section_count(&self) -> usize {
        self.sections.len()
    }

    /// The length of section `i` (0 when there is none).
    pub fn section_len(&self, i: usize) -> u64 {
        self.sections.get(i).map_or(0, |p| p.len)
    }

    /// Section `i` whole, checked against its CRC.
    pub fn section(&self, i: usize) -> Result<Cow<'_, [u8]>, CacheError> {
        let part = *self.sections.get(i).ok_or(CacheError::Corrupt("section"))?;
        if part.len > MAX_WHOLE {
            return Err(CacheError::Corrupt("section too large"));
        }
        self.checked(part)
    }

    /// The piece of section `i` that `piece` says (its offset from the
    /// section's start, its length and CRC), checked against that CRC.
    pub fn piece(&self, i: usize, piece: Part) -> Result<Cow<'_, [u8]>, CacheError> {
        let section = *self.sections.get(i).ok_or(CacheError::Corrupt("section"))?;
        let end = piece.at.checked_add(piece.len);
        if end.is_none_or(|end| end > section.len) {
            return Err(CacheError::Corrupt("out of its section"));
        }
        self.checked(Part {
            at: section.at + piece.at,
            ..piece
        })
    }

    fn checked(&self, part: Part) -> Result<Cow<'_, [u8]>, CacheError> {
        let bytes = self.source.read(part.at, part.len)?;
        if crc(&bytes) != part.crc {
            return Err(CacheError::Corrupt("checksum mismatch"));
        }
        Ok(bytes)
    }
}

/// Every section of the good cache file `bytes` of `kind` (to damage one
/// behind a checksum that matches it).
#[cfg(test)]
pub(crate) fn sections_of(bytes: &[u8], kind: Kind) -> Vec<Vec<u8>> {
    let file = CacheFile::from_bytes(bytes.to_vec(), kind).expect("a good file");
    (0..file.section_count())
        .map(|i| file.section(i).expect("a good section").into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        encode(
            Kind::Places,
            &[b"header bytes", b"", b"blocks: one two three"],
        )
    }

    /// Everything a reader can ask of `bytes`, or the first error.
    fn read_all(bytes: Vec<u8>) -> Result<Vec<Vec<u8>>, CacheError> {
        let file = CacheFile::from_bytes(bytes, Kind::Places)?;
        let mut out = Vec::new();
        for i in 0..file.section_count() {
            out.push(file.section(i)?.into_owned());
        }
        let piece = Part {
            at: 8,
            len: 3,
            crc: crc(b"one"),
        };
        out.push(file.piece(2, piece)?.into_owned());
        Ok(out)
    }

    #[test]
    fn round_trips_and_checks_kind_version_and_bounds() {
        let all = read_all(sample()).unwrap();
        assert_eq!(all[0], b"header bytes");
        assert!(all[1].is_empty());
        assert_eq!(all[3], b"one");
        let file = CacheFile::from_bytes(sample(), Kind::Places).unwrap();
        assert_eq!(file.section_len(2), 21);
        let outside = Part {
            at: 20,
            len: 2,
            crc: 0,
        };
        assert_eq!(
            file.piece(2, outside),
            Err(CacheError::Corrupt("out of its section"))
        );
        assert_eq!(
            CacheFile::from_bytes(sample(), Kind::Memo).unwrap_err(),
            CacheError::Foreign("memo file")
        );
        let mut other = sample();
        other[8] = 99;
        assert_eq!(
            CacheFile::from_bytes(other, Kind::Places).unwrap_err(),
            CacheError::OtherVersion(99)
        );
        assert!(CacheFile::from_bytes(b"JPKB".to_vec(), Kind::Places).is_err());
    }

    /// A header that states a section larger than any real one (its CRC
    /// made to match) is refused before anything is allocated for it.
    #[test]
    fn a_huge_section_is_never_read_whole() {
        let huge = MAX_WHOLE + 1;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(Kind::Memo as u32).to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes());
        let header_len = (PREFIX + ENTRY + TAIL) as u64;
        bytes.extend_from_slice(&header_len.to_le_bytes());
        bytes.extend_from_slice(&huge.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&(header_len + huge).to_le_bytes());
        let sum = crc(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        let tmp = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut &tmp, &bytes).unwrap();
        tmp.set_len(header_len + huge).unwrap();
        let file = CacheFile::open_file(tmp, Kind::Memo).unwrap();
        assert_eq!(
            file.section(0),
            Err(CacheError::Corrupt("section too large"))
        );
    }

    proptest::proptest! {
        /// Up to three flipped bits anywhere, or a cut anywhere: an error
        /// where the damage is read, never other bytes.
        #[test]
        fn any_small_damage_is_an_error(
            bits in proptest::collection::vec(0usize..100_000, 1..=3),
            cut in 0usize..100_000,
        ) {
            let good = sample();
            let mut bad = good.clone();
            let mut flipped = std::collections::BTreeSet::new();
            for bit in bits {
                let bit = bit % (good.len() * 8);
                if flipped.insert(bit) {
                    bad[bit / 8] ^= 1 << (bit % 8);
                }
            }
            proptest::prop_assert!(read_all(bad).is_err());
            let cut = cut % good.len();
            proptest::prop_assert!(read_all(good[..cut].to_vec()).is_err());
        }
    }
}
