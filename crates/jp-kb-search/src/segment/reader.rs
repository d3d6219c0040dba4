//! Reading a segment in parts: the header and the small sections at open,
//! then dictionary blocks, postings and document blocks as a query needs
//! them, each checked against its CRC when read.

use super::tables::{
    decode_postings, parse_doc_table, parse_ids, parse_names, parse_norms, parse_term_table,
};
use super::{DOCS_PER_BLOCK, DocMeta, FIELDS, HEAD_LEN, Norms, Postings, TERMS_PER_BLOCK, section};
use crate::cache_file::{CacheError, CacheFile, Kind, Part};
use crate::codec::{Corrupt, Reader};

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
    /// The file (none for an empty segment).
    file: Option<CacheFile>,
    term_count: usize,
    doc_blocks: Vec<Part>,
    term_blocks: Vec<(String, Part)>,
}

impl Segment {
    /// A segment from its cache file: reads and checks the sections
    /// every query needs; the rest is read when used.
    pub fn open(file: CacheFile) -> Result<Self, CacheError> {
        if file.section_count() != section::COUNT {
            return Err(CacheError::Corrupt("section count"));
        }
        let whole = |i: usize| file.section(i);
        let head = whole(section::HEAD)?;
        if head.len() != HEAD_LEN {
            return Err(CacheError::Corrupt("segment head"));
        }
        let mut r = Reader::new(&head);
        let (id, base, digest) = (r.u64()?, r.u64()?, r.u64()?);
        let doc_count = r.u32()? as usize;
        let term_count = r.u32()? as usize;
        let mut total_lens = [0; FIELDS];
        for total in &mut total_lens {
            *total = r.u64()?;
        }
        let norms = parse_norms(&whole(section::NORMS)?, doc_count)?;
        let masked = parse_ids(&mut Reader::new(&whole(section::MASKED)?), true)?;
        let names = parse_names(&whole(section::NAMES)?, doc_count)?;
        let docs_len = file.section_len(section::DOCS);
        let doc_blocks = parse_doc_table(&whole(section::DOC_TABLE)?, doc_count, docs_len)?;
        let terms_len = file.section_len(section::TERMS);
        let term_blocks = parse_term_table(&whole(section::TERM_TABLE)?, term_count, terms_len)?;
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
            file: Some(file),
        })
    }

    /// A segment held in memory (one just built).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, CacheError> {
        Self::open(CacheFile::from_bytes(bytes, Kind::Segment)?)
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

    fn file(&self) -> Result<&CacheFile, CacheError> {
        self.file
            .as_ref()
            .ok_or(CacheError::Corrupt("empty segment"))
    }

    /// Reads the documents of block `b` in order, giving each to `each`
    /// borrowed until it returns `false`; a block read to its end is
    /// checked to end with its last document.
    fn each_doc(
        &self,
        b: usize,
        mut each: impl FnMut(usize, &str, u64, i64) -> bool,
    ) -> Result<(), CacheError> {
        let part = *self.doc_blocks.get(b).ok_or(Corrupt("document"))?;
        let bytes = self.file()?.piece(section::DOCS, part)?;
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
            return Err(CacheError::Corrupt("document block"));
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
    pub fn doc(&self, doc: u32) -> Result<DocMeta, CacheError> {
        let doc = doc as usize;
        let mut found = None;
        self.each_doc(doc / DOCS_PER_BLOCK, |i, path, bytes, modified| {
            if i == doc {
                found = self.meta(i, path, bytes, modified);
            }
            i < doc
        })?;
        found.ok_or(CacheError::Corrupt("document"))
    }

    /// Every document, in order (every block read).
    pub fn docs(&self) -> Result<Vec<DocMeta>, CacheError> {
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
            return Err(CacheError::Corrupt("document"));
        }
        Ok(out)
    }

    /// The dictionary entries of term block `b`.
    fn term_block(&self, b: usize) -> Result<Vec<TermEntry>, CacheError> {
        let (first, part) = self.term_blocks.get(b).ok_or(Corrupt("term"))?;
        let bytes = self.file()?.piece(section::TERMS, *part)?;
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
            if end > self.file()?.section_len(section::POSTINGS) {
                return Err(CacheError::Corrupt("postings out of bounds"));
            }
            if out.last().is_some_and(|p| p.term >= term) {
                return Err(CacheError::Corrupt("term order"));
            }
            let part = Part { at, len, crc };
            out.push(TermEntry { term, part, df });
        }
        if !r.is_done() || out.first().is_none_or(|e| &e.term != first) {
            return Err(CacheError::Corrupt("term block"));
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
    fn entry(&self, term: &str) -> Result<Option<TermEntry>, CacheError> {
        let Some(b) = self.block_of(term) else {
            return Ok(None);
        };
        Ok(self.term_block(b)?.into_iter().find(|e| e.term == term))
    }

    /// How many documents hold `term`.
    pub fn df(&self, term: &str) -> Result<usize, CacheError> {
        Ok(self.entry(term)?.map_or(0, |e| e.df))
    }

    /// The postings of `term` (empty when it does not occur).
    pub fn postings(&self, term: &str) -> Result<Postings, CacheError> {
        match self.entry(term)? {
            Some(e) => self.read_postings(&e),
            None => Ok(Vec::new()),
        }
    }

    fn read_postings(&self, e: &TermEntry) -> Result<Postings, CacheError> {
        let bytes = self.file()?.piece(section::POSTINGS, e.part)?;
        decode_postings(&bytes, e.df, self.doc_count())
    }

    /// The terms that start with `prefix` (at most `limit`), with their
    /// postings, in term order.
    pub fn with_prefix(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<(String, Postings)>, CacheError> {
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
    pub fn each_term(&self, mut each: impl FnMut(&str, Postings)) -> Result<(), CacheError> {
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
    pub fn check_all(&self) -> Result<(), CacheError> {
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
