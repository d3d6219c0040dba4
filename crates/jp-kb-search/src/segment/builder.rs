//! Making a segment: documents added one by one (on several threads, as
//! parts) or carried over from existing segments, then encoded (see
//! [`super::encode_parts`]) in the format [`super`] reads.

use super::{BODY, DocMeta, FIELDS, Segment, Tfs};
use crate::cache_file::CacheError;
use crate::hash::FastMap;

/// A segment being made: documents are added one by one, or carried over
/// from existing segments without reading their files again.
#[derive(Debug, Default)]
pub struct Builder {
    pub docs: Vec<DocMeta>,
    /// For a delta: the main segment's documents it replaces or removes.
    pub masked: Vec<u32>,
    pub(super) term_ids: FastMap<String, u32>,
    pub(super) postings: Vec<Vec<(u32, Tfs)>>,
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
    ) -> Result<(), CacheError> {
        let docs = segment.docs()?;
        let mut new_id = vec![u32::MAX; docs.len()];
        for (old, meta) in docs.into_iter().enumerate() {
            if keep(old, &meta) {
                new_id[old] = u32::try_from(self.docs.len()).unwrap_or(u32::MAX);
                self.docs.push(meta);
            }
        }
        segment.each_term(|term, postings| {
            let mut kept = postings
                .into_iter()
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

    /// The terms in byte order, with their ids.
    pub(super) fn sorted_terms(&self) -> Vec<(&str, u32)> {
        let mut terms: Vec<(&str, u32)> = self
            .term_ids
            .iter()
            .map(|(t, &i)| (t.as_str(), i))
            .collect();
        terms.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        terms
    }
}
