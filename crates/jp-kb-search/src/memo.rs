//! A small saved map from text keys to numbers, beside an index: what a
//! search computed about a hit (its token count) and need not compute
//! again while the key (which names the file's size and time) holds.
//! Bounded to [`MAX_ENTRIES`], the oldest dropped first; a cache file
//! ([`crate::cache_file`], kind [`Kind::Memo`]) replaced atomically like
//! the segments; a damaged file is an error (the caller starts an empty
//! memo), never a panic nor a wrong number.
//!
//! Its one section: the entry count (varint), then the entries `(key,
//! value)` as a length-prefixed string and a varint, oldest first.

use std::path::Path;

use crate::cache_file::{self, CacheError, CacheFile, Kind};
use crate::codec::{Corrupt, Reader, put_string, put_varint};
use crate::hash::FastMap;

/// The most entries kept: a few hundred kilobytes at most.
pub const MAX_ENTRIES: usize = 4096;
/// The largest memo read: longer is damage (keys are a few dozen bytes).
const MAX_BYTES: u64 = 64 * MAX_ENTRIES as u64 * 16;

/// Keys to numbers, oldest first.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Memo {
    order: Vec<String>,
    values: FastMap<String, u64>,
    changed: bool,
}

impl Memo {
    /// The value kept for `key`.
    pub fn get(&self, key: &str) -> Option<u64> {
        self.values.get(key).copied()
    }

    /// Keeps `value` for `key` (the oldest entry goes past
    /// [`MAX_ENTRIES`]).
    pub fn put(&mut self, key: String, value: u64) {
        if self.values.insert(key.clone(), value) == Some(value) {
            return;
        }
        self.changed = true;
        self.order.retain(|k| *k != key);
        self.order.push(key);
        if self.order.len() > MAX_ENTRIES {
            let old = self.order.remove(0);
            self.values.remove(&old);
        }
    }

    /// True when something was put since it was read.
    pub fn is_changed(&self) -> bool {
        self.changed
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, self.order.len() as u64);
        for key in &self.order {
            put_string(&mut out, key);
            put_varint(&mut out, self.values.get(key).copied().unwrap_or(0));
        }
        cache_file::encode(Kind::Memo, &[&out])
    }

    /// Reads a memo's bytes.
    #[cfg(test)]
    fn decode(bytes: Vec<u8>) -> Result<Self, CacheError> {
        Self::read(&CacheFile::from_bytes(bytes, Kind::Memo)?)
    }

    fn read(file: &CacheFile) -> Result<Self, CacheError> {
        if file.section_count() != 1 || file.section_len(0) > MAX_BYTES {
            return Err(CacheError::Corrupt("memo"));
        }
        let bytes = file.section(0)?;
        let mut r = Reader::new(&bytes);
        let n = r.count(2)?;
        let mut memo = Self::default();
        for _ in 0..n {
            let key = r.string()?;
            let value = r.varint()?;
            if memo.values.insert(key.clone(), value).is_some() {
                return Err(Corrupt("a key twice").into());
            }
            memo.order.push(key);
        }
        if !r.is_done() || memo.order.len() > MAX_ENTRIES {
            return Err(Corrupt("trailing bytes").into());
        }
        Ok(memo)
    }

    /// Reads the memo saved at `path`: empty when there is none, and when
    /// it is damaged (it is only a cache).
    pub fn load(path: &Path) -> Self {
        match CacheFile::open(path, Kind::Memo) {
            Ok(Some(file)) => Self::read(&file).unwrap_or_default(),
            _ => Self::default(),
        }
    }

    /// Saves the memo at `path` (atomically); unchanged from then on.
    pub fn save(&mut self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::store::write_atomic(path, &self.encode())?;
        self.changed = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Memo {
        let mut memo = Memo::default();
        memo.put("12:00000000000000ab".into(), 150);
        memo.put("ü:7".into(), 7);
        memo.put("c".into(), 1 << 40);
        memo
    }

    #[test]
    fn round_trips_and_keeps_the_newest() {
        let memo = sample();
        let back = Memo::decode(memo.encode()).unwrap();
        assert_eq!(back.get("c"), Some(1 << 40));
        assert_eq!(back.order, memo.order);
        assert!(!back.is_changed());
        let mut full = Memo::default();
        for i in 0..=MAX_ENTRIES {
            full.put(i.to_string(), i as u64);
        }
        assert_eq!(full.get("0"), None);
        assert_eq!(full.get(&MAX_ENTRIES.to_string()), Some(MAX_ENTRIES as u64));
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        let good = sample().encode();
        for cut in 0..good.len() {
            assert!(Memo::decode(good[..cut].to_vec()).is_err(), "{cut}");
        }
        // Damage behind checksums that match it: an error or a memo,
        // never a panic.
        let body = CacheFile::from_bytes(good, Kind::Memo)
            .and_then(|f| f.section(0).map(std::borrow::Cow::into_owned))
            .unwrap();
        for i in 0..body.len() {
            let mut bad = body.clone();
            bad[i] ^= 0xFF;
            let _ = Memo::decode(cache_file::encode(Kind::Memo, &[&bad]));
        }
    }

    /// A memo file far larger than any memo is not read.
    #[test]
    fn a_huge_memo_is_damage() {
        let huge = vec![0u8; usize::try_from(MAX_BYTES).unwrap() + 1];
        assert_eq!(
            Memo::decode(cache_file::encode(Kind::Memo, &[&huge])),
            Err(CacheError::Corrupt("memo"))
        );
    }

    proptest::proptest! {
        /// Up to three flipped bits anywhere, or a cut anywhere, is an
        /// error, never a memo that answers differently.
        #[test]
        fn any_small_damage_is_an_error(
            bits in proptest::collection::vec(0usize..100_000, 1..=3),
            cut in 0usize..100_000,
        ) {
            let good = sample().encode();
            let mut bad = good.clone();
            let mut flipped = std::collections::BTreeSet::new();
            for bit in bits {
                let bit = bit % (good.len() * 8);
                if flipped.insert(bit) {
                    bad[bit / 8] ^= 1 << (bit % 8);
                }
            }
            proptest::prop_assert!(Memo::decode(bad).is_err());
            let cut = cut % good.len();
            proptest::prop_assert!(Memo::decode(good[..cut].to_vec()).is_err());
        }
    }
}
