//! Reading a segment in parts: the header and the small sections at open,
//! then dictionary blocks, postings and document blocks as a query needs
//! them, each checked against its CRC when read.

use std::borrow::Cow;
use std::fs::File;

use super::tables::{
    decode_postings, parse_doc_table, parse_ids, parse_names, parse_norms, parse_term_table,
};
use super::{
    DOCS_PER_BLOCK, DocMeta, FIELDS, FORMAT_VERSION, HEADER_LEN, MAGIC, Norms, Part, Postings,
    SECTIONS, SegmentError, TERMS_PER_BLOCK, section,
};
use crate::codec::{Corrupt, Reader, crc};

/// Where a segment's bytes are: a file read by position, or memory (a
/// segment just built, an index that is not saved).
#[derive(Debug)]
enum Source {
    Memory(Vec<u8>),
    File(File),
}

impl Source {
    fn len(&self) -> Result<u64, SegmentError> {
        match self {
            Source::Memory(bytes) => Ok(bytes.len() as u64),
            Source::File(file) => file
                .metadata()
                .map(|m| m.len())
                .map_err(|e| SegmentError::Unreadable(e.to_string())),
        }
    }

    /// `len` bytes at `at`; short is damage (the file was cut).
    fn read(&self, at: u64, len: u64) -> Result<Cow<'_, [u8]>, SegmentError> {
        let too_far = SegmentError::Corrupt("truncated");
        let end = at.checked_add(len).ok_or(too_far.clone())?;
        match self {
            Source::Memory(bytes) => {
                let (at, end) = (usize::try_from(at), usize::try_from(end));
                let (Ok(at), Ok(end)) = (at, end) else {
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
                        SegmentError::Unreadable(e.to_string())
                    }
                })?;
                Ok(Cow::Owned(buf))
            }
        }
    }

    /// A part's bytes, checked against its CRC.
    fn part(&self, part: Part) -> Result<Cow<'_, [u8]>, SegmentError> {
        let bytes = self.read(part.at, part.len)?;
        if crc(&bytes) != part.crc {
            return Err(SegmentError::Corrupt("checksum mismatch"));
        }
        Ok(bytes)
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

/// A read-only segment, open.
#[derive(Debug, Default)]
pub struct Segment {
    pub id: u64,
    /// For a delta: the id of the main segment it applies to.
    pub base: u64,
    /// The digest of the files the index was last brought up to date with
    /// (see [`crate::FileStamp::digest`]); 0 when unknown.
    pub digest: u64,
    /// The sum of each field's length over the documents.
    pub total_lens: [u64; FIELDS],
    /// Per document.
    pub norms: Vec<Norms>,
    /// For a delta: the main segment's documents it replaces or removes.
    pub masked: Vec<u32>,
    /// Short names (folded) with their documents, in name order.
    pub names: Vec<(String, Vec<u32>)>,
    source: Option<Source>,
    term_count: usize,
    doc_blocks: Vec<Part>,
    term_blocks: Vec<(String, Part)>,
    postings: Part,
}

impl Segment {
    /// Opens a segment file: reads and checks its header and the sections
    /// every query needs; the rest is read when used.
    pub fn open_file(file: File) -> Result<Self, SegmentError> {
        Self::open(Source::File(file))
    }

    /// A segment held in memory (one just built).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, SegmentError> {
        Self::open(Source::Memory(bytes))
    }

    /// An empty segment (no file yet).
    pub fn empty(id: u64, base: u64) -> Self {
        Self {
            id,
            base,
            ..Self::default()
        }
    }

    /// Number of documents.
    pub fn doc_count(&self) -> usize {
        self.norms.len()
    }

    fn open(source: Source) -> Result<Self, SegmentError> {
        let file_len = source.len()?;
        let head_len = (HEADER_LEN as u64).min(file_len);
        let head = source.read(0, head_len)?;
        if head.len() < MAGIC.len() || &head[..MAGIC.len()] != MAGIC {
            return Err(SegmentError::Foreign);
        }
        let mut r = Reader {
            data: &head,
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(SegmentError::OtherVersion(version));
        }
        if head.len() < HEADER_LEN {
            return Err(SegmentError::Corrupt("truncated"));
        }
        let (id, base, digest) = (r.u64()?, r.u64()?, r.u64()?);
        let doc_count = r.u32()? as usize;
        let term_count = r.u32()? as usize;
        let mut total_lens = [0; FIELDS];
        for total in &mut total_lens {
            *total = r.u64()?;
        }
        let mut parts = [Part::default(); SECTIONS];
        let mut expected = HEADER_LEN as u64;
        for part in &mut parts {
            *part = Part {
                at: r.u64()?,
                len: r.u64()?,
                crc: r.u32()?,
            };
            if part.at != expected {
                return Err(SegmentError::Corrupt("section lengths"));
            }
            expected = expected
                .checked_add(part.len)
                .ok_or(SegmentError::Corrupt("section lengths"))?;
        }
        let stated_len = r.u64()?;
        let header_crc = r.u32()?;
        if crc(&head[..HEADER_LEN - 4]) != header_crc {
            return Err(SegmentError::Corrupt("checksum mismatch"));
        }
        if stated_len != file_len {
            return Err(SegmentError::Corrupt("truncated"));
        }
        if expected != file_len {
            return Err(SegmentError::Corrupt("section lengths"));
        }
        let whole = |i: usize| source.part(parts[i]);
        let norms = parse_norms(&whole(section::NORMS)?, doc_count)?;
        let masked = parse_ids(&mut Reader::new(&whole(section::MASKED)?), true)?;
        let names = parse_names(&whole(section::NAMES)?, doc_count)?;
        let doc_blocks = parse_doc_table(&whole(section::DOC_TABLE)?, doc_count, &parts)?;
        let term_blocks = parse_term_table(&whole(section::TERM_TABLE)?, term_count, &parts)?;
        Ok(Self {
            id,
            base,
            digest,
            total_lens,
            norms,
            masked,
            names,
            term_count,
            doc_blocks,
            term_blocks,
            postings: parts[section::POSTINGS],
            source: Some(source),
        })
    }

    fn source(&self) -> Result<&Source, SegmentError> {
        self.source
            .as_ref()
            .ok_or(SegmentError::Corrupt("empty segment"))
    }

    /// Reads the documents of block `b` in order, giving each to `each`
    /// borrowed until it returns `false`; a block read to its end is
    /// checked to end with its last document.
    fn each_doc(
        &self,
        b: usize,
        mut each: impl FnMut(usize, &str, u64, i64) -> bool,
    ) -> Result<(), SegmentError> {
        let part = *self.doc_blocks.get(b).ok_or(Corrupt("document"))?;
        let bytes = self.source()?.part(part)?;
        let first = b * DOCS_PER_BLOCK;
        let count = DOCS_PER_BLOCK.min(self.doc_count().saturating_sub(first));
        let mut r = Reader::new(&bytes);
        for i in first..first + count {
            let path = r.str()?;
            let size = r.u64()?;
            let modified = i64::from_le_bytes(r.u64()?.to_le_bytes());
            if !each(i, path, size, modified) {
                return Ok(());
            }
        }
        if !r.is_done() {
            return Err(SegmentError::Corrupt("document block"));
        }
        Ok(())
    }

    fn meta(&self, i: usize, path: &str, bytes: u64, modified: i64) -> Option<DocMeta> {
        Some(DocMeta {
            path: path.to_owned(),
            bytes,
            modified,
            lens: self.norms.get(i)?.lens,
        })
    }

    /// Document `doc` (one block read; only its own path copied).
    pub fn doc(&self, doc: u32) -> Result<DocMeta, SegmentError> {
        let doc = doc as usize;
        let mut found = None;
        self.each_doc(doc / DOCS_PER_BLOCK, |i, path, bytes, modified| {
            if i == doc {
                found = self.meta(i, path, bytes, modified);
            }
            i < doc
        })?;
        found.ok_or(SegmentError::Corrupt("document"))
    }

    /// Every document, in order (every block read).
    pub fn docs(&self) -> Result<Vec<DocMeta>, SegmentError> {
        let mut out = Vec::with_capacity(self.doc_count());
        let mut missing = false;
        for b in 0..self.doc_blocks.len() {
            self.each_doc(b, |i, path, bytes, modified| {
                match self.meta(i, path, bytes, modified) {
                    Some(meta) => out.push(meta),
                    None => missing = true,
                }
                true
            })?;
        }
        if missing {
            return Err(SegmentError::Corrupt("document"));
        }
        Ok(out)
    }

    /// The dictionary entries of term block `b`.
    fn term_block(&self, b: usize) -> Result<Vec<TermEntry>, SegmentError> {
        let (first, part) = self.term_blocks.get(b).ok_or(Corrupt("term"))?;
        let bytes = self.source()?.part(*part)?;
        let count = TERMS_PER_BLOCK.min(self.term_count.saturating_sub(b * TERMS_PER_BLOCK));
        let mut r = Reader::new(&bytes);
        let mut out: Vec<TermEntry> = Vec::with_capacity(count);
        for _ in 0..count {
            let term = r.string()?;
            let at = r.varint()?;
            let len = r.varint()?;
            let df = usize::try_from(r.varint()?).map_err(|_| Corrupt("df"))?;
            let crc = r.u32()?;
            let end = at.checked_add(len).ok_or(Corrupt("postings"))?;
            if end > self.postings.len {
                return Err(SegmentError::Corrupt("postings out of bounds"));
            }
            if out.last().is_some_and(|p| p.term >= term) {
                return Err(SegmentError::Corrupt("term order"));
            }
            let part = Part {
                at: self.postings.at + at,
                len,
                crc,
            };
            out.push(TermEntry { term, part, df });
        }
        if !r.is_done() || out.first().is_none_or(|e| &e.term != first) {
            return Err(SegmentError::Corrupt("term block"));
        }
        Ok(out)
    }

    /// The block that would hold `term`: the last whose first term is not
    /// after it.
    fn block_of(&self, term: &str) -> Option<usize> {
        let after = self
            .term_blocks
            .partition_point(|(first, _)| first.as_str() <= term);
        after.checked_sub(1)
    }

    /// The dictionary entry of `term`, if it occurs.
    fn entry(&self, term: &str) -> Result<Option<TermEntry>, SegmentError> {
        let Some(b) = self.block_of(term) else {
            return Ok(None);
        };
        Ok(self.term_block(b)?.into_iter().find(|e| e.term == term))
    }

    /// How many documents hold `term`.
    pub fn df(&self, term: &str) -> Result<usize, SegmentError> {
        Ok(self.entry(term)?.map_or(0, |e| e.df))
    }

    /// The postings of `term` (empty when it does not occur).
    pub fn postings(&self, term: &str) -> Result<Postings, SegmentError> {
        match self.entry(term)? {
            Some(e) => self.read_postings(&e),
            None => Ok(Vec::new()),
        }
    }

    fn read_postings(&self, e: &TermEntry) -> Result<Postings, SegmentError> {
        let bytes = self.source()?.part(e.part)?;
        decode_postings(&bytes, e.df, self.doc_count())
    }

    /// The terms that start with `prefix` (at most `limit`), with their
    /// postings, in term order.
    pub fn with_prefix(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<(String, Postings)>, SegmentError> {
        let mut out = Vec::new();
        let start = self.block_of(prefix).unwrap_or(0);
        for b in start..self.term_blocks.len() {
            for e in self.term_block(b)? {
                if e.term.as_str() < prefix {
                    continue;
                }
                if !e.term.starts_with(prefix) || out.len() >= limit {
                    return Ok(out);
                }
                let postings = self.read_postings(&e)?;
                out.push((e.term, postings));
            }
        }
        Ok(out)
    }

    /// Every term with its postings, in term order (merging, checking).
    pub fn each_term(&self, mut each: impl FnMut(&str, Postings)) -> Result<(), SegmentError> {
        for b in 0..self.term_blocks.len() {
            for e in self.term_block(b)? {
                let postings = self.read_postings(&e)?;
                each(&e.term, postings);
            }
        }
        Ok(())
    }

    /// Reads and checks every part: an error for any damage a CRC-32 can
    /// see.
    pub fn check_all(&self) -> Result<(), SegmentError> {
        self.docs()?;
        self.each_term(|_, _| {})
    }
}

/// A term's dictionary entry.
struct TermEntry {
    term: String,
    part: Part,
    df: usize,
}
