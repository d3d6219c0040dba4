//! Token counts of the rows on screen, off the key path.
//!
//! A row shows its subject's token count, read and counted when the row
//! first comes into view. A key that brings many new rows into view (a
//! character typed into the filter: ~40 rows, ~400 KB to count) waited
//! ~20 ms for that on a quiet machine (issue 16). In the terminal the
//! counts are made on a [`Worker`]: the key's frame shows `…` in those
//! rows, and the counts arrive as [`Event::Fetched`] on the loop's one
//! channel, like the prompt's. Without the worker (the test harness) they
//! are counted during the key, so snapshots stay as they were.
//!
//! The worker drops a result whose request was overtaken while it ran
//! (see `worker`), so each request asks for every count still pending,
//! not only the new ones: the newest request answers the older ones too.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::event::Event;
use super::model::{Fetched, Need, Stamp, fetch};
use super::worker::{Outbox, Worker, newest};
use jp_kb_core::KnowledgeBase;

/// One subject to count: path, slug, extension, stamp (as `Need::Tokens`).
type Entry = (PathBuf, String, Option<String>, Stamp);

/// What the worker is asked: the knowledge base and every pending count.
type Job = (Arc<KnowledgeBase>, Vec<Entry>);

/// The driver's end of the token worker.
#[derive(Debug)]
pub struct TokenCounts {
    worker: Worker<Job>,
    /// Counts asked for and not answered yet, by path.
    pending: BTreeMap<PathBuf, Entry>,
}

impl TokenCounts {
    /// Starts the worker, reporting to `outbox`.
    pub fn spawn(outbox: &Outbox) -> std::io::Result<Self> {
        let run = |(kb, list): Job| {
            let fetched = fetch(&kb, &Need::Tokens(list));
            Some(Event::Fetched(Box::new(fetched)))
        };
        let worker = Worker::spawn("jp-kb-tokens", newest, run, Arc::clone(outbox))?;
        Ok(Self {
            worker,
            pending: BTreeMap::new(),
        })
    }

    /// Asks for the counts of `list` (with every count still pending);
    /// false when the worker is gone and the caller must count them.
    pub fn request(&mut self, kb: &Arc<KnowledgeBase>, list: &[Entry]) -> bool {
        let before = self.pending.len();
        for entry in list {
            self.pending
                .entry(entry.0.clone())
                .or_insert_with(|| entry.clone());
        }
        if self.pending.len() == before {
            // Nothing new: the request in flight answers them.
            return true;
        }
        let all: Vec<Entry> = self.pending.values().cloned().collect();
        if self.worker.request((Arc::clone(kb), all)).is_err() {
            self.pending.clear();
            return false;
        }
        true
    }

    /// True when no count is pending.
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty()
    }

    /// Counts arrived: no longer pending (asked for again if the rows
    /// still miss them, e.g. after a reload changed their stamp).
    pub fn answered(&mut self, fetched: &Fetched) {
        if let Fetched::Tokens(list) = fetched {
            for (path, ..) in list {
                self.pending.remove(path);
            }
        }
    }
}
