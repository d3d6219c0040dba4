//! The `o200k_base` vocabulary, read in place from the table checked in
//! at `data/o200k_base.tokens` and compiled into the binary, with a hash
//! index from a token's bytes to its rank (the order in which byte-pair
//! merges apply), laid out by `build.rs` and compiled in too (building
//! it at the first count took ~18 ms of CPU in every process). The table
//! is checked in so that no build needs the `bpe-openai` crate;
//! `tests/table.rs` regenerates it from that crate and compares.
//!
//! About 6.5 MB in all (the 2.2 MB table and a 4.3 MB index), read in
//! place from the binary's pages, where a general tokenizer crate holds
//! ~70 MB: the TUI counts tokens all the time and its whole budget at
//! 100k subjects is 100 MB.

use std::sync::LazyLock;

use crate::index_hash::{hash, slot_of, table_parts};

static TABLE: &[u8] = include_bytes!("../data/o200k_base.tokens");
/// The index `build.rs` lays out from the table (slots, then pairs).
static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_index.bin"));

/// The vocabulary and its index.
pub struct Vocab {
    /// End offset of each token's bytes in `bytes`, by rank.
    ends: &'static [u8],
    bytes: &'static [u8],
    count: u32,
    /// Open addressing, `u64` a slot: `rank + 1` of the token hashed
    /// there (0: free) in the low half, the high half of its hash in the
    /// high half, so most probes that miss never read the token's bytes.
    slots: &'static [u8],
    /// The rank of every two-byte token (`u32::MAX`: none), `u32` each, by
    /// the two bytes: the first merges of every piece look these up.
    pairs: &'static [u8],
}

static VOCAB: LazyLock<Vocab> = LazyLock::new(|| Vocab::new(TABLE, INDEX));

/// The vocabulary (read in place: nothing is built at run time).
pub fn o200k_base() -> &'static Vocab {
    &VOCAB
}

/// Pairs of two bytes: the pairs' part of the index.
const PAIRS: usize = 1 << 16;

impl Vocab {
    /// The table and the index `build.rs` writes from it; a malformed
    /// pair (which the build never writes) gives an empty vocabulary
    /// rather than a panic.
    fn new(table: &'static [u8], index: &'static [u8]) -> Self {
        let (count, ends, bytes) = table_parts(table);
        let slots_len = (count as usize * 2).next_power_of_two().max(2) * 8;
        let (slots, pairs) = match (index.get(..slots_len), index.get(slots_len..)) {
            (Some(slots), Some(pairs)) if pairs.len() == PAIRS * 4 && !ends.is_empty() => {
                (slots, pairs)
            }
            _ => return Self::empty(),
        };
        Self {
            ends,
            bytes,
            count,
            slots,
            pairs,
        }
    }

    /// No token at all (every byte then counts as one).
    fn empty() -> Self {
        Self {
            ends: &[],
            bytes: &[],
            count: 0,
            slots: &[0; 16],
            pairs: &[],
        }
    }

    /// The rank of the two-byte token `[a, b]`, if there is one.
    pub fn pair_rank(&self, a: u8, b: u8) -> Option<u32> {
        let at = (usize::from(a) << 8 | usize::from(b)) * 4;
        let rank = self
            .pairs
            .get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(u32::MAX, u32::from_le_bytes);
        (rank != u32::MAX).then_some(rank)
    }

    /// How many tokens the vocabulary has.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The bytes of the token of rank `rank`.
    pub fn token(&self, rank: u32) -> &'static [u8] {
        let end_of = |r: u32| -> usize {
            let at = r as usize * 4;
            self.ends
                .get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(0, |b| u32::from_le_bytes(b) as usize)
        };
        let start = if rank == 0 { 0 } else { end_of(rank - 1) };
        self.bytes.get(start..end_of(rank)).unwrap_or(&[])
    }

    /// The slot at `at`.
    fn slot(&self, at: usize) -> u64 {
        self.slots
            .get(at * 8..at * 8 + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_le_bytes)
    }

    /// The rank of the token whose bytes are `bytes`, if there is one.
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if let [a, b] = bytes {
            return self.pair_rank(*a, *b);
        }
        let mask = self.slots.len() / 8 - 1;
        let h = hash(bytes);
        let mut at = slot_of(h, mask);
        loop {
            let slot = self.slot(at);
            if slot == 0 {
                return None;
            }
            // The low half is `rank + 1` (never 0 in a used slot).
            #[allow(clippy::cast_possible_truncation)]
            let rank = (slot as u32).wrapping_sub(1);
            if slot >> 32 == h >> 32 && self.token(rank) == bytes {
                return Some(rank);
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_is_found_at_its_rank() {
        let vocab = o200k_base();
        assert!(vocab.len() > 199_000, "{}", vocab.len());
        for rank in 0..u32::try_from(vocab.len()).unwrap_or(0) {
            assert_eq!(vocab.rank(vocab.token(rank)), Some(rank));
        }
        // Every single byte is a token; an unknown string is not.
        for b in 0..=255u8 {
            assert!(vocab.rank(&[b]).is_some(), "byte {b}");
        }
        assert_eq!(vocab.rank(b"not a token at all, surely"), None);
    }
}
