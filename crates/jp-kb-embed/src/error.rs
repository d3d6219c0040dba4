//! Why a model cannot be loaded or run: shared by the model, its weights
//! and the vectors it made.

use std::path::PathBuf;

/// A model that cannot be loaded or run, naming the file and what to do.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A file of the model directory cannot be read.
    #[error(
        "cannot read {path} ({source}): a model directory holds config.json, tokenizer.json and model.safetensors (`jp-kb model fetch all-minilm-l6-v2` writes one)"
    )]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file of the model directory is not what it should be.
    #[error("{path} is not a usable model file: {why}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The model failed while embedding.
    #[error("the model in {dir} failed to embed a text: {why}")]
    Run {
        /// The model directory.
        dir: PathBuf,
        /// What failed.
        why: String,
    },
}

impl ModelError {
    /// Whether the model could not be loaded (its files missing or not
    /// usable), rather than failing on a text.
    pub fn is_loading(&self) -> bool {
        matches!(self, Self::Read { .. } | Self::Invalid { .. })
    }
}
