//! The preview's slow reads, off the key path: a client's view (the
//! section rendered for that client and laid out: 150–210 ms on a 4.4 MiB
//! prompt), a `learn` call's output (a pattern over thousands of
//! subjects) and a long run of the section's pieces (a search reads the
//! whole section; `G` reads to its end). A key never waits for them: its
//! frame says what is coming ("computing…", "running…", "searching…"),
//! and the result arrives as [`Event::Fetched`] on the loop's channel,
//! like the prompt's. Without the worker (the test harness) they are read
//! during the key, so its screens stay deterministic.
//!
//! One read is in flight at a time; a newer one overtakes it (the worker
//! drops the older result), and a screen that still needs the older one
//! asks again.

use std::sync::Arc;

use super::client_prompt::SectionMemo;
use super::event::Event;
use super::model::{Fetched, Need, fetch_with};
use super::worker::{Outbox, Worker, newest};
use jp_kb_core::KnowledgeBase;

/// A run of the section's pieces this long or longer goes to the worker
/// (a screenful is a few dozen; reading every piece of a 4.4 MiB section
/// took ~100 ms).
const PIECES_INLINE: usize = 256;

/// What the worker is asked: the knowledge base and the read.
type Job = (Arc<KnowledgeBase>, Need);

/// The driver's end of the read worker.
#[derive(Debug)]
pub struct Reads {
    worker: Worker<Job>,
    /// The read asked for and not answered yet.
    pending: Option<Need>,
}

impl Reads {
    /// Starts the worker, reporting to `outbox`.
    pub fn spawn(outbox: &Outbox) -> std::io::Result<Self> {
        let mut memo = SectionMemo::default();
        let run = move |(kb, need): Job| {
            Some(Event::Fetched(Box::new(fetch_with(&kb, &need, &mut memo))))
        };
        let worker = Worker::spawn("jp-kb-reads", newest, run, Arc::clone(outbox))?;
        Ok(Self {
            worker,
            pending: None,
        })
    }

    /// Whether `need` can take longer than a frame, and goes to the
    /// worker.
    pub fn takes(need: &Need) -> bool {
        match need {
            Need::ClientPrompt { .. } | Need::Learn(_) => true,
            Need::PromptHead { pieces, .. } => pieces.len() >= PIECES_INLINE,
            Need::Subject { .. } | Need::Tokens(_) => false,
        }
    }

    /// Asks for `need` (once: a read in flight is not asked again);
    /// false when the worker is gone and the caller must read it.
    pub fn request(&mut self, kb: &Arc<KnowledgeBase>, need: &Need) -> bool {
        if self.pending.as_ref() == Some(need) {
            return true;
        }
        if self.worker.request((Arc::clone(kb), need.clone())).is_err() {
            self.pending = None;
            return false;
        }
        self.pending = Some(need.clone());
        true
    }

    /// A read arrived: the pending one is answered when it is the same
    /// read (a screen that still lacks something asks again).
    pub fn answered(&mut self, fetched: &Fetched) {
        let answers = match (&self.pending, fetched) {
            (Some(Need::ClientPrompt { generation, client }), Fetched::ClientPrompt(view)) => {
                view.generation == *generation && view.client == *client
            }
            (Some(Need::Learn(key)), Fetched::Learn(got, _)) => key == got,
            (
                Some(Need::PromptHead {
                    generation, from, ..
                }),
                Fetched::PromptHead(part),
            ) => part.generation == *generation && part.from == *from,
            _ => false,
        };
        if answers {
            self.pending = None;
        }
    }

    /// The read in flight, if any (the screen says it is coming).
    pub fn pending(&self) -> Option<&Need> {
        self.pending.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::model::LearnKey;

    #[test]
    fn only_the_reads_that_can_be_slow_go_to_the_worker() {
        let learn = Need::Learn(LearnKey {
            topic: "t".into(),
            pattern: Some("**".into()),
        });
        assert!(Reads::takes(&learn));
        let client = Need::ClientPrompt {
            generation: 1,
            client: "codex".into(),
        };
        assert!(Reads::takes(&client));
        let screenful = Need::PromptHead {
            generation: 1,
            from: 0,
            pieces: Vec::new(),
        };
        assert!(!Reads::takes(&screenful));
        assert!(!Reads::takes(&Need::Tokens(Vec::new())));
    }
}
