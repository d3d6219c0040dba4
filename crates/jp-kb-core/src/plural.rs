//! Counted nouns and numbers for human-facing messages: `1 slug`,
//! `2 slugs` (never `slug(s)` or `entr(ies)`), `41,327`.

/// `n` followed by `one` when `n` is 1, else by `many`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `2048` as "2,048": token counts run to the millions.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{count, thousands};

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(806_896), "806,896");
    }

    #[test]
    fn singular_only_for_one() {
        assert_eq!(count(0, "entry", "entries"), "0 entries");
        assert_eq!(count(1, "entry", "entries"), "1 entry");
        assert_eq!(count(2, "slug", "slugs"), "2 slugs");
    }
}
