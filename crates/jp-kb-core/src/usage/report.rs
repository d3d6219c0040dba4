//! A ledger's tally beside the knowledge base as it is now: one row per
//! subject of the enabled topics, in `jp-kb list` order (topics in
//! configuration order, subjects by slug), never-loaded subjects included,
//! and what the figures mean for curation ([`Insight`]).

use super::read::{Tally, Usage};
use crate::KnowledgeBase;
use crate::topic::TopicState;

/// A subject's state, as `jp-kb usage --json` names it (contract §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Pre-loaded into the system prompt.
    Learned,
    /// Listed by `learn`, loaded on request.
    Available,
    /// Loadable by exact slug only.
    Hidden,
    /// Never shown.
    Disabled,
}

impl State {
    /// Its name in `jp-kb usage --json`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Learned => "learned",
            State::Available => "available",
            State::Hidden => "hidden",
            State::Disabled => "disabled",
        }
    }
}

/// One subject's row.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    /// The topic's id.
    pub topic: &'a str,
    /// The subject's slug.
    pub slug: &'a str,
    /// Its state now.
    pub state: State,
    /// `None`: never loaded in the window.
    pub usage: Option<&'a Usage>,
}

impl Row<'_> {
    /// How often it was loaded in the window.
    pub fn loads(&self) -> u64 {
        self.usage.map_or(0, |u| u.loads)
    }
}

/// What the figures mean, for the end of the human output and the TUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Insight {
    /// On-demand (available) subjects never loaded: their lines in the
    /// `learn` listing cost tokens every time it is read.
    NeverLoaded {
        subjects: usize,
        listing_tokens: u64,
    },
    /// On-demand subjects loaded in most sessions: pre-loading them
    /// would save calls and cost this many tokens in every request.
    LoadedInMostSessions {
        subjects: usize,
        tokens_per_request: u64,
    },
    /// Pre-loaded subjects `learn` was asked for anyway.
    AskedWhilePreloaded { subjects: usize },
    /// Disabled subjects that were loaded in the window (before they were
    /// disabled).
    LoadedThenDisabled { subjects: usize },
}

impl Insight {
    /// The sentence, `window` being "in 30 days" or "so far".
    pub fn text(&self, window: &str) -> String {
        let n = |k: usize| crate::plural::count(k, "subject", "subjects");
        match *self {
            Insight::NeverLoaded {
                subjects,
                listing_tokens,
            } => format!(
                "{} never loaded {window}: {listing_tokens} tokens of listing every time `learn` lists their topic; disable the ones nobody needs.",
                n(subjects)
            ),
            Insight::LoadedInMostSessions {
                subjects,
                tokens_per_request,
            } => format!(
                "{} on-demand loaded in most sessions: pre-loading them (learned) would cost {tokens_per_request} tokens per request and save the calls.",
                n(subjects)
            ),
            Insight::AskedWhilePreloaded { subjects } => format!(
                "{} pre-loaded but asked for with `learn` anyway: the assistant may not notice them in its system prompt.",
                n(subjects)
            ),
            Insight::LoadedThenDisabled { subjects } => {
                format!("{} disabled now but loaded {window}.", n(subjects))
            }
        }
    }
}

/// The rows of a knowledge base's enabled topics (or of `only`).
#[derive(Debug)]
pub struct Report<'a> {
    /// A row per subject, topic by topic.
    pub rows: Vec<Row<'a>>,
    /// The ledger's tally it was built from.
    pub tally: &'a Tally,
}

impl<'a> Report<'a> {
    /// The rows of `kb`'s enabled topics (or of `only`) with what `tally` counted.
    pub fn build(kb: &'a KnowledgeBase, tally: &'a Tally, only: Option<&'a TopicState>) -> Self {
        let topics: Vec<&TopicState> = match only {
            Some(t) => vec![t],
            None => kb.enabled_topics().collect(),
        };
        let mut rows = Vec::new();
        for topic in topics {
            let Some(resolution) = topic.resolution() else {
                continue;
            };
            for (i, s) in resolution.subjects().iter().enumerate() {
                let state = if resolution.is_disabled(i) {
                    State::Disabled
                } else if resolution.is_learned(i) {
                    State::Learned
                } else if s.hidden {
                    State::Hidden
                } else {
                    State::Available
                };
                rows.push(Row {
                    topic: topic.id(),
                    slug: s.slug(),
                    state,
                    usage: tally.get(topic.id(), s.slug()),
                });
            }
        }
        Self { rows, tally }
    }

    /// What the rows mean, most useful first; empty when there is nothing
    /// to say.
    pub fn insights(&self) -> Vec<Insight> {
        let mut out = Vec::new();
        let never: Vec<&Row<'_>> = self
            .rows
            .iter()
            .filter(|r| r.state == State::Available && r.loads() == 0)
            .collect();
        if !never.is_empty() {
            let listing_tokens = never
                .iter()
                .map(|r| {
                    jp_kb_tokens::count_tokens(&format!("- {}\n", r.slug)).map_or(0, |n| n as u64)
                })
                .sum();
            out.push(Insight::NeverLoaded {
                subjects: never.len(),
                listing_tokens,
            });
        }
        let sessions = self.tally.sessions;
        let hot: Vec<&Usage> = self
            .rows
            .iter()
            .filter(|r| matches!(r.state, State::Available | State::Hidden))
            .filter_map(|r| r.usage)
            .filter(|u| sessions >= 2 && u.sessions * 2 > sessions)
            .collect();
        if !hot.is_empty() {
            out.push(Insight::LoadedInMostSessions {
                subjects: hot.len(),
                tokens_per_request: hot
                    .iter()
                    .map(|u| u.tokens.checked_div(u.loads).unwrap_or(0))
                    .sum(),
            });
        }
        let asked = self
            .rows
            .iter()
            .filter(|r| r.state == State::Learned)
            .filter(|r| r.usage.is_some_and(|u| u.asked_while_preloaded > 0))
            .count();
        if asked > 0 {
            out.push(Insight::AskedWhilePreloaded { subjects: asked });
        }
        let disabled = self
            .rows
            .iter()
            .filter(|r| r.state == State::Disabled && r.loads() > 0)
            .count();
        if disabled > 0 {
            out.push(Insight::LoadedThenDisabled { subjects: disabled });
        }
        out
    }
}
