//! Ranking: BM25F over the live documents' fields, what their names hold
//! of the query, the share of the query's words each holds, weaker name
//! matches (prefixes, suffixes, abbreviations) and the mentions prior, as
//! [`crate::rank`] describes.
//! Reads the dictionary blocks and postings of the query's terms only.

use super::{DocRef, Index};
use crate::abbrev;
use crate::cache_file::CacheError;
use crate::rank::{self, Scoring};
use crate::segment::{FIELDS, NAME, Tfs, doc_name};

/// Shortest last word matched as a prefix, in bytes, and the most terms a
/// prefix expands to (in term order).
const MIN_PREFIX: usize = 3;
const MAX_EXPANSIONS: usize = 256;
/// How many of the best matches the mentions prior may reorder.
const RERANKED: usize = 200;

impl Index {
    /// Scores of the live documents that hold any of `terms`, or a word
    /// that begins with `prefix` (the last word as typed, folded but not
    /// stemmed), ranked as [`rank`] says.
    /// The ranked lexical hits, best first, with their scores: what a
    /// fusion with another ranking (semantic search) starts from. An
    /// error when a part of the index the query reads is damaged (the
    /// caller rebuilds it).
    #[allow(clippy::cast_precision_loss)] // counts far below 2^23 matter
    pub fn ranked(
        &self,
        terms: &[String],
        prefix: Option<&str>,
        scoring: &Scoring,
    ) -> Result<Vec<(DocRef, f32)>, CacheError> {
        if self.live == 0 {
            return Ok(Vec::new());
        }
        let n = self.live as f32;
        let avg = self.total_len.map(|t| (t as f32 / n).max(1.0));
        let main_len = self.main_len();
        let slots = main_len + self.delta.doc_count();
        let mut scores = vec![0f32; slots];
        // Per document: what its name holds of the query (see `Named`).
        let mut named = vec![Named::default(); slots];
        // Per document: how many of the query's words it holds, and their
        // summed IDF (the share of the query's information it holds).
        let mut matched = vec![(0u16, 0f32); slots];
        let mut wanted_idf = 0f32;
        let mut hits = Vec::new();
        let mut whole = Vec::new();
        // The terms (bit k for the k-th, the first 64) whose exact
        // postings hold each slot.
        let mut held = vec![0u64; slots];
        let mut idfs = Vec::with_capacity(terms.len());
        for (k, term) in terms.iter().enumerate() {
            let bit = if k < 64 { 1u64 << k } else { 0 };
            hits.clear();
            self.postings_into(
                self.main.postings(term)?,
                self.delta.postings(term)?,
                &mut hits,
            );
            let term_idf = idf(n, hits.len() as f32);
            idfs.push(term_idf);
            wanted_idf += term_idf;
            self.add_scores(&hits, term_idf, &avg, scoring, 1.0, &mut scores);
            add_named(&hits, term_idf, &mut named);
            note_held(&hits, term_idf, bit, &mut matched, &mut held);
            // A name that begins or ends with the word (`useradd` for
            // "user", `whois` for "who", `lscpu` for "cpu"): command and
            // file names are often two words written together.
            if scoring.name_prefix > 0.0 && term.len() >= MIN_PREFIX {
                whole.clear();
                self.name_matches(term, terms, &mut hits, &mut whole)?;
                let names_idf = idf(n, hits.len() as f32);
                let boost = scoring.name_prefix;
                self.add_scores(&hits, names_idf, &avg, scoring, boost, &mut scores);
                add_named(&hits, boost * names_idf, &mut named);
                // A short name that ends with the word is all of its name.
                for &slot in &whole {
                    let len = self.slot_norms(slot).map_or(1, |m| m.lens[NAME]);
                    if let Some(n) = named.get_mut(slot) {
                        n.add(0.0, len);
                    }
                }
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
            self.prefix_into(prefix, terms, &mut hits)?;
            let boost = scoring.prefix_boost;
            // The typed word as a whole word of the index, if it is one:
            // the words that merely begin with it are no rarer than it
            // (`provider` finds `providerid` in code, rare, and ranked by
            // its rarity the pages that hold it led those about
            // providers), and they are another way to match it, not one
            // more: a page that holds it already gains nothing from them.
            let (typed_idf, typed_bits) = typed_words(prefix, terms, &idfs, idf(n, 0.0));
            let idf = idf(n, hits.len() as f32).min(typed_idf);
            hits.retain(|&(slot, _)| held.get(slot).is_none_or(|h| h & typed_bits == 0));
            self.add_scores(&hits, idf, &avg, scoring, boost, &mut scores);
            add_named(&hits, boost * idf, &mut named);
        }
        for (slot, (score, named)) in scores.iter_mut().zip(&named).enumerate() {
            let name_len = self.slot_norms(slot).map_or(0, |m| m.lens[NAME]);
            *score += named.score(name_len, wanted_idf, scoring);
        }
        let wanted = terms.len().max(1) as f32;
        let mut out: Vec<(usize, f32)> = scores
            .into_iter()
            .zip(matched)
            .enumerate()
            .filter(|(_, (s, _))| *s > 0.0)
            .map(|(slot, (s, m))| (slot, s * coordination(m, wanted, wanted_idf, scoring)))
            .collect();
        // The prior reorders the leaders only: looking up every match's
        // mentions would cost more than the query.
        out.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
        for (slot, s) in out.iter_mut().take(RERANKED) {
            let mentions = self.mentions(*slot)?;
            *s *= 1.0 + scoring.prior * (1.0 + mentions as f32).ln();
        }
        // Best first; equal scores in index order, so the same query gives
        // the same list from run to run.
        out.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(out
            .into_iter()
            .map(|(slot, s)| (self.doc_of(slot), s))
            .collect())
    }

    /// The live documents whose names begin with `term` (a word of the
    /// name, longer than `term`, among `terms`' postings) or end with it
    /// (the whole name), as one match in the name each.
    fn name_matches(
        &self,
        term: &str,
        terms: &[String],
        hits: &mut Vec<(usize, Tfs)>,
        whole: &mut Vec<usize>,
    ) -> Result<(), CacheError> {
        hits.clear();
        self.prefix_into(term, terms, hits)?;
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
                whole.extend(slots);
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
        Ok(())
    }

    /// The live postings of the words longer than `prefix` that begin
    /// with it (not among `terms`), all counted as one term: a document is
    /// found once however many of them it holds, with their counts summed.
    fn prefix_into(
        &self,
        prefix: &str,
        terms: &[String],
        hits: &mut Vec<(usize, Tfs)>,
    ) -> Result<(), CacheError> {
        let main = self.main.with_prefix(prefix, MAX_EXPANSIONS)?;
        let delta = self.delta.with_prefix(prefix, MAX_EXPANSIONS)?;
        // Terms the exact path scored already are left out, and only those:
        // an indexed term equal to the typed prefix is a match too when the
        // query's own term differs from it (`releas` found no subject).
        let longer = |(t, _): &(String, _)| !terms.iter().any(|q| q == t);
        for (_, p) in main.into_iter().filter(longer) {
            self.postings_into(p, Vec::new(), hits);
        }
        for (_, p) in delta.into_iter().filter(longer) {
            self.postings_into(Vec::new(), p, hits);
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
        Ok(())
    }

    /// How many documents mention the name of the document in `slot` in
    /// code (see [`rank`]): its own segment counted them when it was
    /// written; the other segment is asked, when it has documents.
    fn mentions(&self, slot: usize) -> Result<usize, CacheError> {
        let own = self.slot_norms(slot).map_or(0, |n| n.mentions as usize);
        let (doc, other) = match self.doc_of(slot) {
            DocRef::Main(i) => (self.main.doc(i), &self.delta),
            DocRef::Delta(i) => (self.delta.doc(i), &self.main),
        };
        if other.doc_count() == 0 {
            return Ok(own);
        }
        let name = rank::subject_name(doc_name(&doc?.path)).to_owned();
        Ok(own + other.df(&rank::mention_term(&name))?)
    }

    /// Appends the live postings of a term's main and delta lists as
    /// `(slot, tfs)`, slots numbering main documents then delta ones.
    fn postings_into(
        &self,
        main: Vec<(u32, Tfs)>,
        delta: Vec<(u32, Tfs)>,
        out: &mut Vec<(usize, Tfs)>,
    ) {
        out.extend(
            main.into_iter()
                .filter(|(d, _)| !self.masked.get(*d as usize).copied().unwrap_or(true))
                .map(|(d, tfs)| (d as usize, tfs)),
        );
        let main_len = self.main_len();
        out.extend(
            delta
                .into_iter()
                .map(|(d, tfs)| (main_len + d as usize, tfs)),
        );
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

    /// A term's counts in the document in `slot`, each field's weighted
    /// and normalised by the field's length against its average (BM25F's
    /// term frequency, before saturation).
    #[allow(clippy::cast_precision_loss)] // counts far below 2^23 matter
    fn weighted_tf(&self, slot: usize, tfs: Tfs, avg: &[f32; FIELDS], scoring: &Scoring) -> f32 {
        let lens = self.slot_norms(slot).map_or([0; FIELDS], |m| m.lens);
        let mut tf = 0.0;
        for f in 0..FIELDS {
            let b = scoring.b[f];
            let norm = 1.0 - b + b * lens[f] as f32 / avg[f];
            tf += scoring.weights[f] * tfs[f] as f32 / norm.max(0.1);
        }
        tf
    }

    /// Adds one term's BM25F contribution over the summary and the body
    /// (its IDF `idf`) to the documents in `hits`; the name is scored
    /// apart ([`Named`]).
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
            let tf = self.weighted_tf(slot, tfs, avg, scoring);
            if tf > 0.0
                && let Some(s) = scores.get_mut(slot)
            {
                *s += boost * idf * tf * (scoring.k1 + 1.0) / (tf + scoring.k1);
            }
        }
    }
}

/// What a document's name holds of the query: the summed IDF of the
/// query words found in it (weaker matches weighted down) and how many of
/// the name's words they are. The name is scored apart from the summary
/// and the body, without saturating with them: a subject named by the
/// query (`providers` for "provider") ranks above long pages that use the
/// word many times, and a name made only of the query's words above a
/// longer name that holds them too (see [`Scoring::named`]).
#[derive(Debug, Clone, Copy, Default)]
struct Named {
    idf: f32,
    /// The name's words that are the query's (saturating).
    words: u32,
}

impl Named {
    fn add(&mut self, idf: f32, words: u32) {
        self.idf += idf;
        self.words = self.words.saturating_add(words);
    }

    /// The name's share of the score, for a name of `len` words and a
    /// query whose words' IDF sum to `wanted_idf`: how much of the query
    /// the name holds, times how much of the name is the query's.
    #[allow(clippy::cast_precision_loss)] // counts far below 2^23 matter
    fn score(self, len: u32, wanted_idf: f32, scoring: &Scoring) -> f32 {
        if self.idf <= 0.0 || wanted_idf <= 0.0 {
            return 0.0;
        }
        let of_query = (self.idf / wanted_idf).min(1.0);
        let of_name = (self.words as f32 / len.max(1) as f32).min(1.0);
        scoring.named * wanted_idf * (of_query * of_name).powf(scoring.named_b)
    }
}

/// Notes that the documents in `hits` hold the query's term `bit`, of
/// IDF `term_idf`: one more of the query's words, and their summed IDF.
fn note_held(
    hits: &[(usize, Tfs)],
    term_idf: f32,
    bit: u64,
    matched: &mut [(u16, f32)],
    held: &mut [u64],
) {
    for &(slot, _) in hits {
        if let Some(m) = matched.get_mut(slot) {
            m.0 = m.0.saturating_add(1);
            m.1 += term_idf;
        }
        if let Some(h) = held.get_mut(slot) {
            *h |= bit;
        }
    }
}

/// The query's words that `prefix` (the last word as typed) begins with
/// and that are words of the index (their IDF below `absent`'s, a word
/// no document holds): the lowest of their IDFs and their bits (the k-th
/// term's bit k, the first 64).
fn typed_words(prefix: &str, terms: &[String], idfs: &[f32], absent: f32) -> (f32, u64) {
    let (mut typed_idf, mut typed_bits) = (f32::INFINITY, 0u64);
    for (k, (t, &t_idf)) in terms.iter().zip(idfs).enumerate() {
        if prefix.starts_with(t.as_str()) && t_idf < absent {
            typed_idf = typed_idf.min(t_idf);
            typed_bits |= if k < 64 { 1 << k } else { 0 };
        }
    }
    (typed_idf, typed_bits)
}

/// Adds a term's match in the names of the documents in `hits` (its
/// weighted IDF `idf`, and how many words of the name it is).
fn add_named(hits: &[(usize, Tfs)], idf: f32, named: &mut [Named]) {
    for &(slot, tfs) in hits {
        if tfs[NAME] > 0
            && let Some(n) = named.get_mut(slot)
        {
            n.add(idf, tfs[NAME]);
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
