//! The subjects filter's matcher: fuzzy ranking and the matched
//! characters through `nucleo-matcher` (the matcher helix uses), and the
//! per-topic filter texts. A leaf module: the tree builder and the app
//! state use it, it uses neither (issue 16: `/tar` on tldr lists `tar`
//! before `pm-install-create`).

use std::collections::BTreeMap;

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// Scores slugs against one filter text.
pub struct SlugMatcher {
    atom: Atom,
    matcher: Matcher,
    buf: Vec<char>,
}

impl SlugMatcher {
    /// A matcher for `query` (smart case: a lowercase query ignores case,
    /// as the filter always did). The whole text is one fuzzy atom, so a
    /// space or `^` in it is matched literally.
    pub fn new(query: &str) -> Self {
        Self {
            atom: Atom::new(
                query,
                CaseMatching::Smart,
                Normalization::Smart,
                AtomKind::Fuzzy,
                false,
            ),
            // Slugs are paths: `/` is a word boundary worth a bonus.
            matcher: Matcher::new(Config::DEFAULT.match_paths()),
            buf: Vec::new(),
        }
    }

    /// The score of `slug` (higher is better), None when it does not match.
    pub fn score(&mut self, slug: &str) -> Option<u16> {
        self.atom
            .score(Utf32Str::new(slug, &mut self.buf), &mut self.matcher)
    }

    /// The char indices of `slug` the query matched (sorted), empty when
    /// it does not match.
    pub fn indices(&mut self, slug: &str) -> Vec<u32> {
        let mut indices = Vec::new();
        let _ = self.atom.indices(
            Utf32Str::new(slug, &mut self.buf),
            &mut self.matcher,
            &mut indices,
        );
        indices.sort_unstable();
        indices.dedup();
        indices
    }
}

/// The score of a subject: its slug's, or, when the slug does not match,
/// its path's as the row shows it (`/SKILL.md`, `/.ttf` find what the rows
/// show; issue 26 item 5). The path is scored only then: the slug's score
/// ranks as before, and a filter over 7k subjects stays one pass.
pub fn subject_score(matcher: &mut SlugMatcher, slug: &str, rel_path: &str) -> Option<u16> {
    matcher.score(slug).or_else(|| matcher.score(rel_path))
}

/// Which chars of a row's shown `name` (the file name) the filter
/// matched: in its `slug` when the slug matches (the slug's last
/// component is the start of the name; the name adds the extension),
/// else in its `rel_path` (which ends with the name). Empty when they do
/// not line up.
pub fn name_highlights(
    matcher: &mut SlugMatcher,
    slug: &str,
    rel_path: &str,
    name: &str,
) -> Vec<usize> {
    if matcher.score(slug).is_none() && rel_path.ends_with(name) {
        let start = rel_path.chars().count() - name.chars().count();
        return matcher
            .indices(rel_path)
            .into_iter()
            .filter_map(|i| usize::try_from(i).ok()?.checked_sub(start))
            .collect();
    }
    let last = slug.rsplit('/').next().unwrap_or(slug);
    if !name.starts_with(last) {
        return Vec::new();
    }
    let start = slug.chars().count() - last.chars().count();
    matcher
        .indices(slug)
        .into_iter()
        .filter_map(|i| usize::try_from(i).ok()?.checked_sub(start))
        .collect()
}

/// Each topic's filter text while another topic is shown: switching
/// topics keeps every topic's own filter (`app.subjects.filter` is the shown
/// topic's).
#[derive(Debug, Default)]
pub struct PerTopic {
    /// The topic whose filter `app.subjects.filter` holds.
    shown: Option<String>,
    kept: BTreeMap<String, String>,
}

impl PerTopic {
    /// Keeps `current` (the shown topic's filter) and puts `id`'s in
    /// its place, when the shown topic is not `id` already.
    pub fn show(&mut self, id: &str, current: &mut String) {
        if self.shown.as_deref() == Some(id) {
            return;
        }
        if let Some(old) = self.shown.take()
            && !current.is_empty()
        {
            self.kept.insert(old, std::mem::take(current));
        }
        *current = self.kept.remove(id).unwrap_or_default();
        self.shown = Some(id.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_name_ranks_above_a_scattered_match() {
        let mut m = SlugMatcher::new("tar");
        let exact = m.score("common/tar").unwrap_or(0);
        let scattered = m.score("common/pm-install-create").unwrap_or(0);
        assert!(exact > scattered, "{exact} vs {scattered}");
        assert!(m.score("common/ls").is_none());
    }

    #[test]
    fn smart_case_and_order() {
        let mut m = SlugMatcher::new("mj");
        assert!(m.score("maintainers/jean").is_some());
        assert!(SlugMatcher::new("jm").score("maintainers/jean").is_none());
        assert!(SlugMatcher::new("MJ").score("maintainers/jean").is_none());
    }

    #[test]
    fn highlights_map_to_the_file_name() {
        let mut m = SlugMatcher::new("jea");
        assert_eq!(
            name_highlights(&mut m, "maintainers/jean", "maintainers/jean.md", "jean.md"),
            vec![0, 1, 2]
        );
        assert!(name_highlights(&mut m, "maintainers/jean", "x/other.md", "other.md").is_empty());
    }

    /// Issue 26 item 5: the extension the rows show finds them.
    #[test]
    fn the_shown_name_matches_when_the_slug_does_not() {
        let mut m = SlugMatcher::new(".ttf");
        assert!(m.score("fonts/mono").is_none());
        assert!(subject_score(&mut m, "fonts/mono", "fonts/mono.ttf").is_some());
        assert_eq!(
            name_highlights(&mut m, "fonts/mono", "fonts/mono.ttf", "mono.ttf"),
            [4, 5, 6, 7]
        );
        let mut m = SlugMatcher::new("SKILL.md");
        assert!(subject_score(&mut m, "skills/pdf", "skills/pdf/SKILL.md").is_some());
    }
}
