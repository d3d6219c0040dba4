//! The live index: a main segment plus a small delta segment of the files
//! added or changed since, with the main documents the delta replaces or
//! removes masked. Bringing it up to date ([`Index::refresh`]) re-reads
//! only the files whose size or modification time changed; the delta is
//! folded into a new main segment once it grows past a tenth of it,
//! without reading any file. Ranking is [`Index::ranked`].

mod refresh;
mod score;

pub use refresh::Change;

use crate::cache_file::CacheError;
use crate::hash::FastMap;
use crate::segment::{FIELDS, Norms, Segment};

/// A document of the live index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocRef {
    Main(u32),
    Delta(u32),
}

/// The searchable index.
#[derive(Debug, Default)]
pub struct Index {
    main: Segment,
    delta: Segment,
    /// Per main document: replaced or removed by the delta.
    masked: Vec<bool>,
    live: usize,
    total_len: [u64; FIELDS],
    /// The live documents' names that could abbreviate a query or end
    /// with one of its words (only these short names are tried for
    /// either: see [`crate::abbrev::candidate`]), each once, with the
    /// slots bearing it: a query tries each distinct name, not each
    /// document.
    names: Vec<(String, Vec<usize>)>,
}

impl Index {
    /// The index made of these segments; a delta made for another main
    /// segment is dropped (its files are found stale and read again).
    pub fn new(main: Segment, delta: Segment) -> Self {
        let delta = if delta.base == main.id {
            delta
        } else {
            Segment::empty(0, main.id)
        };
        let mut index = Self {
            main,
            delta,
            ..Self::default()
        };
        index.relink();
        index
    }

    fn relink(&mut self) {
        let main_len = self.main.doc_count();
        self.masked = vec![false; main_len];
        for &d in &self.delta.masked {
            if let Some(m) = self.masked.get_mut(d as usize) {
                *m = true;
            }
        }
        let mut total = self.delta.total_lens;
        let mut live = self.delta.doc_count();
        for (norms, masked) in self.main.norms.iter().zip(&self.masked) {
            if !masked {
                live += 1;
                for (t, len) in total.iter_mut().zip(norms.lens) {
                    *t += u64::from(len);
                }
            }
        }
        self.live = live;
        self.total_len = total;
        let mut names: FastMap<&str, Vec<usize>> = FastMap::default();
        for (name, docs) in &self.main.names {
            let slots = docs
                .iter()
                .map(|&d| d as usize)
                .filter(|&d| !self.masked.get(d).copied().unwrap_or(true));
            names.entry(name).or_default().extend(slots);
        }
        for (name, docs) in &self.delta.names {
            let slots = docs.iter().map(|&d| main_len + d as usize);
            names.entry(name).or_default().extend(slots);
        }
        let mut names: Vec<(String, Vec<usize>)> = names
            .into_iter()
            .filter(|(_, slots)| !slots.is_empty())
            .map(|(name, slots)| (name.to_owned(), slots))
            .collect();
        // In name order: the same ranking from run to run, whatever the
        // map's order.
        names.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        self.names = names;
    }

    /// Number of live documents.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True when no document is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The key (path) of a document: one block of the index read.
    pub fn key(&self, doc: DocRef) -> Result<String, CacheError> {
        Ok(match doc {
            DocRef::Main(i) => self.main.doc(i)?.path,
            DocRef::Delta(i) => self.delta.doc(i)?.path,
        })
    }

    /// The digest of the files the index was last brought up to date
    /// with (0: unknown).
    pub(crate) fn synced(&self) -> u64 {
        self.delta.digest
    }

    /// Reads every part of the index: an error for any damage.
    pub fn check_all(&self) -> Result<(), CacheError> {
        self.main.check_all()?;
        self.delta.check_all()
    }

    fn main_len(&self) -> usize {
        self.main.doc_count()
    }

    fn slot_norms(&self, slot: usize) -> Option<&Norms> {
        let main_len = self.main_len();
        if slot < main_len {
            self.main.norms.get(slot)
        } else {
            self.delta.norms.get(slot - main_len)
        }
    }

    fn doc_of(&self, slot: usize) -> DocRef {
        let main_len = self.main_len();
        if slot < main_len {
            DocRef::Main(idx(slot))
        } else {
            DocRef::Delta(idx(slot - main_len))
        }
    }
}

fn idx(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
