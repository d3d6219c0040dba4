//! Which model a search by meaning uses: `--model`, else `kb.search.model`,
//! else the model `jp-kb model fetch` installed.

use std::path::{Path, PathBuf};

use crate::KnowledgeBase;

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
