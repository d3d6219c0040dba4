//! One search in the mode asked for: the lexical ranking alone, the
//! semantic one alone, or both fused (reciprocal rank fusion,
//! [`jp_kb_embed::fuse`]) — contract §10.

use std::collections::HashMap;

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
        semantic
            .refresh(kb, progress)
            .map_err(|e| SearchError::Semantic(e.to_string()))?;
        let close = semantic
            .rank(request.query)
            .map_err(|e| SearchError::Semantic(e.to_string()))?;
        let meaning = self.places_of(kb, &candidates, close)?;
        let cosines: Vec<((String, String), f32)> = meaning
            .iter()
            .map(|(p, score)| ((p.topic.to_owned(), p.slug.to_owned()), *score))
            .collect();
        let key = |p: &Place<'_>| (p.topic.to_owned(), p.slug.to_owned());
        let mut by_key: HashMap<(String, String), Place<'_>> = HashMap::new();
        let mut rankings: Vec<Vec<(String, String)>> = Vec::new();
        for ranking in [lexical, meaning] {
            let keys = ranking
                .into_iter()
                .map(|(place, _)| {
                    let k = key(&place);
                    by_key.entry(k.clone()).or_insert(place);
                    k
                })
                .collect();
            rankings.push(keys);
        }
        let lists: Vec<&[(String, String)]> = rankings.iter().map(Vec::as_slice).collect();
        // Meaning alone keeps its cosine similarities as scores; fused
        // ranks have no other scale than the fusion's.
        let fused = if mode == Mode::Semantic {
            cosines
        } else {
            jp_kb_embed::fuse(&lists)
        };
        let mut hits = Vec::with_capacity(request.limit.min(fused.len()));
        for (k, score) in fused.into_iter().take(request.limit) {
            if let Some(place) = by_key.get(&k) {
                hits.push(self.hit(place, score, &terms));
            }
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
        let scope = match request.topic {
            Some(name) => Some(
                kb.resolve_topic(name)
                    .map_err(|e| SearchError::Topic(e.to_string()))?
                    .id(),
            ),
            None => None,
        };
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
