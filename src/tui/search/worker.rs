//! Where the search mode's queries run: on a [`Worker`] in the terminal,
//! so a key never waits on the index; inline without one (the test
//! harness), on an index kept in memory.
//!
//! The worker keeps one [`Searcher`] open for the session (the index in
//! the user's cache directory, as `jp-kb search` uses): each query checks
//! the loaded walk against the index by size and modification time and
//! reads only changed files. Queries typed while one runs coalesce (the
//! newest wins), and an answer a newer query overtook is dropped, by the
//! worker and again by generation in the state.

use std::sync::Arc;

use crate::tui::event::Event;
use crate::tui::search::keys::LIMIT;
use crate::tui::search::state::Found;
use crate::tui::worker::{Outbox, Worker, newest};
use jp_kb_core::KnowledgeBase;
#[cfg(feature = "semantic")]
use jp_kb_core::search::background::{Meaning, Ready};
use jp_kb_core::search::{SearchRequest, Searcher};

/// Search by meaning in the worker: the embeddings are built in their own
/// thread at the first query, searches go by words until they are ready
/// (the status says so), then hybrid. Built without the `semantic`
/// feature: nothing.
#[cfg(feature = "semantic")]
type Embeddings = Meaning;
#[cfg(not(feature = "semantic"))]
type Embeddings = ();

/// A query to answer: the loaded knowledge base, the query, its
/// generation.
type Job = (Arc<KnowledgeBase>, String, u64);

/// The driver's end of the searches.
#[derive(Debug, Default)]
pub struct Searches {
    worker: Option<Worker<Job>>,
    /// The inline searcher (no worker), opened at the first query.
    inline: Option<Searcher>,
}

impl Searches {
    /// Runs searches on a worker thread from now on, on the index saved
    /// for the workspace.
    pub fn spawn(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        self.spawn_with(outbox, Searcher::open)
    }

    /// Runs searches on a worker thread from now on, on the index `open`
    /// gives for the workspace root (at the first query).
    pub fn spawn_with(
        &mut self,
        outbox: &Outbox,
        open: fn(&std::path::Path) -> Searcher,
    ) -> std::io::Result<()> {
        let mut searcher: Option<Searcher> = None;
        let embeddings = Embeddings::default();
        let run = move |(kb, query, generation): Job| {
            let searcher = searcher.get_or_insert_with(|| open(kb.root()));
            Some(Event::Searched(Box::new(search(
                searcher,
                &kb,
                &query,
                generation,
                Some(&embeddings),
            ))))
        };
        self.worker = Some(Worker::spawn(
            "jp-kb-search",
            newest,
            run,
            Arc::clone(outbox),
        )?);
        Ok(())
    }

    /// Asks for the hits of `query`: `None` when the worker will report
    /// them, else the answer (no worker, or it is gone).
    pub fn request(
        &mut self,
        kb: &Arc<KnowledgeBase>,
        query: String,
        generation: u64,
    ) -> Option<Event> {
        if let Some(worker) = &self.worker {
            match worker.request((Arc::clone(kb), query, generation)) {
                Ok(()) => return None,
                Err((_, query, generation)) => {
                    self.worker = None;
                    return Some(self.inline(kb, &query, generation));
                }
            }
        }
        Some(self.inline(kb, &query, generation))
    }

    fn inline(&mut self, kb: &KnowledgeBase, query: &str, generation: u64) -> Event {
        let searcher = self.inline.get_or_insert_with(Searcher::memory);
        Event::Searched(Box::new(search(searcher, kb, query, generation, None)))
    }
}

/// One search over every enabled topic, hidden subjects included (the
/// mode marks them).
fn search(
    searcher: &mut Searcher,
    kb: &KnowledgeBase,
    query: &str,
    generation: u64,
    embeddings: Option<&Embeddings>,
) -> Found {
    let request = SearchRequest {
        query,
        topic: None,
        limit: LIMIT,
        hidden: true,
    };
    let mut notes = Vec::new();
    #[cfg(feature = "semantic")]
    let (result, mode) = {
        let mut ready = embeddings.map(|m| m.ready(kb));
        if let Some(Ready::Building(note) | Ready::Words(Some(note))) = &ready {
            notes.push(note.clone());
        }
        let result = match ready.as_mut().and_then(Ready::semantic) {
            Some(semantic) => searcher.search_in_mode(
                kb,
                &request,
                Some(semantic),
                jp_kb_core::search::Mode::Hybrid,
                &mut |_, _| {},
            ),
            None => searcher.search(kb, &request),
        };
        drop(ready);
        // Said each time above, not again from the log.
        let told = notes.clone();
        notes.extend(
            embeddings
                .map(Meaning::take_notes)
                .unwrap_or_default()
                .into_iter()
                .filter(|n| !told.contains(n)),
        );
        let mode = result.as_ref().map_or("lexical", |o| o.mode.name());
        (result, mode)
    };
    #[cfg(not(feature = "semantic"))]
    let (result, mode) = {
        let _ = embeddings;
        (searcher.search(kb, &request), "lexical")
    };
    match result {
        Ok(mut outcome) => {
            outcome.notes.append(&mut notes);
            Found {
                generation,
                result: Ok(outcome.hits),
                notes: outcome.notes,
                mode,
            }
        }
        Err(e) => Found {
            generation,
            result: Err(e.to_string()),
            notes,
            mode,
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::tui::worker::outbox;
    use jp_kb_core::{Environment, LoadOptions};
    use std::time::Duration;

    fn demo() -> (tempfile::TempDir, Arc<KnowledgeBase>) {
        let dir = crate::tui::demo::materialize().unwrap();
        let root = dir.path().to_path_buf();
        let env = Environment::workspace_only(root.clone());
        let options = LoadOptions::default().workspace(root);
        let kb = KnowledgeBase::load(&env, &options).unwrap();
        (dir, Arc::new(kb))
    }

    #[test]
    fn with_a_worker_a_query_returns_at_once_and_its_hits_arrive_as_an_event() {
        let (_dir, kb) = demo();
        let (tx, rx) = std::sync::mpsc::channel::<Event>();
        let mut searches = Searches::default();
        searches
            .spawn_with(&outbox(tx), |_| Searcher::memory())
            .unwrap();
        // Nothing answered during the request: the key does not wait.
        assert!(searches.request(&kb, "release".into(), 7).is_none());
        match rx.recv_timeout(Duration::from_secs(60)).unwrap() {
            Event::Searched(found) => {
                assert_eq!(found.generation, 7);
                let hits = found.result.unwrap();
                assert_eq!(hits[0].slug, "release");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn without_a_worker_the_answer_comes_back_inline() {
        let (_dir, kb) = demo();
        let mut searches = Searches::default();
        let Some(Event::Searched(found)) = searches.request(&kb, "*.[".into(), 3) else {
            panic!("no inline answer");
        };
        assert_eq!(found.generation, 3);
        assert!(found.result.unwrap_err().contains("no letters or digits"));
    }
}
