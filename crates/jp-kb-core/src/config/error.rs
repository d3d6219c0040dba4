//! Errors of configuration loading. Each names the file (and line) or the
//! argument it is about; the binary maps them to messages and exit codes.

use std::path::PathBuf;

use super::origin::Origin;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "no JP workspace found from {start} upwards (a workspace is a directory containing `.jp/`); pass --workspace DIR, or run `jp-kb init`"
    )]
    NoWorkspace { start: PathBuf },

    #[error("workspace directory {path} does not exist or is not a directory")]
    BadWorkspace { path: PathBuf },

    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{path}:{line}:{column}: invalid {format}: {message}")]
    Parse {
        path: PathBuf,
        line: u32,
        column: u32,
        format: &'static str,
        message: String,
    },

    #[error("{origin}: `{key}` must be {expected}, found {found}")]
    WrongType {
        origin: Origin,
        key: String,
        expected: &'static str,
        found: &'static str,
    },

    #[error("{origin}: `{key}` has invalid value {value:?}: {reason}")]
    BadValue {
        origin: Origin,
        key: String,
        value: String,
        reason: String,
    },

    #[error("`extends` cycle: {}", chain.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    ExtendsCycle { chain: Vec<PathBuf> },

    #[error("{origin}: `extends` names {path}, which does not exist")]
    ExtendsMissing { origin: Origin, path: PathBuf },

    #[error("{0}")]
    Usage(String),
}

impl ConfigError {
    /// Usage errors (a malformed `--cfg` or `-k`) exit with status 2;
    /// everything else is a runtime error (status 1).
    pub fn is_usage(&self) -> bool {
        matches!(self, ConfigError::Usage(_))
    }
}
