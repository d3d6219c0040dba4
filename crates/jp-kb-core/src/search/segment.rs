//! One immutable piece of the index and its file format, and the builder
//! that makes one.
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

pub use super::codec::checksum;
use std::borrow::Cow;

use super::codec::{Corrupt, Reader, put_string, put_varint, read_varint};
use super::hash::FastMap;

/// Bumped whenever the layout or the tokenizer changes: an index of
/// another version is rebuilt.
pub const FORMAT_VERSION: u32 = 6;
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

/// A segment being made: documents are added one by one, or carried over
/// from existing segments without reading their files again.
#[derive(Debug, Default)]
pub struct Builder {
    pub docs: Vec<DocMeta>,
    pub removed: Vec<String>,
    term_ids: FastMap<String, u32>,
    postings: Vec<Vec<(u32, Tfs)>>,
    scratch: Vec<(u32, usize)>,
}

impl Builder {
    /// Adds a document whose terms `add_terms` reports as `(term, field)`.
    pub fn add(&mut self, mut meta: DocMeta, add_terms: impl FnOnce(&mut dyn FnMut(&str, usize))) {
        let doc = u32::try_from(self.docs.len()).unwrap_or(u32::MAX);
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let mut lens = [0u32; FIELDS];
        add_terms(&mut |term, field| {
            if field < FIELDS {
                lens[field] = lens[field].saturating_add(1);
            }
            let field = field.min(BODY);
            // Look up before inserting: most words are seen before, and
            // an owned key per occurrence was the builder's main cost.
            let id = if let Some(&id) = self.term_ids.get(term) {
                id
            } else {
                let id = u32::try_from(self.postings.len()).unwrap_or(u32::MAX);
                self.term_ids.insert(term.to_owned(), id);
                self.postings.push(Vec::new());
                id
            };
            scratch.push((id, field));
        });
        scratch.sort_unstable_by_key(|&(id, _)| id);
        let mut i = 0;
        while i < scratch.len() {
            let id = scratch[i].0;
            let mut tfs = [0u32; FIELDS];
            while i < scratch.len() && scratch[i].0 == id {
                let field = scratch[i].1;
                tfs[field] = tfs[field].saturating_add(1);
                i += 1;
            }
            if let Some(list) = self.postings.get_mut(id as usize) {
                list.push((doc, tfs));
            }
        }
        self.scratch = scratch;
        meta.lens = lens;
        self.docs.push(meta);
    }

    /// Carries over the documents of `segment` for which `keep` holds.
    pub fn absorb(
        &mut self,
        segment: &Segment,
        mut keep: impl FnMut(usize, &DocMeta) -> bool,
    ) -> Result<(), SegmentError> {
        let mut new_id = vec![u32::MAX; segment.docs.len()];
        for (old, meta) in segment.docs.iter().enumerate() {
            if keep(old, meta) {
                new_id[old] = u32::try_from(self.docs.len()).unwrap_or(u32::MAX);
                self.docs.push(meta.clone());
            }
        }
        segment.each_term(|term, postings| {
            let mut kept = postings
                .filter_map(|(doc, tfs)| {
                    let id = *new_id.get(doc as usize)?;
                    (id != u32::MAX).then_some((id, tfs))
                })
                .peekable();
            if kept.peek().is_none() {
                return;
            }
            let next = u32::try_from(self.postings.len()).unwrap_or(u32::MAX);
            let id = *self.term_ids.entry(term.to_owned()).or_insert(next);
            if id == next {
                self.postings.push(Vec::new());
            }
            if let Some(list) = self.postings.get_mut(id as usize) {
                list.extend(kept);
            }
        })
    }

    /// The segment file's bytes.
    pub fn encode(&self, id: u64, base: u64) -> Vec<u8> {
        encode_parts(std::slice::from_ref(self), id, base)
    }

    /// The terms in byte order, with their ids.
    fn sorted_terms(&self) -> Vec<(&str, u32)> {
        let mut terms: Vec<(&str, u32)> = self
            .term_ids
            .iter()
            .map(|(t, &i)| (t.as_str(), i))
            .collect();
        terms.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        terms
    }
}

/// Each part's terms in byte order, sorted on every core.
fn sorted_terms_of(parts: &[Builder]) -> Vec<Vec<(&str, u32)>> {
    if parts.len() < 2 {
        return parts.iter().map(Builder::sorted_terms).collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .iter()
            .map(|p| scope.spawn(move || p.sorted_terms()))
            .collect();
        handles
            .into_iter()
            .zip(parts)
            .map(|(h, p)| h.join().unwrap_or_else(|_| p.sorted_terms()))
            .collect()
    })
}

fn put_docs(out: &mut Vec<u8>, docs: &[DocMeta]) {
    for d in docs {
        put_string(out, &d.path);
        out.extend_from_slice(&d.bytes.to_le_bytes());
        out.extend_from_slice(&d.modified.to_le_bytes());
        for len in d.lens {
            out.extend_from_slice(&len.to_le_bytes());
        }
    }
}

/// One term's postings, part after part (each part's document ids moved
/// by its offset), as varint deltas.
fn put_postings(out: &mut Vec<u8>, lists: &[(u32, &[(u32, Tfs)])]) {
    let mut previous = 0;
    for &(offset, list) in lists {
        // Carried-over and added documents keep increasing ids; sorted (a
        // copy) only if not, which keeps the deltas non-negative.
        let in_order: Cow<'_, [(u32, Tfs)]> = if list.is_sorted_by_key(|&(doc, _)| doc) {
            Cow::Borrowed(list)
        } else {
            let mut owned = list.to_vec();
            owned.sort_unstable_by_key(|&(doc, _)| doc);
            Cow::Owned(owned)
        };
        for &(doc, tfs) in in_order.iter() {
            let doc = doc.saturating_add(offset);
            put_varint(out, u64::from(doc.saturating_sub(previous)));
            for tf in tfs {
                put_varint(out, u64::from(tf));
            }
            previous = doc;
        }
    }
}

/// The segment file's bytes of `parts` (built apart, on several threads)
/// as one segment: their documents part after part, each term's postings
/// joined. The parts' terms are sorted on every core and merged here:
/// merging the parts into one builder first (a hash insert of every term
/// of every part after the first) and sorting its terms ran on one core
/// after the others had finished, a fifth of a first build of the tldr
/// tree (`perf record --call-graph dwarf`).
pub fn encode_parts(parts: &[Builder], id: u64, base: u64) -> Vec<u8> {
    let sorted = sorted_terms_of(parts);
    // Each part's documents follow the previous parts' documents.
    let mut offsets = Vec::with_capacity(parts.len());
    let mut doc_count = 0u32;
    let mut docs = Vec::new();
    let mut removed = Vec::new();
    for part in parts {
        offsets.push(doc_count);
        doc_count = doc_count.saturating_add(u32::try_from(part.docs.len()).unwrap_or(u32::MAX));
        put_docs(&mut docs, &part.docs);
        for path in &part.removed {
            put_string(&mut removed, path);
        }
    }
    let removed_count: usize = parts.iter().map(|p| p.removed.len()).sum();
    let capacity = sorted.iter().map(Vec::len).max().unwrap_or(0);
    let mut table = Vec::with_capacity(capacity * TERM_ENTRY);
    let mut strings = Vec::new();
    let mut postings = Vec::new();
    let mut term_count = 0usize;
    let mut heads = vec![0usize; parts.len()];
    // The postings of the term being written, part by part.
    let mut lists: Vec<(u32, &[(u32, Tfs)])> = Vec::with_capacity(parts.len());
    loop {
        let term = sorted
            .iter()
            .zip(&heads)
            .filter_map(|(terms, &at)| terms.get(at).map(|&(t, _)| t))
            .min_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        let Some(term) = term else {
            break;
        };
        lists.clear();
        for (k, terms) in sorted.iter().enumerate() {
            let Some(&(t, id)) = terms.get(heads[k]) else {
                continue;
            };
            if t != term {
                continue;
            }
            heads[k] += 1;
            let list = parts[k]
                .postings
                .get(id as usize)
                .map_or(&[][..], Vec::as_slice);
            lists.push((offsets[k], list));
        }
        let count: usize = lists.iter().map(|(_, l)| l.len()).sum();
        for v in [strings.len(), term.len(), postings.len(), count] {
            table.extend_from_slice(&u32::try_from(v).unwrap_or(u32::MAX).to_le_bytes());
        }
        strings.extend_from_slice(term.as_bytes());
        term_count += 1;
        put_postings(&mut postings, &lists);
    }
    let mut out = Vec::with_capacity(
        HEADER_LEN + docs.len() + removed.len() + table.len() + strings.len() + postings.len() + 8,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&base.to_le_bytes());
    for n in [doc_count as usize, term_count, removed_count] {
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
    for section in [&docs, &removed, &table, &strings, &postings] {
        out.extend_from_slice(&(section.len() as u64).to_le_bytes());
    }
    for section in [docs, removed, table, strings, postings] {
        out.extend_from_slice(&section);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(path: &str) -> DocMeta {
        DocMeta {
            path: path.into(),
            bytes: 1,
            modified: 2,
            lens: [0; FIELDS],
        }
    }

    fn sample() -> Builder {
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
    fn absorb_drops_documents_and_renumbers() {
        let seg = Segment::decode(sample().encode(1, 0)).unwrap();
        let mut b = Builder::default();
        b.absorb(&seg, |_, d| d.path != "a.md").unwrap();
        let merged = Segment::decode(b.encode(2, 0)).unwrap();
        assert_eq!(merged.docs.len(), 2);
        assert_eq!(
            merged.postings("tar").unwrap().collect::<Vec<_>>(),
            [(1, [0, 0, 1])]
        );
        assert!(merged.postings("archiv").is_none());
    }

    /// Parts built apart and encoded as one are, byte for byte, the
    /// segment of one builder given the same documents in the same order.
    #[test]
    fn parts_encode_as_one_builder_would() {
        let words = ["tar", "archiv", "zip", "gzip", "ü", "a", "ab", "b"];
        let doc = |n: usize| -> Vec<(&str, usize)> {
            (0..=(n % 7))
                .map(|k| (words[(n * 3 + k * 5) % words.len()], (n + k) % FIELDS))
                .collect()
        };
        let add = |b: &mut Builder, n: usize| {
            b.add(meta(&format!("d{n}.md")), |add| {
                for (term, field) in doc(n) {
                    add(term, field);
                }
            });
        };
        let mut parts = vec![Builder::default(), Builder::default(), Builder::default()];
        parts[0].removed = vec!["gone.md".into()];
        let mut one = Builder {
            removed: vec!["gone.md".into()],
            ..Builder::default()
        };
        // Part 1 stays empty, as a thread given no file would.
        for n in 0..40 {
            add(&mut parts[if n < 15 { 0 } else { 2 }], n);
            add(&mut one, n);
        }
        assert_eq!(encode_parts(&parts, 9, 4), one.encode(9, 4));
        let seg = Segment::decode(encode_parts(&parts, 9, 4)).unwrap();
        assert_eq!(seg.docs.len(), 40);
        assert_eq!(encode_parts(&[], 1, 0), Builder::default().encode(1, 0));
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
}
