//! Un-learning a subject that a glob in `learned` selects. Removing a line
//! cannot do that, so the curator is offered two edits: drop the pattern
//! (un-learning everything it selected), or replace it in place by the
//! explicit slugs it matches, minus the one being un-learned.
//!
//! Which slugs a glob matches is the resolver's business; this module
//! takes them as input.

use crate::edit::error::GlobFixError;
use crate::edit::ops::Edit;

/// The two ways to un-learn `slug` when `pattern` selects it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobFix {
    /// Removes the pattern: every subject it selected is un-learned.
    pub remove_pattern: Edit,
    /// Replaces the pattern, at its position, by `replacement`.
    pub replace_pattern: Edit,
    /// The explicit slugs written instead of the pattern: those it matches,
    /// minus `slug`, minus those already listed, in the order given.
    pub replacement: Vec<String>,
    /// Replacement slugs holding glob metacharacters (`* ? [ {`). Written
    /// as patterns they select their own subject (exact match) but may
    /// also glob-match others; the caller should say so.
    pub glob_like: Vec<String>,
}

/// Builds both edits for topic `topic`, whose learned patterns (in this
/// file) are `patterns`, where `pattern` matches the subjects `matched`.
///
/// # Errors
/// When `pattern` is not listed, or `slug` is not one of `matched`.
pub fn unlearn_via_glob(
    topic: &str,
    patterns: &[String],
    pattern: &str,
    matched: &[String],
    slug: &str,
) -> Result<GlobFix, GlobFixError> {
    if !patterns.iter().any(|p| p == pattern) {
        return Err(GlobFixError::PatternNotListed {
            pattern: pattern.to_owned(),
        });
    }
    if !matched.iter().any(|m| m == slug) {
        return Err(GlobFixError::SlugNotMatched {
            slug: slug.to_owned(),
            pattern: pattern.to_owned(),
        });
    }
    let mut replacement: Vec<String> = Vec::new();
    for m in matched {
        if m != slug && m != pattern && !patterns.contains(m) && !replacement.contains(m) {
            replacement.push(m.clone());
        }
    }
    let glob_like = replacement
        .iter()
        .filter(|s| s.contains(['*', '?', '[', '{']))
        .cloned()
        .collect();
    Ok(GlobFix {
        remove_pattern: Edit::RemoveLearned {
            topic: topic.to_owned(),
            patterns: vec![pattern.to_owned()],
        },
        replace_pattern: Edit::ReplaceLearned {
            topic: topic.to_owned(),
            pattern: pattern.to_owned(),
            with: replacement.clone(),
        },
        replacement,
        glob_like,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn replacement_skips_the_slug_and_listed_ones() {
        let fix = unlearn_via_glob(
            "project",
            &s(&["intro", "maint/*"]),
            "maint/*",
            &s(&["maint/a", "maint/b[1]", "maint/c", "intro"]),
            "maint/c",
        )
        .unwrap();
        assert_eq!(fix.replacement, s(&["maint/a", "maint/b[1]"]));
        assert_eq!(fix.glob_like, s(&["maint/b[1]"]));
        assert_eq!(
            fix.replace_pattern,
            Edit::ReplaceLearned {
                topic: "project".into(),
                pattern: "maint/*".into(),
                with: s(&["maint/a", "maint/b[1]"]),
            }
        );
        assert_eq!(
            fix.remove_pattern,
            Edit::RemoveLearned {
                topic: "project".into(),
                patterns: s(&["maint/*"]),
            }
        );
    }

    #[test]
    fn refuses_unknown_pattern_or_slug() {
        let e = unlearn_via_glob("t", &s(&["a/*"]), "b/*", &s(&["b/x"]), "b/x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`b/*` is not one of the topic's learned patterns"
        );
        let e = unlearn_via_glob("t", &s(&["a/*"]), "a/*", &s(&["a/x"]), "a/y").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`a/y` is not among the subjects `a/*` matches"
        );
    }
}
