//! What each assistant client needs to receive jp-kb exactly (contract
//! §8): the files `jp-kb connect` writes and `jp-kb sync` keeps current,
//! and what each client's model receives of jp-kb's texts.

pub mod arrival;
pub mod carry_out;
pub mod connect;
pub mod cut;
mod error;
pub mod generated;
pub mod imports;
pub mod jp;
pub mod json_merge;
pub mod profile;
pub mod setup;
pub mod sync;
pub mod toml_merge;

pub use error::ClientError;
