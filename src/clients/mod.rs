//! What each assistant client needs to receive jp-kb exactly (contract
//! §8): the files `jp-kb connect` writes and `jp-kb sync` keeps current.

pub mod connect;
pub mod generated;
pub mod json_merge;
pub mod sync;
pub mod toml_merge;
