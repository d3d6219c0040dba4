//! The index's string maps use `foldhash` with a fixed seed (a maintained,
//! fast, non-cryptographic hasher; hashbrown's default): building the
//! index looks up every word of every file, and std's `SipHash` was a
//! visible share of that. Keys come from the user's own files; hash
//! flooding is not a concern for a local cache, and a fixed seed keeps
//! iteration order, and so the index bytes, the same from run to run.

use std::collections::{HashMap, HashSet};

/// The hasher of [`FastMap`] and [`FastSet`].
pub type FastState = foldhash::fast::FixedState;

pub type FastMap<K, V> = HashMap<K, V, FastState>;
pub type FastSet<K> = HashSet<K, FastState>;
