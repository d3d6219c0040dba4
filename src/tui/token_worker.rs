//! Token counts of the rows on screen, off the key path.
//!
//! A row shows its subject's token count, read and counted when the row
//! first comes into view. A key that brings many new rows into view (a
//! character typed into the filter: ~40 rows, ~400 KB to count) waited
//! ~20 ms for that on a quiet machine (issue 16). In the terminal the
//! counts are made on a worker thread: the key's frame shows `…` in those
//! rows, and the counts arrive as [`Action::Fetched`] like the prompt's.
//! Without the worker (tests) they are counted during the key, as before.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};

use super::action::Action;
use super::model::{Fetched, Need, fetch};
use crate::kb::KnowledgeBase;

/// The driver's end of the worker.
#[derive(Debug)]
pub struct TokenWorker {
    requests: Sender<(Arc<KnowledgeBase>, Need)>,
    /// Paths asked for and not answered yet: not asked again meanwhile.
    pending: HashSet<PathBuf>,
}

impl TokenWorker {
    /// Starts the worker; its results arrive on the returned channel, and
    /// it stops when the driver's end is dropped.
    pub(super) fn spawn() -> std::io::Result<(Self, Receiver<Action>)> {
        let (requests, jobs) = mpsc::channel::<(Arc<KnowledgeBase>, Need)>();
        let (results, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("jp-kb-tokens".into())
            .spawn(move || {
                for (kb, need) in jobs {
                    let fetched = fetch(&kb, &need);
                    drop(kb);
                    if results.send(Action::Fetched(Box::new(fetched))).is_err() {
                        break;
                    }
                }
            })?;
        let worker = Self {
            requests,
            pending: HashSet::new(),
        };
        Ok((worker, rx))
    }

    /// Asks for the counts of `list` not asked for yet; false when the
    /// worker is gone (the caller counts them itself).
    pub(super) fn request(
        &mut self,
        kb: &Arc<KnowledgeBase>,
        list: Vec<(PathBuf, String, Option<String>, super::model::Stamp)>,
    ) -> bool {
        let new: Vec<_> = list
            .into_iter()
            .filter(|(path, ..)| !self.pending.contains(path))
            .collect();
        if new.is_empty() {
            return true;
        }
        let paths: Vec<PathBuf> = new.iter().map(|(path, ..)| path.clone()).collect();
        if self
            .requests
            .send((Arc::clone(kb), Need::Tokens(new)))
            .is_err()
        {
            return false;
        }
        self.pending.extend(paths);
        true
    }

    /// Counts arrived (they are asked for again if still missing).
    pub(super) fn answered(&mut self, fetched: &Fetched) {
        if let Fetched::Tokens(list) = fetched {
            for (path, ..) in list {
                self.pending.remove(path);
            }
        }
    }
}
