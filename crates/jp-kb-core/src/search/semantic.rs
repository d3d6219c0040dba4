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

use jp_kb_embed::{Model, ModelError, Source, Update, Vectors, VectorsError};

use crate::KnowledgeBase;
use crate::content::{Content, Root, read_content};
use crate::frontmatter::is_markdown;

/// The vectors file in a workspace's index directory.
pub const EMBEDDINGS_FILE: &str = "embeddings.bin";

/// A subject's embeddings and the model that made them, kept between
/// searches (the MCP server, the TUI) or for one (the CLI).
#[derive(Debug)]
pub struct Semantic {
    model: Model,
    vectors: Vectors,
    /// Where the vectors are saved (`None`: memory only).
    path: Option<PathBuf>,
    notes: Vec<String>,
}

impl Semantic {
    /// Loads the model in `model_dir` and the vectors saved in `index_dir`
    /// (the lexical index's directory; `None`: kept in memory only).
    pub fn open(model_dir: &Path, index_dir: Option<&Path>) -> Result<Self, ModelError> {
        let model = Model::load(model_dir)?;
        let path = index_dir.map(|d| d.join(EMBEDDINGS_FILE));
        let mut notes = Vec::new();
        let vectors = match path.as_deref().map(|p| (p, Vectors::load(p, &model))) {
            None => Vectors::empty(&model),
            Some((_, Ok(vectors))) => vectors,
            Some((_, Err(VectorsError::Io(e)))) if e.kind() == std::io::ErrorKind::NotFound => {
                Vectors::empty(&model)
            }
            Some((p, Err(why))) => {
                notes.push(format!(
                    "the embeddings {} were {why}; embedding every subject again",
                    p.display()
                ));
                Vectors::empty(&model)
            }
        };
        Ok(Self {
            model,
            vectors,
            path,
            notes,
        })
    }

    /// The model's directory.
    pub fn model_dir(&self) -> &Path {
        self.model.dir()
    }

    /// Subjects (files) embedded.
    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    /// Nothing embedded yet.
    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// Notes for the user since the last call (damage, a failed save).
    pub fn take_notes(&mut self) -> Vec<String> {
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
        let update = self.vectors.update(&sources, read, &self.model, progress)?;
        if update.changed()
            && let Some(path) = &self.path
            && let Err(e) = self.vectors.save(path)
        {
            self.notes.push(format!(
                "cannot save the embeddings to {} ({e}); the next search embeds again",
                path.display()
            ));
        }
        Ok(update)
    }

    /// The files closest in meaning to `query`, best first: (key, cosine).
    pub fn rank(&self, query: &str) -> Result<Vec<(String, f32)>, ModelError> {
        let vector = self.model.embed(&[query])?.pop().unwrap_or_default();
        Ok(self
            .vectors
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
