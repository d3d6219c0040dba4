//! One immutable piece of the index and its file format (the builder that
//! makes one is [`Builder`]).
//!
//! A segment is read whole into memory and used in place: a fixed-width
//! table of sorted terms is binary-searched, so opening costs one read, a
//! checksum and a parse of the document table, not a dictionary build.
//! Every offset is checked; a damaged file is an error, never a panic.
//!
//! Layout (little-endian): magic, format version, id, base id, counts,
//! section lengths, then the sections (documents, removed paths, term
//! table of `(string offset, string length, postings offset, df)`, term
//! strings, postings as varint `(doc delta, tf per field)` tuples), then a
//! checksum of everything before it.

mod builder;

pub use super::codec::checksum;
pub use builder::{Builder, encode_parts};

use super::codec::{Corrupt, Reader, read_varint};

/// Bumped whenever the layout or the tokenizer changes: an index of
/// another version is rebuilt.
pub const FORMAT_VERSION: u32 = 7;
const MAGIC: &[u8; 8] = b"JPKBSRCH";
const HEADER_LEN: usize = 8 + 4 + 8 + 8 + 4 * 3 + 8 * 5;
const TERM_ENTRY: usize = 16;

/// What the index remembers of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocMeta {
    /// The file's path relative to the workspace root, `/`-separated.
    pub path: String,
    pub bytes: u64,
    /// Nanoseconds since the epoch; 0 when the file changed so recently
    /// that a later change could keep the same time (re-read next time).
    pub modified: i64,
    /// Number of terms in each field (the BM25F field lengths).
    pub lens: Tfs,
}

/// The fields of a document, scored apart (BM25F).
pub const FIELDS: usize = 3;
/// What names the subject: the last part of its slug, its title
/// (`# name`), front-matter `name` and `title`.
pub const NAME: usize = 0;
/// What summarises it: its first paragraph (tldr's `> description`), its
/// other headings, front-matter `description` and `tags`, and the
/// directories of its slug (`linux` in `linux/df`).
pub const SUMMARY: usize = 1;
/// The rest of the text.
pub const BODY: usize = 2;
/// Not a field: a mention of another subject (see [`super::rank`]),
/// stored as a body count and counted in no field's length.
pub const MENTION: usize = FIELDS;
/// A count per field.
pub type Tfs = [u32; FIELDS];

/// Why a segment file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SegmentError {
    #[error("not a jp-kb search index")]
    Foreign,
    #[error("made by another version of jp-kb (index format {0}, this one reads {FORMAT_VERSION})")]
    OtherVersion(u32),
    #[error("damaged ({0})")]
    Corrupt(&'static str),
}

impl From<Corrupt> for SegmentError {
    fn from(c: Corrupt) -> Self {
        SegmentError::Corrupt(c.0)
    }
}

/// A read-only segment.
#[derive(Debug, Default)]
pub struct Segment {
    pub id: u64,
    /// For a delta: the id of the main segment it applies to.
    pub base: u64,
    pub docs: Vec<DocMeta>,
    /// For a delta: paths of the main segment that are gone or replaced.
    pub removed: Vec<String>,
    bytes: Vec<u8>,
    table: usize,
    term_count: usize,
    strings: usize,
    postings: usize,
    postings_len: usize,
}

/// Postings of one term: `(doc, tf per field)` in doc order.
pub struct Postings<'a> {
    data: &'a [u8],
    doc: u32,
}

impl Iterator for Postings<'_> {
    type Item = (u32, Tfs);
    fn next(&mut self) -> Option<(u32, Tfs)> {
        let (delta, mut rest) = read_varint(self.data)?;
        let mut tfs = [0; FIELDS];
        for tf in &mut tfs {
            let (v, after) = read_varint(rest)?;
            *tf = u32::try_from(v).ok()?;
            rest = after;
        }
        self.data = rest;
        self.doc = self.doc.checked_add(u32::try_from(delta).ok()?)?;
        Some((self.doc, tfs))
    }
}

impl Segment {
    /// Parses and checks a segment file.
    pub fn decode(bytes: Vec<u8>) -> Result<Self, SegmentError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(SegmentError::Foreign);
        }
        let mut r = Reader {
            data: &bytes,
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(SegmentError::OtherVersion(version));
        }
        if bytes.len() < HEADER_LEN + 8 {
            return Err(SegmentError::Corrupt("too short"));
        }
        let body = bytes.len() - 8;
        let stored = u64::from_le_bytes(
            bytes[body..]
                .try_into()
                .map_err(|_| SegmentError::Corrupt("checksum"))?,
        );
        if checksum(&bytes[..body]) != stored {
            return Err(SegmentError::Corrupt("checksum mismatch"));
        }
        let id = r.u64()?;
        let base = r.u64()?;
        let doc_count = r.u32()? as usize;
        let term_count = r.u32()? as usize;
        let removed_count = r.u32()? as usize;
        let mut lens = [0usize; 5];
        for len in &mut lens {
            *len = usize::try_from(r.u64()?).map_err(|_| SegmentError::Corrupt("length"))?;
        }
        let mut at = HEADER_LEN;
        let mut starts = [0usize; 5];
        for (start, len) in starts.iter_mut().zip(lens) {
            *start = at;
            at = at
                .checked_add(len)
                .filter(|end| *end <= body)
                .ok_or(SegmentError::Corrupt("section out of bounds"))?;
        }
        if at != body || lens[2] != term_count.saturating_mul(TERM_ENTRY) {
            return Err(SegmentError::Corrupt("section lengths"));
        }
        let mut r = Reader {
            data: &bytes[..starts[1]],
            at: starts[0],
        };
        // A count is only trusted as far as the section could hold it (a
        // document takes at least 29 bytes, a removed path 1).
        let mut docs = Vec::with_capacity(doc_count.min(lens[0] / 29));
        for _ in 0..doc_count {
            let path = r.string()?;
            let bytes = r.u64()?;
            let modified = i64::from_le_bytes(r.u64()?.to_le_bytes());
            let mut field_lens = [0; FIELDS];
            for len in &mut field_lens {
                *len = r.u32()?;
            }
            docs.push(DocMeta {
                path,
                bytes,
                modified,
                lens: field_lens,
            });
        }
        let mut r = Reader {
            data: &bytes[..starts[2]],
            at: starts[1],
        };
        let mut removed = Vec::with_capacity(removed_count.min(lens[1]));
        for _ in 0..removed_count {
            removed.push(r.string()?);
        }
        Ok(Self {
            id,
            base,
            docs,
            removed,
            table: starts[2],
            term_count,
            strings: starts[3],
            postings: starts[4],
            postings_len: lens[4],
            bytes,
        })
    }

    /// An empty segment (no file yet).
    pub fn empty(id: u64, base: u64) -> Self {
        Self {
            id,
            base,
            ..Self::default()
        }
    }

    fn entry(&self, i: usize) -> Option<(&[u8], usize, usize, u32)> {
        let at = self.table + i * TERM_ENTRY;
        let e = self.bytes.get(at..at + TERM_ENTRY)?;
        let word = |k: usize| {
            e.get(k..k + 4)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_le_bytes)
        };
        let (s_off, s_len, p_off, df) = (word(0)?, word(4)?, word(8)?, word(12)?);
        let s = self.strings + s_off as usize;
        let term = self.bytes.get(s..s + s_len as usize)?;
        let p_end = if i + 1 < self.term_count {
            let next = self.table + (i + 1) * TERM_ENTRY + 8;
            u32::from_le_bytes(self.bytes.get(next..next + 4)?.try_into().ok()?) as usize
        } else {
            self.postings_len
        };
        Some((term, p_off as usize, p_end, df))
    }

    /// The postings of `term`, if it occurs.
    pub fn postings(&self, term: &str) -> Option<Postings<'_>> {
        let (mut lo, mut hi) = (0, self.term_count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let (t, start, end, _) = self.entry(mid)?;
            match t.cmp(term.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let data = self
                        .bytes
                        .get(self.postings + start..self.postings + end.max(start))?;
                    return Some(Postings { data, doc: 0 });
                }
            }
        }
        None
    }

    /// The terms that start with `prefix` (at most `limit`), with their
    /// postings.
    pub fn with_prefix(&self, prefix: &str, limit: usize) -> Vec<(&str, Postings<'_>)> {
        let (mut lo, mut hi) = (0, self.term_count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.entry(mid) {
                Some((t, ..)) if t < prefix.as_bytes() => lo = mid + 1,
                _ => hi = mid,
            }
        }
        let mut out = Vec::new();
        for i in lo..self.term_count {
            let Some((term, start, end, _)) = self.entry(i) else {
                break;
            };
            if !term.starts_with(prefix.as_bytes()) || out.len() >= limit {
                break;
            }
            let data = self
                .bytes
                .get(self.postings + start..self.postings + end.max(start));
            if let (Ok(term), Some(data)) = (std::str::from_utf8(term), data) {
                out.push((term, Postings { data, doc: 0 }));
            }
        }
        out
    }

    /// Every term with its postings, in term order (for merging).
    fn each_term(&self, mut each: impl FnMut(&str, Postings<'_>)) -> Result<(), SegmentError> {
        for i in 0..self.term_count {
            let (term, start, end, _) = self.entry(i).ok_or(SegmentError::Corrupt("term"))?;
            let term = std::str::from_utf8(term).map_err(|_| SegmentError::Corrupt("term"))?;
            let data = self
                .bytes
                .get(self.postings + start..self.postings + end.max(start))
                .ok_or(SegmentError::Corrupt("postings"))?;
            each(term, Postings { data, doc: 0 });
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(super) fn meta(path: &str) -> DocMeta {
        DocMeta {
            path: path.into(),
            bytes: 1,
            modified: 2,
            lens: [0; FIELDS],
        }
    }

    pub(super) fn sample() -> Builder {
        let mut b = Builder::default();
        b.add(meta("a.md"), |add| {
            add("tar", NAME);
            add("archiv", BODY);
            add("tar", BODY);
            add("tar", BODY);
        });
        b.add(meta("b.md"), |add| add("zip", SUMMARY));
        b.add(meta("c.md"), |add| add("tar", BODY));
        b.removed.push("old.md".into());
        b
    }

    #[test]
    fn round_trips_and_finds_postings() {
        let seg = Segment::decode(sample().encode(7, 3)).unwrap();
        assert_eq!((seg.id, seg.base), (7, 3));
        assert_eq!(seg.docs.len(), 3);
        assert_eq!(seg.docs[0].lens, [1, 0, 3]);
        assert_eq!(seg.removed, ["old.md"]);
        assert_eq!(
            seg.postings("tar").unwrap().collect::<Vec<_>>(),
            [(0, [1, 0, 2]), (2, [0, 0, 1])]
        );
        assert_eq!(
            seg.postings("zip").unwrap().collect::<Vec<_>>(),
            [(1, [0, 1, 0])]
        );
        assert!(seg.postings("nope").is_none());
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        let good = sample().encode(1, 0);
        assert_eq!(
            Segment::decode(b"hello".to_vec()).unwrap_err(),
            SegmentError::Foreign
        );
        let mut other = good.clone();
        other[8] = 99;
        assert_eq!(
            Segment::decode(other).unwrap_err(),
            SegmentError::OtherVersion(99)
        );
        for cut in 0..good.len() {
            assert!(Segment::decode(good[..cut].to_vec()).is_err());
        }
        for i in 12..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x55;
            assert!(Segment::decode(bad).is_err(), "byte {i}");
        }
        // Damage behind a checksum that matches it: an error, or a segment
        // whose every lookup is safe.
        for i in 12..good.len() - 8 {
            let mut bad = good[..good.len() - 8].to_vec();
            bad[i] ^= 0x55;
            let sum = checksum(&bad);
            bad.extend_from_slice(&sum.to_le_bytes());
            if let Ok(seg) = Segment::decode(bad) {
                for (term, postings) in seg.with_prefix("", usize::MAX) {
                    let _ = (seg.postings(term).map(Iterator::count), postings.count());
                }
                let _ = seg.each_term(|_, p| {
                    let _ = p.count();
                });
            }
        }
    }

    proptest::proptest! {
        /// Up to three flipped bits anywhere, or a cut anywhere, is always
        /// an error (CRC-32 detects every error of up to three bits in
        /// files this size, and the length is part of the checksum).
        #[test]
        fn any_small_damage_is_an_error(
            bits in proptest::collection::vec(0usize..100_000, 1..=3),
            cut in 0usize..100_000,
        ) {
            let good = sample().encode(7, 0);
            let mut bad = good.clone();
            let mut flipped = std::collections::BTreeSet::new();
            for bit in bits {
                let bit = bit % (good.len() * 8);
                if flipped.insert(bit) {
                    bad[bit / 8] ^= 1 << (bit % 8);
                }
            }
            proptest::prop_assert!(Segment::decode(bad).is_err());
            let cut = cut % good.len();
            proptest::prop_assert!(Segment::decode(good[..cut].to_vec()).is_err());
        }
    }
}
