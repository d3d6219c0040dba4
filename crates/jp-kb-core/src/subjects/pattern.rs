//! Pattern lists (`learned`, `disabled`, `learn` arguments) compiled once
//! into a `GlobSet` (contract §3).
//!
//! A pattern *selects* a subject when it glob-matches a non-hidden slug
//! (`*` and `?` never cross `/`), or when it equals the subject exactly:
//! its slug, its slug with dots (`.internal-notes`) or its relative path
//! (`code-quality.md`); an exact selection reaches hidden subjects too. A
//! pattern that does not parse as a glob is only ever an exact slug.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::slug::dotted_slug;
use super::walk::Subject;

/// Characters that make a pattern a glob, in `learned`/`disabled` and in
/// `extends` entries (the loader takes this same list from here: the
/// lowest layer holds it so both can).
pub const GLOB_META: &[char] = &['*', '?', '[', '{'];

/// True when `pattern` contains glob metacharacters and parses as a glob.
pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(GLOB_META) && build_glob(pattern).is_ok()
}

fn build_glob(pattern: &str) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
}

/// A list of patterns, compiled once.
#[derive(Debug, Clone)]
pub struct PatternList {
    patterns: Vec<String>,
    globs: GlobSet,
    /// For each glob of `globs`, the index of its pattern.
    glob_owner: Vec<usize>,
    glob_flags: Vec<bool>,
}

impl PatternList {
    pub fn new(patterns: &[String]) -> Self {
        let mut builder = GlobSetBuilder::new();
        let mut glob_owner = Vec::new();
        let mut glob_flags = Vec::with_capacity(patterns.len());
        for (i, pattern) in patterns.iter().enumerate() {
            let glob = pattern
                .contains(GLOB_META)
                .then(|| build_glob(pattern).ok())
                .flatten();
            glob_flags.push(glob.is_some());
            if let Some(glob) = glob {
                builder.add(glob);
                glob_owner.push(i);
            }
        }
        // Every glob was built successfully alone, so the set builds too;
        // fall back to "no globs" rather than panic if it ever does not.
        let globs = builder.build().unwrap_or_else(|_| {
            glob_owner.clear();
            GlobSet::empty()
        });
        Self {
            patterns: patterns.to_vec(),
            globs,
            glob_owner,
            glob_flags,
        }
    }

    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether pattern `i` is used as a glob (else only as an exact slug).
    pub fn is_glob(&self, i: usize) -> bool {
        self.glob_flags.get(i).copied().unwrap_or(false)
    }

    /// For each pattern, the subjects it selects, in slug order (subjects
    /// must be sorted by slug). `eligible(i)` filters subjects out entirely
    /// (disabled ones, for instance).
    pub fn select_per_pattern(
        &self,
        subjects: &[Subject],
        eligible: &dyn Fn(usize) -> bool,
    ) -> Vec<Vec<usize>> {
        let mut buckets = vec![Vec::new(); self.patterns.len()];
        if !self.glob_owner.is_empty() {
            let mut hits = Vec::new();
            for (i, subject) in subjects.iter().enumerate() {
                if subject.hidden || !eligible(i) {
                    continue;
                }
                self.globs.matches_into(subject.slug(), &mut hits);
                for &g in &hits {
                    buckets[self.glob_owner[g]].push(i);
                }
            }
        }
        for (p, pattern) in self.patterns.iter().enumerate() {
            if let Some(i) = find_exact(subjects, pattern).filter(|&i| eligible(i)) {
                let bucket = &mut buckets[p];
                if let Err(pos) = bucket.binary_search(&i) {
                    bucket.insert(pos, i);
                }
            }
        }
        buckets
    }

    /// The subjects the list selects, in resolution order: pattern order,
    /// slug order within one pattern, first occurrence kept. Each entry is
    /// `(subject index, index of the first pattern that selected it)`.
    pub fn resolve(
        &self,
        subjects: &[Subject],
        eligible: &dyn Fn(usize) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut seen = vec![false; subjects.len()];
        let mut out = Vec::new();
        for (p, bucket) in self
            .select_per_pattern(subjects, eligible)
            .into_iter()
            .enumerate()
        {
            for i in bucket {
                if !std::mem::replace(&mut seen[i], true) {
                    out.push((i, p));
                }
            }
        }
        out
    }

    /// For every subject, the first pattern that matches it, ignoring
    /// hidden-ness for globs: how `disabled` entries work (a disabled glob
    /// disables hidden subjects too).
    pub fn first_match_any(&self, subjects: &[Subject]) -> Vec<Option<usize>> {
        let mut out = vec![None; subjects.len()];
        if self.patterns.is_empty() {
            return out;
        }
        let mut hits = Vec::new();
        if !self.glob_owner.is_empty() {
            for (i, subject) in subjects.iter().enumerate() {
                self.globs.matches_into(subject.slug(), &mut hits);
                out[i] = hits.iter().map(|&g| self.glob_owner[g]).min();
            }
        }
        for (p, pattern) in self.patterns.iter().enumerate() {
            if let Some(i) = find_exact(subjects, pattern) {
                out[i] = Some(out[i].map_or(p, |q| q.min(p)));
            }
        }
        out
    }
}

/// The subject `pattern` names exactly: by slug (binary search over the
/// slug-sorted list), else by dotted slug or relative path.
pub fn find_exact(subjects: &[Subject], pattern: &str) -> Option<usize> {
    if let Ok(i) = subjects.binary_search_by(|s| s.slug().cmp(pattern)) {
        return Some(i);
    }
    if !pattern.contains('.') {
        return None;
    }
    subjects
        .iter()
        .position(|s| s.rel_path() == pattern || dotted_slug(s.rel_path()) == pattern)
}

/// Which subjects each glob pattern matches in one walk, before any
/// eligibility filter: matching globs against every slug is the costly
/// part of resolving a topic, and the lists of a topic change one entry
/// at a time (a toggle in the TUI), so a kept `GlobHits` lets a new
/// resolution match only the globs it has not seen (see
/// [`Resolution::from_hits`](super::Resolution::from_hits)).
///
/// Two kinds of matching are kept apart: `learned` globs skip hidden
/// subjects, `disabled` globs reach them (`hidden_too`).
#[derive(Debug, Clone, Default)]
pub struct GlobHits {
    /// Indexed by `hidden_too`; values are subject indices, ascending.
    by_kind: [std::collections::HashMap<String, std::sync::Arc<[u32]>>; 2],
}

impl GlobHits {
    /// Matches every glob of `patterns` not matched yet, all in one pass
    /// over `subjects`. Patterns that are not globs are left out (they
    /// only ever name a subject exactly).
    pub fn fill(&mut self, subjects: &[Subject], patterns: &[String], hidden_too: bool) {
        let known = &self.by_kind[usize::from(hidden_too)];
        let mut missing: Vec<String> = patterns
            .iter()
            .filter(|p| !known.contains_key(p.as_str()) && is_glob(p))
            .cloned()
            .collect();
        missing.sort_unstable();
        missing.dedup();
        if missing.is_empty() {
            return;
        }
        let list = PatternList::new(&missing);
        let mut found: Vec<Vec<u32>> = vec![Vec::new(); missing.len()];
        let mut hits = Vec::new();
        for (i, subject) in subjects.iter().enumerate() {
            if subject.hidden && !hidden_too {
                continue;
            }
            list.globs.matches_into(subject.slug(), &mut hits);
            for &g in &hits {
                // Walks are far below 2^32 subjects; an index that does not
                // fit is never produced by `enumerate` over a real walk.
                if let Ok(i) = u32::try_from(i) {
                    found[list.glob_owner[g]].push(i);
                }
            }
        }
        let kind = &mut self.by_kind[usize::from(hidden_too)];
        for (pattern, indices) in missing.into_iter().zip(found) {
            kind.insert(pattern, indices.into());
        }
    }

    /// The subjects glob `pattern` matches (ascending), or `None` when
    /// `pattern` is not a glob (or was never [`GlobHits::fill`]ed).
    pub fn get(&self, pattern: &str, hidden_too: bool) -> Option<&[u32]> {
        self.by_kind[usize::from(hidden_too)]
            .get(pattern)
            .map(AsRef::as_ref)
    }

    /// Forgets every pattern `keep` does not want.
    pub fn retain(&mut self, keep: impl Fn(&str, bool) -> bool) {
        for (kind, map) in self.by_kind.iter_mut().enumerate() {
            map.retain(|p, _| keep(p, kind == 1));
        }
    }

    /// How many patterns are kept (for tests and diagnostics).
    pub fn len(&self) -> usize {
        self.by_kind
            .iter()
            .map(std::collections::HashMap::len)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
