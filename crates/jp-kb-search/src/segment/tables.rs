//! Parsing the parts of a segment read at open (norms, masked documents,
//! names, the two block tables) and a postings list: every count and
//! offset checked against the bytes that hold it, so damage behind a
//! matching checksum is still an error, never a panic.

use super::{DOCS_PER_BLOCK, FIELDS, NORM_LEN, Norms, Postings, TERMS_PER_BLOCK};
use crate::cache_file::{CacheError, Part};
use crate::codec::{Corrupt, Reader, read_varint};

/// Decodes a postings list of `df` documents below `doc_count`.
pub(super) fn decode_postings(
    mut data: &[u8],
    df: usize,
    doc_count: usize,
) -> Result<Postings, CacheError> {
    let bad = CacheError::Corrupt("postings");
    // Each posting takes at least four bytes.
    if df > data.len() / 4 + 1 {
        return Err(bad);
    }
    let mut out = Vec::with_capacity(df);
    let mut doc: Option<u32> = None;
    while !data.is_empty() {
        let (delta, mut rest) = read_varint(data).ok_or(bad.clone())?;
        let delta = u32::try_from(delta).map_err(|_| bad.clone())?;
        let mut tfs = [0; FIELDS];
        for tf in &mut tfs {
            let (v, after) = read_varint(rest).ok_or(bad.clone())?;
            *tf = u32::try_from(v).map_err(|_| bad.clone())?;
            rest = after;
        }
        data = rest;
        let next = match doc {
            None => delta,
            // Strictly increasing: a repeated document is damage.
            Some(d) if delta > 0 => d.checked_add(delta).ok_or(bad.clone())?,
            Some(_) => return Err(bad),
        };
        if next as usize >= doc_count {
            return Err(bad);
        }
        doc = Some(next);
        out.push((next, tfs));
    }
    if out.len() != df {
        return Err(bad);
    }
    Ok(out)
}

pub(super) fn parse_norms(bytes: &[u8], doc_count: usize) -> Result<Vec<Norms>, CacheError> {
    if bytes.len() != doc_count.saturating_mul(NORM_LEN) {
        return Err(CacheError::Corrupt("norms"));
    }
    let mut r = Reader::new(bytes);
    let mut out = Vec::with_capacity(doc_count);
    for _ in 0..doc_count {
        let mut lens = [0; FIELDS];
        for len in &mut lens {
            *len = r.u32()?;
        }
        out.push(Norms {
            lens,
            mentions: r.u32()?,
        });
    }
    Ok(out)
}

/// A count, then that many increasing ids as varint deltas (the first
/// as is); `whole`: nothing may follow.
pub(super) fn parse_ids(r: &mut Reader<'_>, whole: bool) -> Result<Vec<u32>, CacheError> {
    let n = r.count(1)?;
    let mut out: Vec<u32> = Vec::with_capacity(n);
    for _ in 0..n {
        let delta = u32::try_from(r.varint()?).map_err(|_| Corrupt("id"))?;
        let id = match out.last() {
            None => delta,
            Some(_) if delta == 0 => return Err(CacheError::Corrupt("id order")),
            Some(&last) => last.checked_add(delta).ok_or(Corrupt("id"))?,
        };
        out.push(id);
    }
    if whole && !r.is_done() {
        return Err(CacheError::Corrupt("trailing bytes"));
    }
    Ok(out)
}

pub(super) fn parse_names(
    bytes: &[u8],
    doc_count: usize,
) -> Result<Vec<(String, Vec<u32>)>, CacheError> {
    let mut r = Reader::new(bytes);
    let n = r.count(2)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.string()?;
        let docs = parse_ids(&mut r, false)?;
        if docs.last().is_some_and(|&d| d as usize >= doc_count) {
            return Err(CacheError::Corrupt("names"));
        }
        out.push((name, docs));
    }
    if !r.is_done() {
        return Err(CacheError::Corrupt("names"));
    }
    Ok(out)
}

pub(super) fn parse_doc_table(
    bytes: &[u8],
    doc_count: usize,
    docs_len: u64,
) -> Result<Vec<Part>, CacheError> {
    let blocks = doc_count.div_ceil(DOCS_PER_BLOCK);
    if bytes.len() != blocks.saturating_mul(16) {
        return Err(CacheError::Corrupt("document table"));
    }
    let mut r = Reader::new(bytes);
    let mut out = Vec::with_capacity(blocks);
    let mut expected = 0;
    for _ in 0..blocks {
        let (at, len, crc) = (r.u64()?, u64::from(r.u32()?), r.u32()?);
        // Blocks follow each other and fill the section.
        if at != expected {
            return Err(CacheError::Corrupt("document table"));
        }
        expected = at.checked_add(len).ok_or(Corrupt("document table"))?;
        out.push(Part { at, len, crc });
    }
    if expected != docs_len {
        return Err(CacheError::Corrupt("document table"));
    }
    Ok(out)
}

pub(super) fn parse_term_table(
    bytes: &[u8],
    term_count: usize,
    terms_len: u64,
) -> Result<Vec<(String, Part)>, CacheError> {
    let blocks = term_count.div_ceil(TERMS_PER_BLOCK);
    let mut r = Reader::new(bytes);
    if r.count(1)? != blocks {
        return Err(CacheError::Corrupt("term table"));
    }
    let mut out: Vec<(String, Part)> = Vec::with_capacity(blocks);
    let mut expected = 0;
    for _ in 0..blocks {
        let first = r.string()?;
        let at = r.varint()?;
        let len = r.varint()?;
        let crc = r.u32()?;
        if at != expected || out.last().is_some_and(|(p, _)| *p >= first) {
            return Err(CacheError::Corrupt("term table"));
        }
        expected = at.checked_add(len).ok_or(Corrupt("term table"))?;
        out.push((first, Part { at, len, crc }));
    }
    if expected != terms_len || !r.is_done() {
        return Err(CacheError::Corrupt("term table"));
    }
    Ok(out)
}
