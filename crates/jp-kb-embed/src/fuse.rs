//! One ranking out of several: reciprocal rank fusion (Cormack, Clarke
//! and Büttcher, 2009). Each list gives a document `1 / (k + rank)`; the
//! sums decide. Ranks, not scores, are added because BM25 scores and
//! cosine similarities have no common scale.

use std::collections::HashMap;
use std::hash::Hash;

/// The `k` of the fusion: the value the paper found robust, not tuned
/// here (see docs/perf.md for what was measured).
pub const FUSION_K: f32 = 60.0;

/// The documents of `rankings` (each best first), by their fused score,
/// best first; ties keep the order of first appearance.
pub fn fuse<K: Eq + Hash + Clone>(rankings: &[&[K]]) -> Vec<(K, f32)> {
    let mut scores: HashMap<K, (f32, usize)> = HashMap::new();
    let mut order = 0;
    for ranking in rankings {
        for (rank, key) in ranking.iter().enumerate() {
            #[allow(clippy::cast_precision_loss)] // ranks are small
            let gain = 1.0 / (FUSION_K + 1.0 + rank as f32);
            let entry = scores.entry(key.clone()).or_insert_with(|| {
                order += 1;
                (0.0, order)
            });
            entry.0 += gain;
        }
    }
    let mut out: Vec<(K, f32, usize)> = scores.into_iter().map(|(k, (s, o))| (k, s, o)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    out.into_iter().map(|(k, s, _)| (k, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_wins_and_ties_keep_the_first_list_first() {
        let lexical = ["a", "b", "c"];
        let semantic = ["c", "d", "a"];
        let fused: Vec<&str> = fuse(&[&lexical, &semantic])
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(fused, vec!["a", "c", "b", "d"]);
    }

    #[test]
    fn one_list_keeps_its_order() {
        let only = ["x", "y", "z"];
        let fused: Vec<&str> = fuse(&[&only]).into_iter().map(|(k, _)| k).collect();
        assert_eq!(fused, only);
    }
}
