//! Which model a search by meaning uses: `--model`, else `kb.search.model`
//! set by the person, else the model `jp-kb model fetch` installed.
//!
//! A model is input, not code, but it costs CPU and memory, and a
//! repository chooses it: so a `kb.search.model` that only the
//! repository's own layers set (`.jp/`, `.jp.toml`, what they `extends`)
//! is never used by default. The person names it to use it: `--model DIR`
//! for one search, or `kb.search.model` in their own configuration (the
//! user-workspace or user-global layer, or `--cfg`). No prompt, no stored
//! approval: nothing new to keep, and nothing a repository can forge.

use std::path::{Path, PathBuf};

use crate::KnowledgeBase;
use crate::config::LayerKind;
use crate::config::origin::{Origin, Valued};

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

/// The model to use: `given` (`--model`), else `kb.search.model` when the
/// person set it, else the default model if it was fetched (`None`: no
/// model, lexical search); and a note when the repository names a model
/// that is therefore not used.
pub fn choose_model(
    kb: &KnowledgeBase,
    given: Option<&Path>,
) -> (Option<ModelChoice>, Option<String>) {
    if let Some(dir) = given {
        return (Some(ModelChoice::Given(dir.to_owned())), None);
    }
    let loaded = &kb.loaded;
    let mut note = None;
    if let Some(valued) = &loaded.kb.search_model {
        if persons(kb, &valued.origin) {
            let choice = ModelChoice::Configured(model_dir(valued), valued.origin.to_string());
            return (Some(choice), None);
        }
        let yours = loaded.user_workspace_dir.as_ref().map_or_else(
            || "your own configuration".to_owned(),
            |dir| dir.join("kb.toml").display().to_string(),
        );
        note = Some(format!(
            "{} names the model {} (kb.search.model), which jp-kb runs only when you name it too: give --model {}, or set kb.search.model in {yours}",
            valued.origin,
            model_dir(valued).display(),
            model_dir(valued).display(),
        ));
        // A model the person set in a layer the repository's overrides.
        let own = loaded.files.iter().rev().find_map(|file| {
            let valued = file.partial.search_model.as_ref()?;
            persons(kb, &valued.origin)
                .then(|| ModelChoice::Configured(model_dir(valued), valued.origin.to_string()))
        });
        if own.is_some() {
            return (own, note);
        }
    }
    let fetched = models_dir()
        .map(|dir| dir.join(DEFAULT_MODEL))
        .filter(|dir| dir.join("model.safetensors").is_file())
        .map(ModelChoice::Fetched);
    (fetched, note)
}

/// Whether a value was set by the person: on the command line, or in a
/// user layer (not by the repository's layers or what they extend).
fn persons(kb: &KnowledgeBase, origin: &Origin) -> bool {
    match origin {
        Origin::File { path, .. } => kb.loaded.files.iter().any(|f| {
            &f.path == path
                && matches!(
                    f.kind,
                    LayerKind::UserGlobal | LayerKind::UserWorkspace | LayerKind::Cfg
                )
        }),
        Origin::Cfg(_) => true,
        _ => false,
    }
}

/// `kb.search.model`'s directory: a relative path is relative to the
/// directory of the file that sets it (a `--cfg` value: to the working
/// directory).
fn model_dir(valued: &Valued<String>) -> PathBuf {
    let written = Path::new(&valued.value);
    match valued.origin.path().and_then(Path::parent) {
        Some(dir) if written.is_relative() => dir.join(written),
        _ => written.to_owned(),
    }
}
