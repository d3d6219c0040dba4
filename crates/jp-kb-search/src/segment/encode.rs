//! Writing a segment file from builders made apart (one per thread): the
//! parts' documents one after the other, each term's postings joined, in
//! the layout [`super`] describes.

use std::borrow::Cow;

use super::{
    Builder, DOCS_PER_BLOCK, DocMeta, FIELDS, HEAD_LEN, TERMS_PER_BLOCK, Tfs, doc_name, section,
};
use crate::abbrev;
use crate::cache_file::{self, Kind};
use crate::codec::{crc, put_string, put_varint};
use crate::hash::FastMap;
use crate::rank;

/// What a segment's header says besides its contents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Head {
    pub id: u64,
    /// For a delta: the id of its main segment.
    pub base: u64,
    /// The digest of the files the index is up to date with (0: none).
    pub digest: u64,
}

impl Builder {
    /// The segment file's bytes.
    pub fn encode(&self, head: Head) -> Vec<u8> {
        encode_parts(std::slice::from_ref(self), head)
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

/// One term's postings, part after part (each part's document ids moved
/// by its offset), as varint deltas; returns how many.
fn put_postings(out: &mut Vec<u8>, lists: &[(u32, &[(u32, Tfs)])]) -> usize {
    let mut previous = 0;
    let mut count = 0;
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
            count += 1;
        }
    }
    count
}

fn put_u32(out: &mut Vec<u8>, v: usize) {
    out.extend_from_slice(&u32::try_from(v).unwrap_or(u32::MAX).to_le_bytes());
}

/// Increasing ids as a count and varint deltas.
fn put_ids(out: &mut Vec<u8>, ids: &[u32]) {
    put_varint(out, ids.len() as u64);
    let mut previous = 0;
    for (i, &id) in ids.iter().enumerate() {
        put_varint(out, u64::from(if i == 0 { id } else { id - previous }));
        previous = id;
    }
}

/// The documents in blocks, and the table of the blocks.
fn docs_and_table(docs: &[&DocMeta]) -> (Vec<u8>, Vec<u8>) {
    let mut section = Vec::new();
    let mut table = Vec::new();
    for block in docs.chunks(DOCS_PER_BLOCK) {
        let at = section.len();
        for d in block {
            put_string(&mut section, &d.path);
            section.extend_from_slice(&d.bytes.to_le_bytes());
            section.extend_from_slice(&d.modified.to_le_bytes());
        }
        let bytes = &section[at..];
        table.extend_from_slice(&(at as u64).to_le_bytes());
        put_u32(&mut table, bytes.len());
        table.extend_from_slice(&crc(bytes).to_le_bytes());
    }
    (section, table)
}

/// The distinct short names of the documents (folded), each with its
/// documents, in name order.
fn names(docs: &[&DocMeta]) -> Vec<u8> {
    let mut by_name = std::collections::BTreeMap::<String, Vec<u32>>::new();
    for (i, d) in docs.iter().enumerate() {
        let name = rank::subject_name(doc_name(&d.path));
        if abbrev::candidate(name) {
            let id = u32::try_from(i).unwrap_or(u32::MAX);
            by_name
                .entry(name.to_ascii_lowercase())
                .or_default()
                .push(id);
        }
    }
    let mut out = Vec::new();
    put_varint(&mut out, by_name.len() as u64);
    for (name, ids) in by_name {
        put_string(&mut out, &name);
        put_ids(&mut out, &ids);
    }
    out
}

/// The segment file's bytes of `parts` (built apart, on several threads)
/// as one segment: their documents part after part, each term's postings
/// joined. The parts' terms are sorted on every core and merged here:
/// merging the parts into one builder first (a hash insert of every term
/// of every part after the first) and sorting its terms ran on one core
/// after the others had finished, a fifth of a first build of the tldr
/// tree (`perf record --call-graph dwarf`).
pub fn encode_parts(parts: &[Builder], head: Head) -> Vec<u8> {
    // Each part's documents follow the previous parts' documents.
    let mut docs: Vec<&DocMeta> = Vec::new();
    let mut masked: Vec<u32> = Vec::new();
    for part in parts {
        docs.extend(&part.docs);
        masked.extend(&part.masked);
    }
    masked.sort_unstable();
    masked.dedup();
    let (terms, table, postings, term_count, mentions) = write_terms(parts, &docs);
    let mut norms = Vec::with_capacity(docs.len() * super::NORM_LEN);
    let mut total_lens = [0u64; FIELDS];
    for (d, m) in docs.iter().zip(&mentions) {
        for (total, len) in total_lens.iter_mut().zip(d.lens) {
            *total += u64::from(len);
            norms.extend_from_slice(&len.to_le_bytes());
        }
        norms.extend_from_slice(&m.to_le_bytes());
    }
    let mut masked_bytes = Vec::new();
    put_ids(&mut masked_bytes, &masked);
    let (docs_section, doc_table) = docs_and_table(&docs);
    let names = names(&docs);
    let mut head_bytes = Vec::with_capacity(HEAD_LEN);
    for v in [head.id, head.base, head.digest] {
        head_bytes.extend_from_slice(&v.to_le_bytes());
    }
    put_u32(&mut head_bytes, docs.len());
    put_u32(&mut head_bytes, term_count);
    for total in total_lens {
        head_bytes.extend_from_slice(&total.to_le_bytes());
    }
    debug_assert_eq!(head_bytes.len(), HEAD_LEN);
    let sections: [&[u8]; section::COUNT] = [
        &head_bytes,
        &norms,
        &masked_bytes,
        &names,
        &doc_table,
        &table,
        &docs_section,
        &terms,
        &postings,
    ];
    cache_file::encode(Kind::Segment, &sections)
}

/// Ends the term block that began at `block_at` in `terms` (if any): its
/// offset, length and CRC go into the table after its first term.
fn close_block(table: &mut Vec<u8>, terms: &[u8], block_at: &mut usize) {
    if terms.len() == *block_at && table.is_empty() {
        return;
    }
    let block = &terms[*block_at..];
    put_varint(table, *block_at as u64);
    put_varint(table, block.len() as u64);
    table.extend_from_slice(&crc(block).to_le_bytes());
    *block_at = terms.len();
}

/// The terms of `parts` in byte order: their blocks, the table of the
/// blocks, the postings, how many terms, and per document of `docs` (the
/// parts' documents in order) how many documents mention its name.
fn write_terms(
    parts: &[Builder],
    docs: &[&DocMeta],
) -> (Vec<u8>, Vec<u8>, Vec<u8>, usize, Vec<u32>) {
    let sorted = sorted_terms_of(parts);
    let mut offsets = Vec::with_capacity(parts.len());
    let mut first = 0u32;
    for part in parts {
        offsets.push(first);
        first = first.saturating_add(u32::try_from(part.docs.len()).unwrap_or(u32::MAX));
    }
    // The mention term of each document's name, to count its df below.
    let mut mention_of: FastMap<String, Vec<usize>> = FastMap::default();
    for (i, d) in docs.iter().enumerate() {
        let term = rank::mention_term(rank::subject_name(doc_name(&d.path)));
        mention_of.entry(term).or_default().push(i);
    }
    let mut mentions = vec![0u32; docs.len()];
    let mut terms = Vec::new();
    let mut term_table = Vec::new();
    let mut postings = Vec::new();
    let mut term_count = 0usize;
    let mut block_at = 0;
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
        for (k, part_terms) in sorted.iter().enumerate() {
            let Some(&(t, id)) = part_terms.get(heads[k]) else {
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
        if term_count.is_multiple_of(TERMS_PER_BLOCK) {
            close_block(&mut term_table, &terms, &mut block_at);
            put_string(&mut term_table, term);
        }
        let at = postings.len();
        let df = put_postings(&mut postings, &lists);
        put_string(&mut terms, term);
        put_varint(&mut terms, at as u64);
        put_varint(&mut terms, (postings.len() - at) as u64);
        put_varint(&mut terms, df as u64);
        terms.extend_from_slice(&crc(&postings[at..]).to_le_bytes());
        term_count += 1;
        if let Some(holders) = mention_of.get(term) {
            for &i in holders {
                mentions[i] = u32::try_from(df).unwrap_or(u32::MAX);
            }
        }
    }
    close_block(&mut term_table, &terms, &mut block_at);
    let mut table = Vec::new();
    put_varint(&mut table, term_count.div_ceil(TERMS_PER_BLOCK) as u64);
    table.extend_from_slice(&term_table);

    (terms, table, postings, term_count, mentions)
}
