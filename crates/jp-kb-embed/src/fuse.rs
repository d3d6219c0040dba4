//! One ranking out of a lexical and a semantic one: a convex combination
//! of their scores, each min-max normalised over its own candidates
//! (Bruch, Gai and Ingber, "An Analysis of Fusion Functions for Hybrid
//! Retrieval", 2023). BM25 scores have no fixed scale and cosine
//! similarities do, so each list is first mapped onto 0..1: its best
//! candidate 1, its last 0, a document absent from a list 0 there.
//!
//! Chosen on the tuning questions (`cargo bench --bench semantic --
//! sweep`; docs/perf.md has the table): reciprocal rank fusion, which
//! adds ranks and throws the scores away, let the lexical ranking pull
//! questions in the asker's own words below the semantic ranking alone.

use std::collections::HashMap;
use std::hash::Hash;

/// The lexical ranking's share of a fused score (the semantic one has
/// the rest): 0.2 and 0.3 tied on the tuning questions; the larger keeps
/// an exact word (a command's name) ahead.
pub const LEXICAL_WEIGHT: f32 = 0.3;

/// The documents of `lexical` and `semantic` (each best first, with its
/// score), by their fused score in 0..1, best first; ties keep the order
/// of first appearance, the lexical list's first.
pub fn fuse<K: Eq + Hash + Clone>(lexical: &[(K, f32)], semantic: &[(K, f32)]) -> Vec<(K, f32)> {
    let mut scores: HashMap<K, (f32, usize)> = HashMap::new();
    let mut order = 0;
    for (ranking, weight) in [(lexical, LEXICAL_WEIGHT), (semantic, 1.0 - LEXICAL_WEIGHT)] {
        let best = ranking.iter().map(|r| r.1).fold(f32::MIN, f32::max);
        let worst = ranking.iter().map(|r| r.1).fold(f32::MAX, f32::min);
        let span = best - worst;
        for (key, score) in ranking {
            // One candidate, or all equal: each is as good as the best.
            let normalised = if span > f32::EPSILON {
                (score - worst) / span
            } else {
                1.0
            };
            let entry = scores.entry(key.clone()).or_insert_with(|| {
                order += 1;
                (0.0, order)
            });
            entry.0 += weight * normalised;
        }
    }
    let mut out: Vec<(K, f32, usize)> = scores.into_iter().map(|(k, (s, o))| (k, s, o)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    out.into_iter().map(|(k, s, _)| (k, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(fused: Vec<(&'static str, f32)>) -> Vec<&'static str> {
        fused.into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn a_clear_meaning_beats_a_weak_word_match_and_agreement_beats_both() {
        // "b" matches the words barely, "c" means the question closely,
        // "a" does both reasonably.
        let lexical = [("a", 8.0), ("b", 9.0), ("x", 1.0)];
        let semantic = [("c", 0.80), ("a", 0.70), ("y", 0.20)];
        let fused = fuse(&lexical, &semantic);
        assert_eq!(keys(fused.clone()), ["a", "c", "b", "x", "y"]);
        // The best of both lists would score 1.
        assert!(fused.iter().all(|(_, s)| (0.0..=1.0).contains(s)));
    }

    #[test]
    fn one_list_keeps_its_order_and_lone_candidates_count_fully() {
        let only = [("x", 3.0), ("y", 2.0), ("z", 1.0)];
        assert_eq!(keys(fuse(&only, &[])), ["x", "y", "z"]);
        let fused = fuse(&[("w", 5.0)], &[("w", 0.4)]);
        assert_eq!(fused, [("w", 1.0)]);
    }

    #[test]
    fn ties_keep_the_lexical_list_first() {
        let fused = fuse(&[("a", 1.0), ("b", 1.0)], &[("c", 0.5), ("d", 0.5)]);
        assert_eq!(keys(fused), ["c", "d", "a", "b"]);
    }
}
