//! Semantic search (contract §10): sentence embeddings of each subject's
//! chunks, made by a local model ([`jp_kb_embed::Model`]) and kept in the
//! user's cache beside the lexical index, ranked by cosine similarity to
//! the query and fused with the lexical ranking.
//!
//! The same rules as the lexical index: only the subjects of enabled topics
//! that are not disabled are embedded ([`super::read::targets`]), each read
//! through the workspace's guarded open; hidden subjects come back only
//! when the request asks for them (the CLI marks them, MCP never shows
//! them); damage to the saved vectors is a note and a rebuild.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use jp_kb_embed::{Checkpoint, Model, ModelError, Source, Update, Vectors, VectorsError};

pub use super::semantic_model::{DEFAULT_MODEL, ModelChoice, choose_model, models_dir};
use crate::KnowledgeBase;
use crate::content::{Content, Root, read_content};
use crate::frontmatter::is_markdown;

/// The vectors file in a workspace's index directory.
pub const EMBEDDINGS_FILE: &str = "embeddings.bin";

/// A workspace's embeddings and the model that made them, kept between
/// searches (the MCP server, the TUI) or for one (the CLI).
#[derive(Debug)]
pub struct Semantic {
    state: State,
    /// Where the vectors are saved (`None`: memory only).
    path: Option<PathBuf>,
    model_dir: PathBuf,
    notes: Vec<String>,
}

/// The model and vectors, or the thread still loading them.
#[derive(Debug)]
enum State {
    Ready(Box<Loaded>),
    Loading(std::thread::JoinHandle<Result<Loaded, ModelError>>),
    /// Only while a thread's answer is taken (or no thread could start).
    Gone,
}

/// A loaded model, its saved vectors, and a query embedded while loading.
#[derive(Debug)]
struct Loaded {
    model: Model,
    vectors: Vectors,
    notes: Vec<String>,
    query: Option<(String, Vec<f32>)>,
}

impl Semantic {
    /// Loads the model in `model_dir` and the vectors saved in `index_dir`
    /// (the lexical index's directory; `None`: kept in memory only).
    pub fn open(model_dir: &Path, index_dir: Option<&Path>) -> Result<Self, ModelError> {
        Ok(Self::with_model(Model::load(model_dir)?, index_dir))
    }

    /// [`Semantic::open`] with the model loaded already.
    pub fn with_model(model: Model, index_dir: Option<&Path>) -> Self {
        let path = index_dir.map(|d| d.join(EMBEDDINGS_FILE));
        let model_dir = model.dir().to_owned();
        let loaded = load(model, path.as_deref(), None);
        Self {
            state: State::Ready(Box::new(loaded)),
            path,
            model_dir,
            notes: Vec::new(),
        }
    }

    /// [`Semantic::open`] on another thread, which also embeds `query`: a
    /// one-off search ranks by words meanwhile. The model's errors come at
    /// the first use.
    pub fn open_in_background(model_dir: &Path, index_dir: Option<&Path>, query: &str) -> Self {
        let path = index_dir.map(|d| d.join(EMBEDDINGS_FILE));
        let (dir, saved, query) = (model_dir.to_owned(), path.clone(), query.to_owned());
        let state = match std::thread::Builder::new()
            .name("jp-kb-model".to_owned())
            .spawn(move || {
                let model = Model::load(&dir)?;
                let mut loaded = load(model, saved.as_deref(), None);
                let vector = loaded.model.embed_query(&query)?;
                loaded.query = Some((query, vector));
                Ok(loaded)
            }) {
            Ok(handle) => State::Loading(handle),
            // No thread to be had: loaded here, at the first use.
            Err(_) => State::Gone,
        };
        Self {
            state,
            path,
            model_dir: model_dir.to_owned(),
            notes: Vec::new(),
        }
    }

    /// The model and vectors, waiting for the loading thread if needed.
    fn loaded(&mut self) -> Result<&mut Loaded, ModelError> {
        if !matches!(self.state, State::Ready(_)) {
            let loaded = match std::mem::replace(&mut self.state, State::Gone) {
                State::Loading(handle) => handle.join().unwrap_or_else(|_| {
                    Err(ModelError::Run {
                        dir: self.model_dir.clone(),
                        why: "the thread loading the model panicked".to_owned(),
                    })
                }),
                _ => Model::load(&self.model_dir).map(|m| load(m, self.path.as_deref(), None)),
            }?;
            self.state = State::Ready(Box::new(loaded));
        }
        match &mut self.state {
            State::Ready(loaded) => {
                self.notes.append(&mut loaded.notes);
                Ok(&mut **loaded)
            }
            _ => Err(ModelError::Run {
                dir: self.model_dir.clone(),
                why: "the model is not loaded".to_owned(),
            }),
        }
    }

    /// The model's directory.
    pub fn model_dir(&self) -> &Path {
        &self.model_dir
    }

    /// Subjects (files) embedded (0 while loading).
    pub fn len(&self) -> usize {
        match &self.state {
            State::Ready(loaded) => loaded.vectors.len(),
            _ => 0,
        }
    }

    /// Nothing embedded yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Notes for the user since the last call (damage, a failed save).
    pub fn take_notes(&mut self) -> Vec<String> {
        if let State::Ready(loaded) = &mut self.state {
            self.notes.append(&mut loaded.notes);
        }
        std::mem::take(&mut self.notes)
    }

    /// Brings the vectors up to date with `kb`'s files (only the new and
    /// changed ones are read and embedded; with `topic`, a topic's id,
    /// only that topic's) and saves them when anything changed, and every
    /// few seconds while embedding (a first build killed halfway keeps
    /// what it made). `progress(done, total)` counts the chunks to embed.
    pub fn refresh(
        &mut self,
        kb: &KnowledgeBase,
        topic: Option<&str>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Update, ModelError> {
        let targets = super::read::targets(kb);
        let scope: Option<HashSet<&Path>> = topic.map(|id| {
            kb.enabled_topics()
                .filter(|t| t.id() == id)
                .filter_map(|t| t.resolution())
                .flat_map(|r| r.subjects().iter().map(crate::subjects::Subject::path))
                .collect()
        });
        let sources: Vec<Source<'_>> = targets
            .iter()
            .map(|t| Source {
                key: t.stamp.key(),
                slug: t.subject.slug(),
                markdown: is_markdown(t.subject.extension()),
                bytes: t.subject.bytes,
                modified: t.subject.modified,
                in_scope: scope.as_ref().is_none_or(|s| s.contains(t.subject.path())),
            })
            .collect();
        let by_key: std::collections::HashMap<&str, &super::read::Target<'_>> =
            targets.iter().map(|t| (t.stamp.key(), t)).collect();
        let root = Root::new(kb.root());
        let read = |s: &Source<'_>| {
            let t = by_key.get(s.key)?;
            match read_content(&root, t.subject.path()) {
                Content::Text(text) => Some(text),
                Content::Skipped(_) => None,
            }
        };
        let path = self.path.clone();
        let mut failed = None;
        let checkpoint = |done: Checkpoint<'_>| {
            if let (Some(path), None) = (&path, &failed) {
                failed = done.save(path).err();
            }
        };
        let loaded = self.loaded()?;
        let update = loaded
            .vectors
            .update(&sources, read, &loaded.model, progress, checkpoint)?;
        let failed = match (&path, update.changed()) {
            (Some(path), true) => loaded.vectors.save(path).err(),
            _ => failed,
        };
        if let (Some(path), Some(e)) = (&path, failed) {
            self.notes.push(format!(
                "cannot save the embeddings to {} ({e}); the next search embeds again",
                path.display()
            ));
        }
        Ok(update)
    }

    /// The files closest in meaning to `query`, best first: (key, cosine).
    pub fn rank(&mut self, query: &str) -> Result<Vec<(String, f32)>, ModelError> {
        let loaded = self.loaded()?;
        let vector = match loaded.query.take() {
            Some((embedded, vector)) if embedded == query => vector,
            _ => loaded.model.embed(&[query])?.pop().unwrap_or_default(),
        };
        Ok(loaded
            .vectors
            .search(&vector)
            .into_iter()
            .map(|s| (s.key, s.score))
            .collect())
    }
}

/// `model` and the vectors saved at `path` (damaged ones: a note, and
/// none).
fn load(model: Model, path: Option<&Path>, query: Option<(String, Vec<f32>)>) -> Loaded {
    let mut notes = Vec::new();
    let vectors = match path.map(|p| (p, Vectors::load(p, &model))) {
        None => Vectors::empty(&model),
        Some((_, Ok(vectors))) => vectors,
        Some((_, Err(VectorsError::Io(e)))) if e.kind() == std::io::ErrorKind::NotFound => {
            Vectors::empty(&model)
        }
        Some((path, Err(why))) => {
            notes.push(format!(
                "the embeddings {} were {why}; embedding every subject again",
                path.display()
            ));
            Vectors::empty(&model)
        }
    };
    Loaded {
        model,
        vectors,
        notes,
        query,
    }
}
