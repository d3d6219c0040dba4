//! Keep-first de-duplication: the one rule for every list jp-kb reads,
//! shows or writes without repeats (`learned`, `disabled`, config paths,
//! the values of an edit). The first occurrence wins and the order is
//! kept, because order is meaning here: `learned` order is the order the
//! assistant is shown subjects in.
//!
//! A leaf module (it imports nothing of the crate), so every layer may use
//! it.

use std::collections::HashSet;
use std::hash::Hash;

/// `items` without repeats, first occurrence kept, in order.
pub fn keep_first<T: Eq + Hash + Clone>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = items.into_iter().collect();
    retain_first_by(&mut out, Clone::clone);
    out
}

/// Drops from `items` every element whose `key` an earlier one had.
pub fn retain_first_by<T, K: Eq + Hash>(items: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    let mut seen = HashSet::new();
    items.retain(|item| seen.insert(key(item)));
}

/// Appends `item` unless `list` already holds it: keep-first, one item
/// at a time, for lists built up in a loop.
pub fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_occurrence_wins_and_order_stays() {
        assert_eq!(keep_first(["b", "a", "b", "c", "a"]), ["b", "a", "c"]);
        let mut pairs = vec![(1, 'x'), (2, 'y'), (1, 'z')];
        retain_first_by(&mut pairs, |p| p.0);
        assert_eq!(pairs, [(1, 'x'), (2, 'y')]);
        let mut list = vec!["a"];
        push_new(&mut list, "a");
        push_new(&mut list, "b");
        assert_eq!(list, ["a", "b"]);
    }
}
