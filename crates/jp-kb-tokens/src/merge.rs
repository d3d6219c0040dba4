//! Byte-pair merging of one pre-split piece: start from single bytes and
//! repeatedly merge the adjacent pair whose joined bytes are the
//! lowest-ranked token (the leftmost of equals), until no pair is a
//! token. The parts left are the piece's tokens.
//!
//! The pairs wait in a binary heap and merged-away parts sit in a linked
//! list, so a long piece (a line of base64, a minified file) costs
//! `n log n`, not the `n²` of rescanning every pair after each merge.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::vocab::Vocab;

/// Pieces up to this long merge by rescanning a small array (no heap
/// allocation): most pieces that are not whole tokens are short words.
const SHORT: usize = 48;

/// [`count`] for a piece of at most [`SHORT`] bytes: the parts' starts
/// and their pairs' ranks in two small arrays, the lowest pair found by a
/// scan after each merge.
fn count_short(vocab: &Vocab, piece: &[u8]) -> usize {
    let n = piece.len();
    // starts[k]: where part k begins; starts[parts] == n.
    let mut starts = [0usize; SHORT + 1];
    // ranks[k]: rank of parts k and k + 1 joined (u32::MAX: not a token).
    let mut ranks = [u32::MAX; SHORT];
    for (k, start) in starts.iter_mut().enumerate().take(n + 1) {
        *start = k;
    }
    let mut parts = n;
    let rank_of = |starts: &[usize], k: usize, parts: usize| -> u32 {
        if k + 1 >= parts {
            return u32::MAX;
        }
        vocab
            .rank(&piece[starts[k]..starts[k + 2]])
            .unwrap_or(u32::MAX)
    };
    for k in 0..parts.saturating_sub(1) {
        ranks[k] = vocab.pair_rank(piece[k], piece[k + 1]).unwrap_or(u32::MAX);
    }
    loop {
        let mut best = (u32::MAX, 0);
        for (k, &r) in ranks.iter().enumerate().take(parts.saturating_sub(1)) {
            if r < best.0 {
                best = (r, k);
            }
        }
        if best.0 == u32::MAX {
            return parts;
        }
        let k = best.1;
        // Part k + 1 joins part k.
        starts.copy_within(k + 2..=parts, k + 1);
        ranks.copy_within(k + 2..parts, k + 1);
        parts -= 1;
        ranks[k] = rank_of(&starts, k, parts);
        if k > 0 {
            ranks[k - 1] = rank_of(&starts, k - 1, parts);
        }
    }
}

/// How many tokens `piece` merges into.
pub fn count(vocab: &Vocab, piece: &[u8]) -> usize {
    if piece.is_empty() {
        return 0;
    }
    // Most pieces are whole tokens.
    if piece.len() == 1 || vocab.rank(piece).is_some() {
        return 1;
    }
    if piece.len() <= SHORT {
        return count_short(vocab, piece);
    }
    let n = piece.len();
    // Part `i` starts at byte `i`; `next[i]` is the start of the part after
    // it (`n` past the end), `prev[i]` the one before; `alive[i]` is false
    // once merged into its left neighbour.
    let mut next: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    let mut parts = n;
    // (rank of the pair's joined bytes, start of its left part).
    let mut heap: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::with_capacity(n);
    let pair_rank = |next: &[usize], i: usize| -> Option<u32> {
        let j = next[i];
        if j >= n {
            return None;
        }
        let end = next[j];
        vocab.rank(&piece[i..end])
    };
    for i in 0..n - 1 {
        if let Some(rank) = vocab.pair_rank(piece[i], piece[i + 1]) {
            heap.push(Reverse((rank, i)));
        }
    }
    while let Some(Reverse((rank, i))) = heap.pop() {
        // Stale: the part was merged away, or its pair changed.
        if !alive[i] || pair_rank(&next, i) != Some(rank) {
            continue;
        }
        let j = next[i];
        alive[j] = false;
        next[i] = next[j];
        if next[i] < n {
            prev[next[i]] = i;
        }
        parts -= 1;
        if let Some(r) = pair_rank(&next, i) {
            heap.push(Reverse((r, i)));
        }
        let p = prev[i];
        if p < n
            && let Some(r) = pair_rank(&next, p)
        {
            heap.push(Reverse((r, p)));
        }
    }
    parts
}
