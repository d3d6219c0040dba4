//! Usage in the curator (issue 27): the ledger's tally for the last 30
//! days, as the subjects pane's figure beside each subject, the Subject
//! preview's usage line, the dialogs' "how often was this loaded", and
//! the `U` order (every subject, the never loaded ones, the loaded ones
//! most loaded first). The tally arrives from the usage worker
//! (`usage_worker`) as [`Event::Usage`](super::event::Event); until the
//! first read (and in the test harness, which reads none) nothing about
//! usage is drawn, so the first frame never waits for the ledger.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use jp_kb_core::subjects::Resolution;
use jp_kb_core::usage::{Tally, Usage, time};

/// The window the curator shows: the default of `jp-kb usage`.
pub const WINDOW: Duration = Duration::from_secs(30 * 86_400);

/// One read of the ledger.
#[derive(Debug)]
pub struct Read {
    pub tally: Tally,
    /// When it was read (UTC seconds): "last load" is relative to it.
    pub at: u64,
}

/// How usage shapes the subjects pane (`U` cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Order {
    /// The tree, every subject.
    #[default]
    All,
    /// Only subjects never loaded in the window.
    Never,
    /// Only loaded subjects, most loaded first in each directory.
    Most,
}

impl Order {
    #[must_use]
    pub fn next(self) -> Self {
        match self {
            Order::All => Order::Never,
            Order::Never => Order::Most,
            Order::Most => Order::All,
        }
    }

    /// The pane title's note (short: the pane is narrow); `None` for the
    /// plain tree.
    pub fn title(self) -> Option<&'static str> {
        match self {
            Order::All => None,
            Order::Never => Some("never loaded"),
            Order::Most => Some("most loaded"),
        }
    }

    /// The status line's words; `None` for the plain tree.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Order::All => None,
            Order::Never => Some("never loaded in 30 days"),
            Order::Most => Some("loaded in 30 days, most first"),
        }
    }
}

/// The curator's usage state.
#[derive(Debug, Default)]
pub struct UsageState {
    read: Option<Arc<Read>>,
    pub order: Order,
    /// Counts the reads: rows ordered by usage depend on it.
    pub generation: u64,
}

impl UsageState {
    /// A new read of the ledger replaces the last.
    pub fn set(&mut self, read: Read) {
        self.read = Some(Arc::new(read));
        self.generation += 1;
    }

    /// Whether the ledger has been read (the figures are shown).
    pub fn is_loaded(&self) -> bool {
        self.read.is_some()
    }

    pub fn of(&self, topic: &str, slug: &str) -> Option<&Usage> {
        self.read.as_ref()?.tally.get(topic, slug)
    }

    fn loads(&self, topic: &str, slug: &str) -> u64 {
        self.of(topic, slug).map_or(0, |u| u.loads)
    }

    /// The figure beside a subject: its loads in the window, `·` for
    /// none; `None` before the first read.
    pub fn figure(&self, topic: &str, slug: &str) -> Option<String> {
        self.read.as_ref()?;
        Some(match self.loads(topic, slug) {
            0 => "·".to_owned(),
            n => compact(n),
        })
    }

    /// Each subject's loads, by index in `res` (for the `U` order).
    pub fn loads_by_index(&self, topic: &str, res: &Resolution) -> Vec<u64> {
        res.subjects()
            .iter()
            .map(|s| self.loads(topic, s.slug()))
            .collect()
    }

    /// The Subject preview's usage line: loads, sessions, last load, by
    /// which clients; `None` before the first read.
    pub fn subject_line(&self, topic: &str, slug: &str) -> Option<String> {
        let read = self.read.as_ref()?;
        let Some(u) = read.tally.get(topic, slug).filter(|u| u.loads > 0) else {
            let mut line = "usage: never loaded in 30 days".to_owned();
            if let Some(asked) = read.tally.get(topic, slug).map(|u| u.asked_while_preloaded)
                && asked > 0
            {
                let _ = write!(line, " · asked for {asked}× while pre-loaded");
            }
            return Some(line);
        };
        let mut line = format!(
            "usage: {} in 30 days · {}",
            jp_kb_core::internal::plural::count(
                usize::try_from(u.loads).unwrap_or(usize::MAX),
                "load",
                "loads"
            ),
            jp_kb_core::internal::plural::count(
                usize::try_from(u.sessions).unwrap_or(usize::MAX),
                "session",
                "sessions"
            ),
        );
        if let Some(last) = u.last {
            // `ago` says `now` under a minute: "last just now", never
            // "last now ago" (issue 37 item 5).
            match time::ago(last, read.at).as_str() {
                "now" => line.push_str(" · last just now"),
                ago => {
                    let _ = write!(line, " · last {ago} ago");
                }
            }
        }
        if !u.clients.is_empty() {
            let clients: Vec<&str> = u.clients.iter().map(String::as_str).collect();
            let _ = write!(line, " · by {}", clients.join(", "));
        }
        if u.asked_while_preloaded > 0 {
            let _ = write!(
                line,
                " · asked for {}× while pre-loaded",
                u.asked_while_preloaded
            );
        }
        Some(line)
    }

    /// What a dialog says about the subjects it would change: how often
    /// they were loaded; `None` before the first read or without subjects.
    pub fn change_note<'a>(
        &self,
        topic: &str,
        slugs: impl IntoIterator<Item = &'a str>,
    ) -> Option<String> {
        self.read.as_ref()?;
        let (mut total, mut loaded, mut n) = (0, 0, 0);
        for slug in slugs {
            let loads = self.loads(topic, slug);
            n += 1;
            total += loads;
            loaded += usize::from(loads > 0);
        }
        match (n, total) {
            (0, _) => None,
            (1, 0) => Some("never loaded in 30 days".to_owned()),
            (1, t) => Some(format!("loaded {t}× in 30 days")),
            (_, 0) => Some(format!("none of the {n} loaded in 30 days")),
            (_, t) => Some(format!("{loaded} of {n} loaded in 30 days ({t} loads)")),
        }
    }
}

impl UsageState {
    /// What a dialog's option would change, by usage: the subjects its
    /// plan names (entering, leaving or newly disabled, as `topic/slug`).
    pub fn plan_note(&self, effect: &jp_kb_core::edit::plan::ViewChange) -> Option<String> {
        self.read.as_ref()?;
        let named: Vec<(&str, &str)> = effect
            .entering
            .iter()
            .chain(&effect.leaving)
            .chain(&effect.disabled)
            .chain(&effect.disabled_hidden)
            .filter_map(|s| s.split_once('/'))
            .collect();
        if named.is_empty() {
            return None;
        }
        let (mut total, mut loaded) = (0, 0);
        for (topic, slug) in &named {
            let loads = self.loads(topic, slug);
            total += loads;
            loaded += usize::from(loads > 0);
        }
        Some(if total == 0 {
            format!(
                "usage: {} never loaded in 30 days",
                if named.len() == 1 {
                    "it was"
                } else {
                    "they were"
                }
            )
        } else {
            format!(
                "usage: {loaded} of {} loaded in 30 days ({total} loads)",
                named.len()
            )
        })
    }
}

/// `1234` as `1.2k`: the figure column stays narrow.
fn compact(n: u64) -> String {
    match n {
        0..1000 => n.to_string(),
        1000..10_000 => format!("{}.{}k", n / 1000, n % 1000 / 100),
        10_000..1_000_000 => format!("{}k", n / 1000),
        _ => format!("{}M", n / 1_000_000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_kb_core::usage::{Entry, Kind};

    fn state(lines: &[(&str, &str)]) -> UsageState {
        state_read_at(lines, 1000 + 7200)
    }

    fn state_read_at(lines: &[(&str, &str)], at: u64) -> UsageState {
        let mut text = String::new();
        for (session, slug) in lines {
            let mut e = Entry::record(
                1000,
                Kind::Learn,
                "p".into(),
                (*session).into(),
                ("jp".into(), "1".into()),
            );
            e.slugs = vec![(*slug).to_owned().into()];
            text += &e.to_line();
        }
        let mut s = UsageState::default();
        s.set(Read {
            tally: Tally::read_bytes(text.as_bytes(), None),
            at,
        });
        s
    }

    #[test]
    fn nothing_is_shown_before_the_first_read() {
        let s = UsageState::default();
        assert_eq!(s.figure("p", "a"), None);
        assert_eq!(s.subject_line("p", "a"), None);
        assert_eq!(s.change_note("p", ["a"]), None);
    }

    #[test]
    fn figures_lines_and_notes() {
        let s = state(&[("s1", "a"), ("s2", "a"), ("s2", "b")]);
        assert_eq!(s.figure("p", "a").as_deref(), Some("2"));
        assert_eq!(s.figure("p", "c").as_deref(), Some("·"));
        assert_eq!(
            s.subject_line("p", "a").as_deref(),
            Some("usage: 2 loads in 30 days · 2 sessions · last 2h ago · by jp 1")
        );
        assert_eq!(
            s.subject_line("p", "c").as_deref(),
            Some("usage: never loaded in 30 days")
        );
        assert_eq!(
            s.change_note("p", ["a", "b", "c"]).as_deref(),
            Some("2 of 3 loaded in 30 days (3 loads)")
        );
        assert_eq!(
            s.change_note("p", ["c"]).as_deref(),
            Some("never loaded in 30 days")
        );
        assert_eq!(compact(12_345), "12k");
        assert_eq!(compact(1_234), "1.2k");
    }

    /// A load under a minute ago (issue 37 item 5: "last now ago").
    #[test]
    fn a_load_just_now_reads_as_such() {
        let s = state_read_at(&[("s1", "a")], 1000 + 20);
        assert_eq!(
            s.subject_line("p", "a").as_deref(),
            Some("usage: 1 load in 30 days · 1 session · last just now · by jp 1")
        );
    }
}
