//! The `o200k_base` vocabulary, read in place from the table checked in
//! at `data/o200k_base.tokens` and compiled into the binary, with a hash
//! index from a token's bytes to its rank (the order in which byte-pair
//! merges apply). The table is checked in so that no build needs the
//! `bpe-openai` crate; `tests/table.rs` regenerates it from that crate
//! and compares.
//!
//! About 4 MB in all (the table and a 2 MB index), where a general
//! tokenizer crate holds ~70 MB: the TUI counts tokens all the time and
//! its whole budget at 100k subjects is 100 MB.

use std::sync::LazyLock;

static TABLE: &[u8] = include_bytes!("../data/o200k_base.tokens");

/// The vocabulary and its index.
pub struct Vocab {
    /// End offset of each token's bytes in `bytes`, by rank.
    ends: &'static [u8],
    bytes: &'static [u8],
    count: u32,
    /// Open addressing: `rank + 1` of the token hashed there (0: free) in
    /// the low half, the high half of its hash in the high half, so most
    /// probes that miss never read the token's bytes.
    slots: Vec<u64>,
    /// The rank of every two-byte token (`u32::MAX`: none), by the two
    /// bytes: the first merges of every piece look these up.
    pairs: Vec<u32>,
}

static VOCAB: LazyLock<Vocab> = LazyLock::new(|| Vocab::new(TABLE));

/// The vocabulary (indexed on first use).
pub fn o200k_base() -> &'static Vocab {
    &VOCAB
}

impl Vocab {
    /// Reads the table `build.rs` writes; a malformed table (which the
    /// build never writes) gives an empty vocabulary rather than a panic.
    fn new(table: &'static [u8]) -> Self {
        let count = table
            .get(..4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_le_bytes);
        let split = 4 + count as usize * 4;
        let (ends, bytes) = match (table.get(4..split), table.get(split..)) {
            (Some(ends), Some(bytes)) => (ends, bytes),
            _ => (&[][..], &[][..]),
        };
        let count = if ends.is_empty() { 0 } else { count };
        let mut vocab = Self {
            ends,
            bytes,
            count,
            slots: vec![0; (count as usize * 2).next_power_of_two().max(2)],
            pairs: vec![u32::MAX; 1 << 16],
        };
        let mask = vocab.slots.len() - 1;
        for rank in 0..count {
            let token = vocab.token(rank);
            if let [a, b] = token {
                vocab.pairs[usize::from(*a) << 8 | usize::from(*b)] = rank;
            }
            let h = hash(token);
            let mut at = slot_of(h, mask);
            while vocab.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            vocab.slots[at] = (h & !0xffff_ffff) | u64::from(rank + 1);
        }
        vocab
    }

    /// The rank of the two-byte token `[a, b]`, if there is one.
    pub fn pair_rank(&self, a: u8, b: u8) -> Option<u32> {
        let rank = self.pairs[usize::from(a) << 8 | usize::from(b)];
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

    /// The rank of the token whose bytes are `bytes`, if there is one.
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if let [a, b] = bytes {
            return self.pair_rank(*a, *b);
        }
        let mask = self.slots.len() - 1;
        let h = hash(bytes);
        let mut at = slot_of(h, mask);
        loop {
            let slot = self.slots[at];
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

/// Where a hash starts probing (its low bits).
#[allow(clippy::cast_possible_truncation)]
fn slot_of(h: u64, mask: usize) -> usize {
    (h as usize) & mask
}

/// A fast hash of short byte strings (tokens average 7 bytes).
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    let rest = chunks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    h = (h.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    // Fold the well-mixed high bits into the low ones (the slot index);
    // the high half stays as the fingerprint.
    h ^ (h >> 29)
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
