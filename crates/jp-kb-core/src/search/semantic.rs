//! Semantic search (contract §10): sentence embeddings of each subject's
//! chunks, made by a local model ([`jp_kb_embed::Model`]) and kept in the
//! user's cache beside the lexical index, ranked by cosine similarity to
//! the query and fused with the lexical ranking.
//!
//! The same rules as the lexical index: only the subjects of enabled topics
//! that are not disabled are embedded ([`super::targets`]), each read
//! through the workspace's guarded open; hidden subjects come back only
//! when the request asks for them (the CLI marks them, MCP never shows
//! them); damage to the saved vectors is a note and a rebuild.

use std::path::{Path, PathBuf};

use jp_kb_embed::{ModelError, Source, Update};

pub use super::semantic_load::Resident;
use super::semantic_load::{Loaded, load};
use crate::KnowledgeBase;
use crate::content::{Content, Root, read_content};
use crate::frontmatter::is_markdown;

/// Files ranked by meaning, best first: (key, cosine); and whether every
/// file is in it.
pub type Ranking = (Vec<(String, f32)>, bool);

/// The vectors file in a workspace's index directory.
pub const EMBEDDINGS_FILE: &str = "embeddings.bin";

/// A subject's embeddings and the model that made them, kept between
/// searches (the MCP server, the TUI) or for one (the CLI).
#[derive(Debug)]
pub struct Semantic {
    state: State,
    /// Where the vectors are saved (`None`: memory only).
    path: Option<PathBuf>,
    model_dir: PathBuf,
    notes: Vec<String>,
    /// Opened for one search (the CLI): its query reads only the weights
    /// it uses. A process that stays up reads the whole encoder at once.
    one_off: bool,
}

/// The model and vectors, or the thread still loading them.
#[derive(Debug)]
enum State {
    Ready(Box<Loaded>),
    Loading(std::thread::JoinHandle<Result<Loaded, ModelError>>),
    /// Only while a thread's answer is taken (or its thread died).
    Gone,
}

impl Semantic {
    /// Loads the model in `model_dir` and the vectors saved in `index_dir`
    /// (the lexical index's directory; `None`: kept in memory only).
    pub fn open(model_dir: &Path, index_dir: Option<&Path>) -> Result<Self, ModelError> {
        let path = index_dir.map(|d| d.join(EMBEDDINGS_FILE));
        let loaded = load(model_dir, path.as_deref(), None, None, true)?;
        Ok(Self {
            state: State::Ready(Box::new(loaded)),
            path,
            model_dir: model_dir.to_owned(),
            notes: Vec::new(),
            one_off: false,
        })
    }

    /// [`Semantic::open`] on another thread, which also embeds `query`:
    /// a one-off search ranks by words meanwhile (the model's files and
    /// the query's forward pass are most of a search by meaning as a
    /// process). The query is embedded by the model's server in
    /// `resident` when one is up for this model, else here
    /// ([`Semantic::server_missed`] then says so). The model's errors come
    /// at the first use.
    pub fn open_in_background(
        model_dir: &Path,
        index_dir: Option<&Path>,
        query: &str,
        resident: Option<Resident>,
    ) -> Self {
        let path = index_dir.map(|d| d.join(EMBEDDINGS_FILE));
        let (dir, saved, query) = (model_dir.to_owned(), path.clone(), query.to_owned());
        let state = match std::thread::Builder::new()
            .name("jp-kb-model".to_owned())
            .spawn(move || {
                load(
                    &dir,
                    saved.as_deref(),
                    Some(query),
                    resident.as_ref(),
                    false,
                )
            }) {
            Ok(handle) => State::Loading(handle),
            // No thread to be had: load here, at the first use.
            Err(_) => State::Gone,
        };
        Self {
            state,
            path,
            model_dir: model_dir.to_owned(),
            notes: Vec::new(),
            one_off: true,
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
                _ => load(&self.model_dir, self.path.as_deref(), None, None, false),
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

    /// Whether the query given to [`Semantic::open_in_background`] was
    /// embedded here because no model server was up for the model (and
    /// the model itself works): starting one speeds up the next search.
    pub fn server_missed(&self) -> bool {
        matches!(&self.state, State::Ready(loaded) if loaded.server_missed)
    }

    /// The model's directory.
    pub fn model_dir(&self) -> &Path {
        &self.model_dir
    }

    /// Subjects (files) embedded (0 while loading, or before the saved
    /// vectors are needed).
    pub fn len(&self) -> usize {
        match &self.state {
            State::Ready(loaded) => loaded.vectors.as_ref().map_or(0, jp_kb_embed::Vectors::len),
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
    /// changed ones are read and embedded) and saves them when anything
    /// changed. `progress(done, total)` counts the chunks to embed.
    pub fn refresh(
        &mut self,
        kb: &KnowledgeBase,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Update, ModelError> {
        let targets = super::read::targets(kb);
        let sources: Vec<Source<'_>> = targets
            .iter()
            .map(|t| Source {
                key: t.stamp.key(),
                slug: t.subject.slug(),
                markdown: is_markdown(t.subject.extension()),
                bytes: t.subject.bytes,
                modified: t.subject.modified,
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
        let loaded = self.loaded()?;
        loaded.refreshed = false;
        let (model, vectors) = loaded.model_and_vectors(path.as_deref())?;
        let update = vectors.update(&sources, read, model, progress)?;
        let saved = loaded.vectors.as_ref().filter(|_| update.changed());
        let unsaved = match (&path, saved) {
            (Some(path), Some(vectors)) => match vectors.save(path) {
                Ok(file) => {
                    loaded.file = Some(file);
                    None
                }
                Err(e) => {
                    loaded.file = None;
                    Some(e)
                }
            },
            _ => None,
        };
        loaded.refreshed = unsaved.is_none() && loaded.file.is_some();
        if let (Some(e), Some(path)) = (unsaved, &path) {
            self.notes.push(format!(
                "cannot save the embeddings to {} ({e}); the next search embeds again",
                path.display()
            ));
        }
        Ok(update)
    }

    /// Records, beside the saved vectors, that the last [`Semantic::refresh`]
    /// brought them up to date with the files of a lexical index whose
    /// digest is `digest` (the index refreshed in the same search), for
    /// [`Semantic::rank_synced`] in the next process. Written once for a
    /// vectors file and digest.
    pub fn mark_synced(&mut self, digest: u64) {
        #[cfg(unix)]
        if let (State::Ready(loaded), Some(dir)) =
            (&mut self.state, self.path.as_deref().and_then(Path::parent))
            && loaded.refreshed
            && let Some(file) = &loaded.file
        {
            // Once per file and digest: a process that stays up (MCP, the
            // TUI) refreshes at every search, mostly changing nothing.
            let mark = (jp_kb_embed::resident::file_identity(file), digest);
            if loaded.marked != Some(mark) {
                super::vectors_synced::record(dir, file, digest);
                loaded.marked = Some(mark);
            }
        }
        #[cfg(not(unix))]
        let _ = digest;
    }

    /// [`Semantic::rank`] when the saved vectors are known to be up to
    /// date with the files of a lexical index whose digest is `digest`
    /// (see [`Semantic::mark_synced`]), so that no refresh is needed, and
    /// whether every file is ranked (a model server gives its best ones);
    /// `None` otherwise (the caller refreshes, then ranks). A process that
    /// searches once has the server rank them, or scores the saved file as
    /// it reads it.
    pub fn rank_synced(&mut self, query: &str, digest: u64) -> Result<Option<Ranking>, ModelError> {
        let (one_off, path) = (self.one_off, self.path.clone());
        let loaded = self.loaded()?;
        let vector = loaded.query_vector(query, one_off)?;
        Ok(loaded
            .rank_synced(path.as_deref(), &vector, digest)
            .map(|(scored, complete)| {
                let ranked = scored.into_iter().map(|s| (s.key, s.score)).collect();
                (ranked, complete)
            }))
    }

    /// The files closest in meaning to `query`, best first: (key, cosine).
    pub fn rank(&mut self, query: &str) -> Result<Vec<(String, f32)>, ModelError> {
        let (one_off, path) = (self.one_off, self.path.clone());
        let loaded = self.loaded()?;
        // Loaded first: the query's vector is then checked against it.
        loaded.model()?;
        let vector = loaded.query_vector(query, one_off)?;
        Ok(loaded
            .vectors(path.as_deref())?
            .search(&vector)
            .into_iter()
            .map(|s| (s.key, s.score))
            .collect())
    }
}

/// The model `jp-kb model fetch` installs by default, and the one search
/// uses when none is configured and it was fetched.
pub const DEFAULT_MODEL: &str = "all-minilm-l6-v2";

/// Where `jp-kb model fetch` puts models: `jp-kb/models` in the
/// platform's data directory (`$XDG_DATA_HOME`, else `~/.local/share`).
pub fn models_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(dirs::data_dir)
        .map(|d| d.join("jp-kb").join("models"))
}

/// The model a search uses, and who chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelChoice {
    /// `--model DIR`.
    Given(PathBuf),
    /// `kb.search.model` (resolved against its file), where it was set.
    Configured(PathBuf, String),
    /// The default model, fetched with `jp-kb model fetch`.
    Fetched(PathBuf),
}

impl ModelChoice {
    /// The model's directory.
    pub fn dir(&self) -> &Path {
        match self {
            Self::Given(dir) | Self::Configured(dir, _) | Self::Fetched(dir) => dir,
        }
    }

    /// Whether a person named this model for this search or workspace
    /// (then a model that fails to load is an error, not a fallback).
    pub fn named(&self) -> bool {
        !matches!(self, Self::Fetched(_))
    }
}

/// The model to use: `given` (`--model`), else `kb.search.model`, else the
/// default model if it was fetched; `None`: no model, lexical search.
pub fn choose_model(kb: &KnowledgeBase, given: Option<&Path>) -> Option<ModelChoice> {
    if let Some(dir) = given {
        return Some(ModelChoice::Given(dir.to_owned()));
    }
    let config = &kb.loaded.kb;
    if let (Some(dir), Some(valued)) = (config.search_model_dir(), &config.search_model) {
        return Some(ModelChoice::Configured(dir, valued.origin.to_string()));
    }
    let fetched = models_dir()?.join(DEFAULT_MODEL);
    fetched
        .join("model.safetensors")
        .is_file()
        .then_some(ModelChoice::Fetched(fetched))
}
