//! Subjects worth pruning (`jp-kb usage --stale`, the curator's prune
//! view): those whose front matter says they expired, those no assistant
//! ever loaded (by the whole ledger), and, when a time is chosen, those
//! not loaded for that long. Disabled subjects are pruned already and
//! never listed. Each comes with its reasons and what it costs: its
//! tokens as the assistant gets it, every request when it is pre-loaded.

use std::time::Duration;

use super::read::Tally;
use super::report::State;
use crate::KnowledgeBase;
use crate::content::{Root, format_subject_owned, read_content};
use crate::facts::{Day, SubjectAge};
use crate::subjects::Subject;
use crate::topic::TopicState;

/// Why a subject is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Its front matter's `expires` is before today.
    Expired(Day),
    /// No assistant loaded it, in the whole ledger.
    NeverLoaded,
    /// Loaded, last at this time (UTC seconds), not since the chosen time.
    NotLoadedSince(u64),
}

impl Reason {
    /// A few words, as the CLI and the TUI show it (`now`: UTC seconds).
    pub fn text(self, now: u64) -> String {
        match self {
            Reason::Expired(day) => format!("expired {day}"),
            Reason::NeverLoaded => "never loaded".to_owned(),
            Reason::NotLoadedSince(last) => {
                format!("last loaded {} ago", super::time::ago(last, now))
            }
        }
    }
}

/// One subject worth pruning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Its topic's id.
    pub topic: String,
    /// Its slug.
    pub slug: String,
    /// Learned (pre-loaded), available or hidden.
    pub state: State,
    /// Why it is listed (at least one).
    pub reasons: Vec<Reason>,
    /// Times it was loaded, in the whole ledger.
    pub loads: u64,
    /// Its tokens as the assistant gets it (`None`: not text, or not
    /// counted yet): in every request when it is pre-loaded.
    pub tokens: Option<usize>,
}

impl Candidate {
    /// `topic/slug`.
    pub fn name(&self) -> String {
        format!("{}/{}", self.topic, self.slug)
    }

    /// The tokens it takes from the `<knowledge>` section: its own when
    /// pre-loaded, else none (it is only loaded on demand).
    pub fn prompt_tokens(&self) -> usize {
        if self.state == State::Learned {
            self.tokens.unwrap_or(0)
        } else {
            0
        }
    }
}

/// What makes a subject worth pruning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Criteria {
    /// The day expiry is judged on.
    pub today: Day,
    /// Now, UTC seconds (for "not loaded since").
    pub now: u64,
    /// List subjects last loaded longer ago than this too.
    pub idle: Option<Duration>,
}

/// The candidates of the enabled topics (or of `only`), in `list` order.
/// `tally` is the whole ledger (read with no window); when it holds
/// nothing at all, "never loaded" says nothing and is not a reason.
/// `expired` tells the day a subject expired on, if it has (by
/// [`read_age`]; a front end may answer from what it read already).
pub fn candidates(
    kb: &KnowledgeBase,
    tally: &Tally,
    only: Option<&TopicState>,
    criteria: &Criteria,
    expired: &mut dyn FnMut(&Subject) -> Option<Day>,
) -> Vec<Candidate> {
    let topics: Vec<&TopicState> = match only {
        Some(t) => vec![t],
        None => kb.enabled_topics().collect(),
    };
    let recorded = !tally.is_empty();
    let idle_before = criteria
        .idle
        .map(|d| criteria.now.saturating_sub(d.as_secs()));
    let mut out = Vec::new();
    for topic in topics {
        let Some(resolution) = topic.resolution() else {
            continue;
        };
        for (i, s) in resolution.subjects().iter().enumerate() {
            if resolution.is_disabled(i) {
                continue;
            }
            let usage = tally.get(topic.id(), s.slug()).filter(|u| u.loads > 0);
            let mut reasons = Vec::new();
            if let Some(day) = expired(s) {
                reasons.push(Reason::Expired(day));
            }
            match usage.and_then(|u| u.last) {
                None if recorded && usage.is_none() => reasons.push(Reason::NeverLoaded),
                Some(last) if idle_before.is_some_and(|before| last < before) => {
                    reasons.push(Reason::NotLoadedSince(last));
                }
                _ => {}
            }
            if reasons.is_empty() {
                continue;
            }
            let state = if resolution.is_learned(i) {
                State::Learned
            } else if s.hidden {
                State::Hidden
            } else {
                State::Available
            };
            out.push(Candidate {
                topic: topic.id().to_owned(),
                slug: s.slug().to_owned(),
                state,
                reasons,
                loads: usage.map_or(0, |u| u.loads),
                tokens: None,
            });
        }
    }
    out
}

/// What `subject`'s file says of its age, read now.
pub fn read_age(kb: &KnowledgeBase, subject: &Subject, today: Day) -> SubjectAge {
    SubjectAge::read(&Root::new(kb.root()), subject, today)
}

/// Counts each candidate's tokens as the assistant gets it (the subject
/// formatted, `o200k_base`), reading its file.
pub fn count_tokens(kb: &KnowledgeBase, candidates: &mut [Candidate]) {
    let root = Root::new(kb.root());
    for c in candidates {
        let Some(subject) = kb.topic(&c.topic).and_then(|t| {
            let r = t.resolution()?;
            let i = crate::subjects::pattern::find_exact(r.subjects(), &c.slug)?;
            Some(r.subjects()[i].clone())
        }) else {
            continue;
        };
        let content = read_content(&root, subject.path());
        if matches!(content, crate::content::Content::Text(_)) {
            let text = format_subject_owned(subject.slug(), subject.extension(), content);
            c.tokens = crate::tokens::count_tokens(&text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::{Entry, Kind};

    #[test]
    fn lists_expired_never_loaded_and_idle_subjects() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        std::fs::create_dir_all(ws.join(".jp/kb/p")).unwrap();
        std::fs::write(
            ws.join(".jp/kb/p/old.md"),
            "---\nexpires: 2026-01-01\n---\n# Old\n",
        )
        .unwrap();
        std::fs::write(ws.join(".jp/kb/p/used.md"), "# Used\n").unwrap();
        std::fs::write(ws.join(".jp/kb/p/idle.md"), "# Idle\n").unwrap();
        std::fs::write(ws.join(".jp/kb/p/never.md"), "# Never\n").unwrap();
        std::fs::write(ws.join(".jp/kb/p/gone.md"), "# Gone\n").unwrap();
        std::fs::write(
            ws.join(".jp/kb.toml"),
            "[kb.topic.p]\ntitle = \"P\"\nsubjects = \".jp/kb/p\"\nlearned = [\"old\"]\ndisabled = [\"gone\"]\n",
        )
        .unwrap();
        let env = crate::config::Environment::workspace_only(ws);
        let kb = KnowledgeBase::load(&env, &crate::config::LoadOptions::default()).unwrap();
        let now = 100 * 86_400;
        let mut ledger = String::new();
        for (t, slug) in [
            (now - 60, "used"),
            (now - 40 * 86_400, "idle"),
            (now - 60, "old"),
        ] {
            let mut e = Entry::record(
                t,
                Kind::Learn,
                "p".into(),
                "s".into(),
                ("c".into(), "1".into()),
            );
            e.slugs = vec![slug.to_owned().into()];
            ledger.push_str(&serde_json::to_string(&e).unwrap());
            ledger.push('\n');
        }
        let tally = Tally::read_bytes(ledger.as_bytes(), None);
        let today = Day::parse("2026-05-01").unwrap();
        let mut criteria = Criteria {
            today,
            now,
            idle: None,
        };
        let names = |criteria: &Criteria| -> Vec<(String, Vec<Reason>)> {
            candidates(&kb, &tally, None, criteria, &mut |s| {
                read_age(&kb, s, today).expired()
            })
            .into_iter()
            .map(|c| (c.slug, c.reasons))
            .collect()
        };
        assert_eq!(
            names(&criteria),
            [
                ("never".to_owned(), vec![Reason::NeverLoaded]),
                (
                    "old".to_owned(),
                    vec![Reason::Expired(Day::parse("2026-01-01").unwrap())]
                ),
            ]
        );
        criteria.idle = Some(Duration::from_secs(30 * 86_400));
        let with_idle = names(&criteria);
        assert_eq!(
            with_idle[0],
            (
                "idle".to_owned(),
                vec![Reason::NotLoadedSince(now - 40 * 86_400)]
            )
        );
        assert_eq!(with_idle.len(), 3);
        // Nothing recorded: "never loaded" means nothing.
        let empty = Tally::default();
        let only_expired = candidates(&kb, &empty, None, &criteria, &mut |s| {
            read_age(&kb, s, today).expired()
        });
        assert_eq!(only_expired.len(), 1);
        assert_eq!(only_expired[0].state, State::Learned);
    }
}
