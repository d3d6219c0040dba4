//! One search in the mode asked for: the lexical ranking alone, the
//! semantic one alone, or both fused (their scores normalised and
//! weighted, [`jp_kb_embed::fuse`]) — contract §10.

use std::collections::HashMap;
use std::hash::Hash;

use super::places::{Place, PlaceIndex};
use super::semantic::Semantic;
use super::{SearchError, SearchOutcome, SearchRequest, Searcher, parse_query};
use crate::KnowledgeBase;

/// Which rankings a search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Words: BM25 over slugs, headings, front-matter and bodies.
    #[default]
    Lexical,
    /// Meaning: cosine similarity of sentence embeddings.
    Semantic,
    /// Both rankings fused.
    Hybrid,
}

impl Mode {
    /// Its name in the CLI's `--mode`, the output and `--json`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Lexical => "lexical",
            Self::Semantic => "semantic",
            Self::Hybrid => "hybrid",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Candidates each ranking gives the fusion: enough that a page second
/// in one ranking and absent from the other's first ten still competes.
const CANDIDATES: usize = 100;

impl Searcher {
    /// Searches `kb` in `mode`, with `semantic`'s embeddings for the modes
    /// that need them (brought up to date first; `progress(done, total)`
    /// counts the chunks embedded). Without `semantic`, lexical.
    pub fn search_in_mode(
        &mut self,
        kb: &KnowledgeBase,
        request: &SearchRequest<'_>,
        semantic: Option<&mut Semantic>,
        mode: Mode,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<SearchOutcome, SearchError> {
        let Some(semantic) = semantic.filter(|_| mode != Mode::Lexical) else {
            return self.search(kb, request);
        };
        let terms = parse_query(&mut self.tokenizer, request.query)?;
        let candidates = SearchRequest {
            limit: CANDIDATES.max(request.limit),
            ..request.clone()
        };
        let lexical = if mode == Mode::Hybrid {
            self.ranked(kb, &candidates)?.1
        } else {
            Vec::new()
        };
        // Only the topic searched is embedded (a first build of all of a
        // big tree takes minutes).
        semantic.refresh(kb, super::topic_scope(kb, request)?, progress)?;
        let close = semantic.rank(request.query)?;
        let meaning = self.places_of(kb, &candidates, close)?;
        let fused = fuse_places(lexical, meaning, mode, request.limit, |p: &Place<'_>| {
            (p.topic.to_owned(), p.slug.to_owned())
        });
        let mut hits = Vec::with_capacity(fused.len());
        for (place, score) in &fused {
            hits.push(self.hit(place, *score, &terms));
        }
        self.save_memo();
        let mut notes = std::mem::take(&mut self.notes);
        notes.append(&mut semantic.take_notes());
        Ok(SearchOutcome { hits, notes, mode })
    }

    /// The places of the files ranked by meaning, best first, in the
    /// request's topic, hidden ones only when asked for.
    fn places_of<'k>(
        &self,
        kb: &'k KnowledgeBase,
        request: &SearchRequest<'_>,
        ranked: Vec<(String, f32)>,
    ) -> Result<Vec<(Place<'k>, f32)>, SearchError> {
        let scope = super::topic_scope(kb, request)?;
        let made;
        let places = if let Some((_, places)) = &self.kept {
            places.get_or_init(|| PlaceIndex::new(kb))
        } else {
            made = PlaceIndex::new(kb);
            &made
        };
        let mut out = Vec::new();
        for (key, score) in ranked {
            if out.len() >= request.limit {
                break;
            }
            for place in places.of(kb, key.as_bytes(), scope, request.hidden) {
                if out.len() < request.limit {
                    out.push((place, score));
                }
            }
        }
        Ok(out)
    }
}

/// The `limit` best of both rankings fused ([`jp_kb_embed::fuse`]), or of
/// meaning alone in [`Mode::Semantic`] (its cosine similarities kept as
/// scores; fused scores are the fusion's, 0..1). A place is the same in
/// both rankings when `key` says so (its topic and slug).
fn fuse_places<P, K: Eq + Hash + Clone>(
    lexical: Vec<(P, f32)>,
    meaning: Vec<(P, f32)>,
    mode: Mode,
    limit: usize,
    key: impl Fn(&P) -> K,
) -> Vec<(P, f32)> {
    let mut by_key: HashMap<K, P> = HashMap::new();
    let mut keyed: [Vec<(K, f32)>; 2] = [Vec::new(), Vec::new()];
    for (ranking, out) in [lexical, meaning].into_iter().zip(&mut keyed) {
        for (place, score) in ranking {
            let k = key(&place);
            by_key.entry(k.clone()).or_insert(place);
            out.push((k, score));
        }
    }
    let [lexical, meaning] = keyed;
    let fused = if mode == Mode::Semantic {
        meaning
    } else {
        jp_kb_embed::fuse(&lexical, &meaning)
    };
    fused
        .into_iter()
        .filter_map(|(k, score)| by_key.remove(&k).map(|place| (place, score)))
        .take(limit)
        .collect()
}
