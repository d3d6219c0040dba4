//! A [`TokenSource`] that counts on the caller's thread: the section now
//! and the section of every planned state asked about (the CLI and tests;
//! the TUI counts on a worker).

use crate::KnowledgeBase;
use crate::section_tokens::SectionCounter;

use super::Step;
use super::effect::TokenSource;

/// A source that counts, on the caller's thread: the section of `kb` and
/// of every planned state asked about (for the CLI and tests; the TUI
/// counts on a worker).
pub struct Counting<'a> {
    /// The knowledge base counted.
    pub kb: &'a KnowledgeBase,
    /// The section's tokens now.
    pub now: usize,
    counter: SectionCounter,
}

impl<'a> Counting<'a> {
    /// Counts `kb`'s section now.
    pub fn new(kb: &'a KnowledgeBase) -> Self {
        let counter = SectionCounter::new();
        let now = counter.count(kb);
        Self { kb, now, counter }
    }
}

impl TokenSource for Counting<'_> {
    fn section(&self) -> Option<usize> {
        Some(self.now)
    }
    fn planned(&self, steps: &[Step]) -> Option<usize> {
        let planned = super::planned::planned(self.kb, steps);
        Some(self.counter.count(&planned))
    }
}
