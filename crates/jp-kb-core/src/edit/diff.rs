//! Unified diff of a file before and after an edit, for `--diff` and the
//! TUI's preview.

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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

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
