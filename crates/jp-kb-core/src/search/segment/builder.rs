//! Making a segment: documents added one by one (on several threads, as
//! parts) or carried over from existing segments, then encoded in the
//! format [`super`] reads.

use std::borrow::Cow;

use super::{
    BODY, DocMeta, FIELDS, FORMAT_VERSION, HEADER_LEN, MAGIC, Segment, SegmentError, TERM_ENTRY,
    Tfs, checksum,
};
use crate::search::codec::{put_string, put_varint};
use crate::search::hash::FastMap;

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
    use crate::search::segment::tests::{meta, sample};

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
}
