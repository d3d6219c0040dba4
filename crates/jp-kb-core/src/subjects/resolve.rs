//! The state of every subject of a topic: hidden, disabled, learned,
//! available (contract §1), and why.

use std::sync::Arc;

use super::pattern::{GlobHits, PatternList, find_exact};
use super::walk::{Subject, WalkResult};

/// Why a subject is learned: the first `learned` pattern that selects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LearnedBy {
    /// Index into the topic's deduplicated `learned` patterns.
    pub pattern: usize,
    /// True when that pattern selected it as a glob, false for an exact
    /// slug.
    pub glob: bool,
}

/// Per subject, the index of the first `disabled` entry that disables
/// it: four bytes a subject (a resolution of 100k subjects is kept
/// several times over in the TUI).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DisabledStates(Vec<u32>);

impl DisabledStates {
    fn none(len: usize) -> Self {
        Self(vec![0; len])
    }

    /// The entry that disables subject `i`, if any.
    pub fn get(&self, i: usize) -> Option<usize> {
        self.0
            .get(i)
            .and_then(|&v| v.checked_sub(1))
            .map(|v| v as usize)
    }

    fn set(&mut self, i: usize, entry: usize) {
        self.0[i] = u32::try_from(entry + 1).unwrap_or(u32::MAX);
    }

    /// How many subjects the states cover.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether they cover none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Per subject, the `learned` pattern that pre-loads it (see
/// [`DisabledStates`] for why it is packed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LearnedStates(Vec<u32>);

impl LearnedStates {
    /// Why subject `i` is learned, if it is.
    pub fn get(&self, i: usize) -> Option<LearnedBy> {
        let v = self.0.get(i)?.checked_sub(1)?;
        Some(LearnedBy {
            pattern: (v >> 1) as usize,
            glob: v & 1 == 1,
        })
    }

    fn set(&mut self, i: usize, by: LearnedBy) {
        let packed = u32::try_from(by.pattern)
            .ok()
            .and_then(|p| p.checked_mul(2))
            .map_or(u32::MAX - 1, |p| p | u32::from(by.glob));
        self.0[i] = packed + 1;
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A topic's subjects with their states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// Shared: topics naming one directory, and reloads that did not
    /// change it, reuse one walk.
    pub walk: Arc<WalkResult>,
    /// `learned` patterns without duplicates.
    pub learned_patterns: Vec<String>,
    /// `disabled` entries without duplicates.
    pub disabled_entries: Vec<String>,
    /// Per subject: the first `disabled` entry that disables it. Shared
    /// by the resolutions of one walk with the same `disabled` list.
    pub disabled_by: Arc<DisabledStates>,
    /// Per subject: the `learned` pattern that pre-loads it.
    pub learned_by: LearnedStates,
    /// Learned subjects in resolution order (pattern order, then slug).
    pub learned_order: Vec<usize>,
    /// [`Resolution::counts`], counted once: every frame of the TUI shows
    /// them, and counting is a pass over every subject.
    counted: Counts,
}

impl Resolution {
    /// Resolves the states of walked subjects. Disabled beats everything.
    pub fn new(
        walk: impl Into<Arc<WalkResult>>,
        learned: Vec<String>,
        disabled: Vec<String>,
    ) -> Self {
        let walk = walk.into();
        let mut hits = GlobHits::default();
        hits.fill(&walk.subjects, &learned, false);
        hits.fill(&walk.subjects, &disabled, true);
        Self::from_hits(walk, learned, disabled, None, &hits)
    }

    /// [`Resolution::new`] from glob matches already made: `hits` must
    /// hold every glob of both lists (see [`GlobHits::fill`]), and
    /// `disabled_by`, when given, must be the `disabled_by` of another
    /// resolution of the same walk with the same `disabled` list (shared,
    /// not copied). What is left costs a pass over the subjects and a
    /// binary search per exact entry, so a kept `GlobHits` makes a toggle
    /// cheap at any size.
    pub fn from_hits(
        walk: Arc<WalkResult>,
        learned: Vec<String>,
        disabled: Vec<String>,
        disabled_by: Option<Arc<DisabledStates>>,
        hits: &GlobHits,
    ) -> Self {
        let subjects = &walk.subjects;
        let disabled_by =
            disabled_by.unwrap_or_else(|| Arc::new(first_disabling(subjects, &disabled, hits)));
        let mut learned_by = LearnedStates(vec![0; subjects.len()]);
        let mut learned_order = Vec::new();
        for (p, pattern) in learned.iter().enumerate() {
            let globbed = hits.get(pattern, false);
            let exact = find_exact(subjects, pattern).filter(|&i| disabled_by.get(i).is_none());
            let mut take = |i: usize| {
                if learned_by.get(i).is_none() && disabled_by.get(i).is_none() {
                    let glob = globbed.is_some() && *pattern != subjects[i].slug();
                    learned_by.set(i, LearnedBy { pattern: p, glob });
                    learned_order.push(i);
                }
            };
            // The pattern's selection in slug order: its glob matches with
            // its exact subject merged in.
            let mut exact = exact;
            for &g in globbed.unwrap_or(&[]) {
                let g = g as usize;
                if let Some(e) = exact.filter(|&e| e <= g) {
                    if e < g {
                        take(e);
                    }
                    exact = None;
                }
                take(g);
            }
            if let Some(e) = exact {
                take(e);
            }
        }
        let mut resolution = Self {
            walk,
            learned_patterns: learned,
            disabled_entries: disabled,
            disabled_by,
            learned_by,
            learned_order,
            counted: Counts::default(),
        };
        resolution.counted = resolution.count();
        resolution
    }

    /// The topic's subjects, in slug order.
    pub fn subjects(&self) -> &[Subject] {
        &self.walk.subjects
    }

    /// Whether subject `i` is disabled (a `disabled` entry selects it).
    pub fn is_disabled(&self, i: usize) -> bool {
        self.disabled_by.get(i).is_some()
    }

    /// Whether subject `i` is pre-loaded (a `learned` pattern selects it).
    pub fn is_learned(&self, i: usize) -> bool {
        self.learned_by.get(i).is_some()
    }

    /// Not hidden, not disabled, not learned: what `learn` lists.
    pub fn is_available(&self, i: usize) -> bool {
        !self.walk.subjects[i].hidden && !self.is_disabled(i) && !self.is_learned(i)
    }

    /// Indices of available subjects, in slug order.
    pub fn available(&self) -> Vec<usize> {
        (0..self.walk.subjects.len())
            .filter(|&i| self.is_available(i))
            .collect()
    }

    /// Whether any subject is available (the topic is in the menu).
    pub fn has_available(&self) -> bool {
        (0..self.walk.subjects.len()).any(|i| self.is_available(i))
    }

    /// Learned subjects in slug order (for the "Already learned" list).
    pub fn learned_sorted(&self) -> Vec<usize> {
        let mut v = self.learned_order.clone();
        v.sort_unstable();
        v
    }

    /// The subjects one pattern selects under the `learned` rules (globs
    /// skip hidden subjects, an exact slug reaches them; disabled subjects
    /// are never selected), in slug order. The pattern tester and the
    /// "replace this glob by its slugs" fix use it.
    pub fn selected_by_pattern(&self, pattern: &str) -> Vec<usize> {
        PatternList::new(&[pattern.to_owned()])
            .resolve(self.subjects(), &|i| !self.is_disabled(i))
            .into_iter()
            .map(|(i, _)| i)
            .collect()
    }

    /// How many subjects are in each state (counted once).
    pub fn counts(&self) -> Counts {
        self.counted
    }

    fn count(&self) -> Counts {
        let mut c = Counts {
            total: self.walk.subjects.len(),
            ..Counts::default()
        };
        for (i, s) in self.walk.subjects.iter().enumerate() {
            if s.hidden {
                c.hidden += 1;
            }
            if self.is_disabled(i) {
                c.disabled += 1;
            }
            if self.is_learned(i) {
                c.learned += 1;
            }
            if self.is_available(i) {
                c.available += 1;
            }
        }
        c
    }
}

/// For every subject, the first `disabled` entry that matches it (a glob
/// reaches hidden subjects too), from glob matches already made.
fn first_disabling(subjects: &[Subject], disabled: &[String], hits: &GlobHits) -> DisabledStates {
    let mut out = DisabledStates::none(subjects.len());
    for (p, entry) in disabled.iter().enumerate() {
        let mut mark = |i: usize| {
            if out.get(i).is_none() {
                out.set(i, p);
            }
        };
        for &i in hits.get(entry, true).unwrap_or(&[]) {
            mark(i as usize);
        }
        if let Some(i) = find_exact(subjects, entry) {
            mark(i);
        }
    }
    out
}

/// How many subjects a topic has in each state. A hidden subject that is
/// also disabled counts in both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub total: usize,
    pub available: usize,
    pub hidden: usize,
    pub disabled: usize,
    pub learned: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subjects::walk::settle_collisions;

    fn subject(rel: &str) -> Subject {
        let components: Vec<&str> = rel.split('/').collect();
        Subject::new(
            &crate::subjects::slug::slug_of(&components),
            rel,
            std::path::Path::new(rel),
            crate::subjects::slug::is_hidden_path(&components),
            0,
            0,
        )
    }

    #[test]
    fn selected_by_pattern_follows_learned_rules() {
        let (subjects, _) = settle_collisions(vec![
            subject("m/a.md"),
            subject("m/b.md"),
            subject("m/.c.md"),
            subject("x.md"),
        ]);
        let walk = WalkResult {
            subjects,
            ..WalkResult::default()
        };
        let r = Resolution::new(walk, vec![], vec!["m/b".into()]);
        let slugs = |v: Vec<usize>| -> Vec<String> {
            v.into_iter()
                .map(|i| r.subjects()[i].slug().to_owned())
                .collect()
        };
        // The glob skips the hidden m/c and the disabled m/b.
        assert_eq!(slugs(r.selected_by_pattern("m/*")), ["m/a"]);
        // An exact slug reaches a hidden subject.
        assert_eq!(slugs(r.selected_by_pattern("m/c")), ["m/c"]);
        assert!(r.selected_by_pattern("m/b").is_empty());
    }
}
