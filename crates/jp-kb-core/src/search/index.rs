//! The live index: a main segment plus a small delta segment of the files
//! added or changed since, with the main documents the delta replaces or
//! removes masked. Bringing it up to date re-reads only the files whose
//! size or modification time changed; the delta is folded into a new main
//! segment once it grows past a tenth of it, without reading any file.

use super::hash::{FastMap, FastSet};

use super::abbrev;
pub use super::indexer::IndexedFile;
use super::indexer::index_files;
use super::rank::{self, Scoring};
use super::segment::{
    self, Builder, DocMeta, FIELDS, NAME, Segment, SegmentError, Tfs, encode_parts,
};

/// Shortest last word matched as a prefix, in bytes, and the most terms a
/// prefix expands to (in term order).
const MIN_PREFIX: usize = 3;
const MAX_EXPANSIONS: usize = 256;
/// How many of the best matches the mentions prior may reorder.
const RERANKED: usize = 200;

/// A document of the live index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocRef {
    Main(u32),
    Delta(u32),
}

/// What [`Index::refresh`] did, and the segment files to write.
#[derive(Debug, Default)]
pub struct Change {
    pub indexed: usize,
    pub removed: usize,
    pub main: Option<Vec<u8>>,
    pub delta: Option<Vec<u8>>,
}

/// The searchable index.
#[derive(Debug, Default)]
pub struct Index {
    main: Segment,
    delta: Segment,
    masked: Vec<bool>,
    live: FastMap<String, DocRef>,
    total_len: [u64; FIELDS],
    /// The live documents' names that could abbreviate a query or end
    /// with one of its words (only these short names are tried for
    /// either: see [`abbrev::candidate`]), each once, with
    /// the slots bearing it: a query tries each distinct name, not each
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
        let replaced: FastSet<&str> = self
            .delta
            .removed
            .iter()
            .map(String::as_str)
            .chain(self.delta.docs.iter().map(|d| d.path.as_str()))
            .collect();
        self.masked = self
            .main
            .docs
            .iter()
            .map(|d| replaced.contains(d.path.as_str()))
            .collect();
        self.live.clear();
        self.total_len = [0; FIELDS];
        let mut add = |lens: &Tfs| {
            for (total, len) in self.total_len.iter_mut().zip(lens) {
                *total += u64::from(*len);
            }
        };
        for (i, d) in self.main.docs.iter().enumerate() {
            if !self.masked[i] {
                self.live.insert(d.path.clone(), DocRef::Main(idx(i)));
                add(&d.lens);
            }
        }
        for (i, d) in self.delta.docs.iter().enumerate() {
            self.live.insert(d.path.clone(), DocRef::Delta(idx(i)));
            add(&d.lens);
        }
        let mut names: FastMap<&str, Vec<usize>> = FastMap::default();
        let main_len = self.main.docs.len();
        let docs = self.main.docs.iter().chain(&self.delta.docs).enumerate();
        for (slot, meta) in docs {
            if slot < main_len && self.masked.get(slot).copied().unwrap_or(true) {
                continue;
            }
            let name = rank::subject_name(doc_name(&meta.path));
            if abbrev::candidate(name) {
                names.entry(name).or_default().push(slot);
            }
        }
        self.names = names
            .into_iter()
            .map(|(name, slots)| (name.to_ascii_lowercase(), slots))
            .collect();
    }

    /// Number of live documents.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    pub fn meta(&self, doc: DocRef) -> Option<&DocMeta> {
        match doc {
            DocRef::Main(i) => self.main.docs.get(i as usize),
            DocRef::Delta(i) => self.delta.docs.get(i as usize),
        }
    }

    /// The live document for a path.
    pub fn doc(&self, path: &str) -> Option<DocRef> {
        self.live.get(path).copied()
    }

    /// Brings the index in line with `targets`: files that are new or whose
    /// size or time changed are read and indexed, missing ones dropped.
    /// `now` is the current time in nanoseconds since the epoch.
    pub fn refresh(
        &mut self,
        targets: &[IndexedFile<'_>],
        now: i64,
    ) -> Result<Change, SegmentError> {
        let main_len = self.main.docs.len();
        let mut seen = vec![false; main_len + self.delta.docs.len()];
        let mut stale: Vec<&IndexedFile<'_>> = Vec::new();
        for t in targets {
            let doc = self.doc(&t.path);
            match doc.and_then(|d| self.meta(d)) {
                Some(m) if m.modified != 0 && m.bytes == t.bytes && m.modified == t.modified => {}
                _ => stale.push(t),
            }
            let slot = match doc {
                Some(DocRef::Main(i)) => Some(i as usize),
                Some(DocRef::Delta(i)) => Some(main_len + i as usize),
                None => None,
            };
            if let Some(flag) = slot.and_then(|s| seen.get_mut(s)) {
                *flag = true;
            }
        }
        let gone: Vec<String> = self
            .live
            .iter()
            .filter(|(_, doc)| {
                let slot = match doc {
                    DocRef::Main(i) => *i as usize,
                    DocRef::Delta(i) => main_len + *i as usize,
                };
                !seen.get(slot).copied().unwrap_or(false)
            })
            .map(|(path, _)| path.clone())
            .collect();
        if stale.is_empty() && gone.is_empty() {
            return Ok(Change::default());
        }
        let drop: FastSet<&str> = stale
            .iter()
            .map(|t| t.path.as_ref())
            .chain(gone.iter().map(String::as_str))
            .collect();
        let mut change = Change {
            indexed: stale.len(),
            removed: gone.len(),
            ..Change::default()
        };
        let pending = self.delta.docs.len() + self.delta.removed.len() + drop.len();
        let id = new_id(now);
        let mut builder = Builder::default();
        if self.main.docs.is_empty() || pending > (self.main.docs.len() / 10).max(256) {
            let masked = &self.masked;
            builder.absorb(&self.main, |i, d| {
                !masked.get(i).copied().unwrap_or(true) && !drop.contains(d.path.as_str())
            })?;
            builder.absorb(&self.delta, |_, d| !drop.contains(d.path.as_str()))?;
            let main = encode_parts(&index_files(builder, &stale, now), id, 0);
            let delta = Builder::default().encode(id ^ 1, id);
            self.main = Segment::decode(main.clone())?;
            self.delta = Segment::decode(delta.clone())?;
            change.main = Some(main);
            change.delta = Some(delta);
        } else {
            builder.absorb(&self.delta, |_, d| !drop.contains(d.path.as_str()))?;
            let in_main: FastSet<&str> = self.main.docs.iter().map(|d| d.path.as_str()).collect();
            let mut removed: Vec<String> = self.delta.removed.clone();
            removed.extend(
                drop.iter()
                    .filter(|p| in_main.contains(**p))
                    .map(|p| (*p).to_owned()),
            );
            removed.sort_unstable();
            removed.dedup();
            builder.removed = removed;
            let delta = encode_parts(&index_files(builder, &stale, now), id, self.main.id);
            self.delta = Segment::decode(delta.clone())?;
            change.delta = Some(delta);
        }
        self.relink();
        Ok(change)
    }

    /// Scores of the live documents that hold any of `terms`, or a word
    /// that begins with `prefix` (the last word as typed, folded but not
    /// stemmed), ranked as [`rank`] says.
    #[allow(clippy::cast_precision_loss)] // counts far below 2^23 matter
    pub fn score(
        &self,
        terms: &[String],
        prefix: Option<&str>,
        scoring: &Scoring,
    ) -> Vec<(DocRef, f32)> {
        if self.live.is_empty() {
            return Vec::new();
        }
        let n = self.live.len() as f32;
        let avg = self.total_len.map(|t| (t as f32 / n).max(1.0));
        let main_len = self.main.docs.len();
        let slots = main_len + self.delta.docs.len();
        let mut scores = vec![0f32; slots];
        // Per document: how many of the query's words it holds, and their
        // summed IDF (the share of the query's information it holds).
        let mut matched = vec![(0u16, 0f32); slots];
        let mut wanted_idf = 0f32;
        let mut hits = Vec::new();
        // The terms (bit k for the k-th, the first 64) whose exact
        // postings hold each slot.
        let mut held = vec![0u64; slots];
        let mut idfs = Vec::with_capacity(terms.len());
        for (k, term) in terms.iter().enumerate() {
            let bit = if k < 64 { 1u64 << k } else { 0 };
            hits.clear();
            self.postings_into(
                self.main.postings(term),
                self.delta.postings(term),
                &mut hits,
            );
            let term_idf = idf(n, hits.len() as f32);
            idfs.push(term_idf);
            wanted_idf += term_idf;
            self.add_scores(&hits, term_idf, &avg, scoring, 1.0, &mut scores);
            for &(slot, _) in &hits {
                if let Some(m) = matched.get_mut(slot) {
                    m.0 = m.0.saturating_add(1);
                    m.1 += term_idf;
                }
                if let Some(h) = held.get_mut(slot) {
                    *h |= bit;
                }
            }
            // A name that begins or ends with the word (`useradd` for
            // "user", `whois` for "who", `lscpu` for "cpu"): command and
            // file names are often two words written together.
            if scoring.name_prefix > 0.0 && term.len() >= MIN_PREFIX {
                self.name_matches(term, terms, &mut hits);
                let boost = scoring.name_prefix;
                let names_idf = idf(n, hits.len() as f32);
                self.add_scores(&hits, names_idf, &avg, scoring, boost, &mut scores);
                for &(slot, _) in &hits {
                    if held.get(slot).is_some_and(|h| h & bit == 0)
                        && let Some(m) = matched.get_mut(slot)
                    {
                        m.0 = m.0.saturating_add(1);
                        m.1 += term_idf;
                    }
                }
            }
        }
        if scoring.abbrev > 0.0 && terms.len() >= 2 {
            self.add_abbreviations(
                terms,
                &idfs,
                &avg,
                scoring,
                &held,
                &mut scores,
                &mut matched,
            );
        }
        if let Some(prefix) = prefix.filter(|p| p.len() >= MIN_PREFIX) {
            hits.clear();
            self.prefix_into(prefix, terms, &mut hits);
            let boost = scoring.prefix_boost;
            let idf = idf(n, hits.len() as f32);
            self.add_scores(&hits, idf, &avg, scoring, boost, &mut scores);
        }
        let wanted = terms.len().max(1) as f32;
        let mut out: Vec<(DocRef, f32)> = scores
            .into_iter()
            .zip(matched)
            .enumerate()
            .filter(|(_, (s, _))| *s > 0.0)
            .map(|(slot, (s, m))| {
                let doc = if slot < main_len {
                    DocRef::Main(idx(slot))
                } else {
                    DocRef::Delta(idx(slot - main_len))
                };
                (doc, s * coordination(m, wanted, wanted_idf, scoring))
            })
            .collect();
        // The prior reorders the leaders only: looking up every match's
        // mentions would cost more than the query.
        out.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
        for (doc, s) in out.iter_mut().take(RERANKED) {
            let mentions = self
                .meta(*doc)
                .map_or(0, |m| self.mentions(rank::subject_name(doc_name(&m.path))));
            *s *= 1.0 + scoring.prior * (1.0 + mentions as f32).ln();
        }
        out
    }

    /// The live documents whose names begin with `term` (a word of the
    /// name, longer than `term`, among `terms`' postings) or end with it
    /// (the whole name), as one match in the name each.
    fn name_matches(&self, term: &str, terms: &[String], hits: &mut Vec<(usize, Tfs)>) {
        hits.clear();
        self.prefix_into(term, terms, hits);
        hits.retain_mut(|(_, tfs)| {
            for (f, tf) in tfs.iter_mut().enumerate() {
                if f != NAME {
                    *tf = 0;
                }
            }
            tfs[NAME] > 0
        });
        let mut name_tfs = [0; FIELDS];
        name_tfs[NAME] = 1;
        for (name, slots) in &self.names {
            if name.len() > term.len() && name.ends_with(term) {
                hits.extend(slots.iter().map(|&slot| (slot, name_tfs)));
            }
        }
        hits.sort_unstable_by_key(|&(slot, _)| slot);
        hits.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1[NAME] = a.1[NAME].max(b.1[NAME]);
            }
            same
        });
    }

    /// The live postings of the words longer than `prefix` that begin
    /// with it (not among `terms`), all counted as one term: a document is
    /// found once however many of them it holds, with their counts summed.
    fn prefix_into(&self, prefix: &str, terms: &[String], hits: &mut Vec<(usize, Tfs)>) {
        let main = self.main.with_prefix(prefix, MAX_EXPANSIONS);
        let delta = self.delta.with_prefix(prefix, MAX_EXPANSIONS);
        // Terms the exact path scored already are left out, and only those:
        // an indexed term equal to the typed prefix is a match too when the
        // query's own term differs from it (`releas` found no subject).
        let longer = |(t, _): &(&str, _)| !terms.iter().any(|q| q == t);
        for (_, p) in main.into_iter().filter(longer) {
            self.postings_into(Some(p), None, hits);
        }
        for (_, p) in delta.into_iter().filter(longer) {
            self.postings_into(None, Some(p), hits);
        }
        hits.sort_unstable_by_key(|&(slot, _)| slot);
        hits.dedup_by(|b, a| {
            if a.0 == b.0 {
                for (x, y) in a.1.iter_mut().zip(b.1) {
                    *x = x.saturating_add(y);
                }
                true
            } else {
                false
            }
        });
    }

    /// How many documents mention `name` in code (see [`rank`]).
    fn mentions(&self, name: &str) -> usize {
        let term = rank::mention_term(name);
        let main = self.main.postings(&term).map_or(0, Iterator::count);
        let delta = self.delta.postings(&term).map_or(0, Iterator::count);
        main + delta
    }

    /// Appends the live postings of a term's main and delta lists as
    /// `(slot, tfs)`, slots numbering main documents then delta ones.
    fn postings_into(
        &self,
        main: Option<segment::Postings<'_>>,
        delta: Option<segment::Postings<'_>>,
        out: &mut Vec<(usize, Tfs)>,
    ) {
        if let Some(p) = main {
            out.extend(
                p.filter(|(d, _)| !self.masked.get(*d as usize).copied().unwrap_or(true))
                    .map(|(d, tfs)| (d as usize, tfs)),
            );
        }
        let main_len = self.main.docs.len();
        if let Some(p) = delta {
            out.extend(p.map(|(d, tfs)| (main_len + d as usize, tfs)));
        }
    }

    /// Scores the live documents whose names abbreviate query words (see
    /// [`abbrev`]) as if the name held each word it takes a piece of,
    /// weighted by [`Scoring::abbrev`]; those words count as held.
    #[allow(clippy::too_many_arguments)]
    fn add_abbreviations(
        &self,
        terms: &[String],
        idfs: &[f32],
        avg: &[f32; FIELDS],
        scoring: &Scoring,
        held: &[u64],
        scores: &mut [f32],
        matched: &mut [(u16, f32)],
    ) {
        let mut tfs = [0; FIELDS];
        tfs[NAME] = 1;
        for (name, slots) in &self.names {
            let Some(covered) = abbrev::covers(name, terms) else {
                continue;
            };
            for (k, idf) in idfs.iter().enumerate().take(64) {
                if covered & (1 << k) == 0 {
                    continue;
                }
                for &slot in slots {
                    self.add_scores(&[(slot, tfs)], *idf, avg, scoring, scoring.abbrev, scores);
                    if held.get(slot).is_some_and(|h| h & (1 << k) == 0)
                        && let Some(m) = matched.get_mut(slot)
                    {
                        m.0 = m.0.saturating_add(1);
                        m.1 += idf;
                    }
                }
            }
        }
    }

    /// Adds one term's BM25F contribution (its IDF `idf`) to the
    /// documents in `hits`.
    #[allow(clippy::cast_precision_loss)] // counts far below 2^23 matter
    fn add_scores(
        &self,
        hits: &[(usize, Tfs)],
        idf: f32,
        avg: &[f32; FIELDS],
        scoring: &Scoring,
        boost: f32,
        scores: &mut [f32],
    ) {
        for &(slot, tfs) in hits {
            let lens = self.slot_meta(slot).map_or([0; FIELDS], |m| m.lens);
            let mut tf = 0.0;
            for f in 0..FIELDS {
                let b = scoring.b[f];
                let norm = 1.0 - b + b * lens[f] as f32 / avg[f];
                tf += scoring.weights[f] * tfs[f] as f32 / norm.max(0.1);
            }
            if let Some(s) = scores.get_mut(slot) {
                *s += boost * idf * tf * (scoring.k1 + 1.0) / (tf + scoring.k1);
            }
        }
    }

    fn slot_meta(&self, slot: usize) -> Option<&DocMeta> {
        let main_len = self.main.docs.len();
        if slot < main_len {
            self.main.docs.get(slot)
        } else {
            self.delta.docs.get(slot - main_len)
        }
    }
}

/// The factor for the share of the query's words a document holds:
/// `matched` is how many it holds and their summed IDF, `wanted` how many
/// the query has and `wanted_idf` theirs.
fn coordination(matched: (u16, f32), wanted: f32, wanted_idf: f32, scoring: &Scoring) -> f32 {
    let by_count = (f32::from(matched.0).max(1.0) / wanted).min(1.0);
    // A page found by the typed prefix alone keeps its share by count.
    let by_idf = if matched.0 == 0 || wanted_idf <= 0.0 {
        by_count
    } else {
        (matched.1 / wanted_idf).min(1.0)
    };
    let share = by_count + scoring.coord_idf * (by_idf - by_count);
    share.powf(scoring.coord)
}

/// BM25's inverse document frequency of a term held by `df` of `n`
/// documents.
fn idf(n: f32, df: f32) -> f32 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// The name of an indexed file: its file name without its last
/// extension (the last part of its slug).
fn doc_name(path: &str) -> &str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    }
}

fn idx(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// A segment id that differs between builds.
fn new_id(now: i64) -> u64 {
    let seed = now.to_le_bytes();
    super::segment::checksum(&[&seed[..], &std::process::id().to_le_bytes()].concat()) | 2
}
