//! Counted nouns for human-facing messages: `1 slug`, `2 slugs`, never
//! `slug(s)` or `entr(ies)`.

/// `n` followed by `one` when `n` is 1, else by `many`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn singular_only_for_one() {
        assert_eq!(count(0, "entry", "entries"), "0 entries");
        assert_eq!(count(1, "entry", "entries"), "1 entry");
        assert_eq!(count(2, "slug", "slugs"), "2 slugs");
    }
}
