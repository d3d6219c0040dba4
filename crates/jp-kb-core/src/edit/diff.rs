//! Diffs of a file before and after an edit: the unified diff of
//! `--diff`, and which lines changed (the TUI's Config tab highlight).
//! Both are `similar`'s Myers diff: linear memory, and one insertion in a
//! long file is one changed line (the TUI's own LCS table, replaced here,
//! took quadratic memory and gave up past 4,000 lines).

use similar::{Algorithm, DiffOp, capture_diff_slices};

/// `diff -u`-style text with `a/LABEL` and `b/LABEL` headers and three
/// lines of context; empty when the texts are equal. A missing final line
/// break is marked the way `diff` does.
#[must_use]
pub fn unified_diff(old: &str, new: &str, label: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{label}"), &format!("b/{label}"))
        .to_string()
}

/// For each line of `after`, whether it is new or changed relative to
/// `before` (lines as `str::lines` splits them).
#[must_use]
pub fn changed_lines(before: &str, after: &str) -> Vec<bool> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let mut changed = vec![true; b.len()];
    for op in capture_diff_slices(Algorithm::Myers, &a, &b) {
        if let DiffOp::Equal { new_index, len, .. } = op {
            changed[new_index..new_index + len].fill(false);
        }
    }
    changed
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn marks_inserted_and_modified_lines() {
        assert_eq!(
            changed_lines("a\nb\nc\n", "a\nB\nc\nd\n"),
            [false, true, false, true]
        );
        assert_eq!(changed_lines("", "x\n"), [true]);
        assert_eq!(changed_lines("x\ny\n", "y\n"), [false]);
    }

    fn numbered(n: usize, prefix: &str) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for i in 0..n {
            let _ = writeln!(out, "{prefix}{i}");
        }
        out
    }

    fn marked(changed: &[bool]) -> Vec<usize> {
        (0..changed.len()).filter(|&i| changed[i]).collect()
    }

    /// Regression: the hand-written LCS compared files over 4,000 lines
    /// position by position, so everything after an insertion was marked.
    #[test]
    fn one_inserted_line_in_a_long_file_marks_one_line() {
        let before = numbered(5000, "line ");
        let after = before.replacen("line 10\n", "line 10\ninserted\n", 1);
        let changed = changed_lines(&before, &after);
        assert_eq!(changed.len(), 5001);
        let marked = marked(&changed);
        assert!(
            marked == [11],
            "{} lines marked, from {:?}",
            marked.len(),
            marked.first()
        );
    }

    /// Linear memory: an LCS table for 200,000 × 200,000 lines would need
    /// 160 GB; Myers needs a few vectors of the lines' length.
    #[test]
    fn a_very_long_file_is_diffed_in_linear_memory() {
        let before = numbered(200_000, "");
        let after = before.replacen("\n150000\n", "\n150000\nnew\n", 1);
        assert_eq!(marked(&changed_lines(&before, &after)), [150_001]);
    }

    #[test]
    fn shows_only_the_changed_lines_with_context() {
        let old = "a = 1\n[kb.topic.p]\nlearned = [\"x\"]\n";
        let new = "a = 1\n[kb.topic.p]\nlearned = [\"x\", \"y\"]\n";
        assert_eq!(
            unified_diff(old, new, ".jp/config.toml"),
            "--- a/.jp/config.toml\n+++ b/.jp/config.toml\n@@ -1,3 +1,3 @@\n a = 1\n [kb.topic.p]\n-learned = [\"x\"]\n+learned = [\"x\", \"y\"]\n"
        );
        assert_eq!(unified_diff(old, old, "x"), "");
    }

    #[test]
    fn marks_a_missing_final_line_break() {
        let d = unified_diff("a = 1", "a = 2", "f");
        assert!(d.contains("\\ No newline at end of file"), "{d}");
    }
}
