//! The embeddings of a long-running process (the MCP server's `search`
//! tool, the TUI's search mode): built in a thread of their own at the
//! first search (a first build over thousands of subjects takes minutes),
//! while searches go by words and say so; once built, every search brings
//! them up to date (only changed files are embedded again) and searches by
//! words and meaning (hybrid).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crate::KnowledgeBase;
use crate::search::index_dir;
use crate::search::semantic::{Semantic, choose_model};

/// Where search by meaning stands in a process that stays up (the MCP server, the TUI): searches are by words until the embeddings are built.
#[derive(Debug, Default)]
pub enum State {
    /// Nothing asked for yet.
    #[default]
    Unstarted,
    /// The first build: chunks embedded of those to embed, since when.
    Building {
        /// Chunks embedded so far.
        done: usize,
        /// Chunks to embed.
        total: usize,
        /// When the build started.
        started: Instant,
    },
    /// Built: searches are by meaning too.
    Ready(Box<Semantic>),
    /// No model, or one that failed (why): searches are by words.
    Unavailable(Option<String>),
}

/// The embeddings of a long-running process's knowledge base.
#[derive(Debug, Default)]
pub struct Meaning {
    state: Arc<Mutex<State>>,
    /// Notes for the person (a damaged file rebuilt, the model that
    /// failed, the build done): the caller shows them where it can (the
    /// server's stderr, the TUI's status), never this thread.
    notes: Arc<Mutex<Vec<String>>>,
}

/// What a search may use.
pub enum Ready<'a> {
    /// The embeddings, up to date as of the last call.
    Semantic(MutexGuard<'a, State>),
    /// Being built: searches are by words meanwhile (the note says so).
    Building(String),
    /// No embeddings for this process: no model, or why the model cannot
    /// be used (said in the notes once; a screen may show it each time).
    Words(Option<String>),
}

impl Ready<'_> {
    /// The embeddings, when ready.
    pub fn semantic(&mut self) -> Option<&mut Semantic> {
        match self {
            Self::Semantic(guard) => match &mut **guard {
                State::Ready(semantic) => Some(semantic),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Meaning {
    /// The notes since the last call.
    pub fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.notes))
    }

    /// The embeddings for a call on `kb`, starting their build at the
    /// first call when a model is available.
    pub fn ready(&self, kb: &KnowledgeBase) -> Ready<'_> {
        let mut state = lock(&self.state);
        match &*state {
            State::Ready(_) => return Ready::Semantic(state),
            State::Unavailable(why) => return Ready::Words(why.clone()),
            State::Building {
                done,
                total,
                started,
            } => return Ready::Building(building(*done, *total, *started)),
            State::Unstarted => {}
        }
        let (choice, not_used) = choose_model(kb, None);
        if let Some(note) = not_used {
            self.notes_push(note);
        }
        let Some(choice) = choice else {
            *state = State::Unavailable(None);
            return Ready::Words(None);
        };
        // Loaded here (its files read and checked: ~20 ms), so that a
        // model that cannot be used is said at this very search.
        let model = match jp_kb_embed::Model::load(choice.dir()) {
            Ok(model) => model,
            Err(e) => {
                let why = format!("{e}; searching by words only");
                self.notes_push(why.clone());
                *state = State::Unavailable(Some(why.clone()));
                return Ready::Words(Some(why));
            }
        };
        let started = Instant::now();
        *state = State::Building {
            done: 0,
            total: 0,
            started,
        };
        drop(state);
        let shared = Arc::clone(&self.state);
        let notes = Arc::clone(&self.notes);
        let note = move |text: String| lock(&notes).push(text);
        // The thread walks its own copy of the configuration: the call's
        // knowledge base is dropped when the call ends.
        let loaded = kb.loaded.clone();
        let dir = index_dir(kb.root());
        let spawned = std::thread::Builder::new()
            .name("jp-kb-embed".to_owned())
            .spawn(move || {
                let kb = KnowledgeBase::from_config(loaded);
                let mut semantic = Semantic::with_model(model, dir.as_deref());
                let progress = Arc::clone(&shared);
                let built = semantic
                    .refresh(&kb, None, &mut |done, total| {
                        *lock(&progress) = State::Building {
                            done,
                            total,
                            started,
                        };
                    })
                    .map(|_| semantic);
                *lock(&shared) = match built {
                    Ok(mut semantic) => {
                        semantic.take_notes().into_iter().for_each(&note);
                        note(format!(
                            "search by meaning is ready ({} subject files embedded)",
                            semantic.len()
                        ));
                        State::Ready(Box::new(semantic))
                    }
                    Err(e) => {
                        let why = format!("{e}; searching by words only");
                        note(why.clone());
                        State::Unavailable(Some(why))
                    }
                };
            });
        if let Err(e) = spawned {
            let why = format!("cannot start embedding the subjects ({e}); searching by words");
            self.notes_push(why.clone());
            *lock(&self.state) = State::Unavailable(Some(why.clone()));
            return Ready::Words(Some(why));
        }
        Ready::Building(building(0, 0, started))
    }
}

impl Meaning {
    fn notes_push(&self, text: String) {
        lock(&self.notes).push(text);
    }
}

#[allow(clippy::cast_precision_loss)] // an estimate for a person
fn building(done: usize, total: usize, started: Instant) -> String {
    if done == 0 {
        return "Searched by words only: the index of meanings is being built.".to_owned();
    }
    let left = started.elapsed().as_secs_f64() / done as f64 * (total - done) as f64;
    let left = if left < 90.0 {
        format!("{} s", left.ceil())
    } else {
        format!("{} min", (left / 60.0).ceil())
    };
    format!(
        "Searched by words only: the index of meanings is being built ({done} of {total} parts, about {left} left)."
    )
}

/// A poisoned lock still holds a whole value: each is replaced whole.
fn lock<T>(state: &Mutex<T>) -> MutexGuard<'_, T> {
    match state.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}
