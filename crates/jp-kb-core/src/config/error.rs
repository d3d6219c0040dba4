//! Errors of configuration loading. Each names the file (and line) or the
//! argument it is about; the binary maps them to messages and exit codes.

use std::path::PathBuf;

use super::origin::Origin;
use super::override_error::OverrideError;

/// Why a workspace's configuration cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// No `.jp/` directory from `start` upwards. (A front end adds how it
    /// names another workspace or creates one.)
    #[error(
        "no JP workspace found from {start} upwards (a workspace is a directory containing `.jp/`)"
    )]
    NoWorkspace {
        /// The directory the search started from.
        start: PathBuf,
    },

    /// The workspace given does not exist or is not a directory.
    #[error("workspace directory {path} does not exist or is not a directory")]
    BadWorkspace {
        /// The directory given.
        path: PathBuf,
    },

    /// A workspace's `.jp/` or a configuration file another user could
    /// have written ([`super::trust`]): not used. (A front end adds how
    /// the person trusts it anyway.)
    #[error("{} is not used: {why}; only files you or root own configure your assistant", crate::display::escape_name(&path.to_string_lossy()))]
    Untrusted {
        /// The `.jp/` directory or the file.
        path: PathBuf,
        /// What is wrong with it.
        why: super::trust::Distrust,
    },

    /// A configuration file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },

    /// A configuration file does not parse.
    #[error("{path}:{line}:{column}: invalid {format}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: u32,
        /// 1-based column of the error.
        column: u32,
        /// What did not parse: `TOML`, `JSON`, `YAML`, or `UTF-8` (a file
        /// that is not text).
        format: &'static str,
        /// The parser's words.
        message: String,
    },

    /// A value has the wrong type.
    #[error("{origin}: `{key}` must be {expected}, found {found}")]
    WrongType {
        /// Where the value was set.
        origin: Origin,
        /// Its dotted key.
        key: String,
        /// The type it must have.
        expected: &'static str,
        /// The type it has.
        found: &'static str,
    },

    /// A value is not allowed.
    #[error("{origin}: `{key}` has invalid value {value:?}: {reason}")]
    BadValue {
        /// Where the value was set.
        origin: Origin,
        /// Its dotted key.
        key: String,
        /// The value.
        value: String,
        /// Why it is not allowed.
        reason: String,
    },

    /// `extends` leads back to a file already read.
    #[error("`extends` cycle: {}", chain.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    ExtendsCycle {
        /// The files in the order `extends` reached them, the first again
        /// last.
        chain: Vec<PathBuf>,
    },

    /// `extends` names a file that does not exist.
    #[error("{origin}: `extends` names {path}, which does not exist")]
    ExtendsMissing {
        /// Where the `extends` entry was set.
        origin: Origin,
        /// The file it names.
        path: PathBuf,
    },

    /// JP started the server for its workspace `id` from outside every
    /// checkout of it (`jp -w DIR`), and the checkout JP runs for cannot
    /// be told from JP's own files.
    #[error(
        "JP runs this server for its workspace id {id} from {cwd}, outside that workspace, and which checkout it runs for is unknown: {reason}"
    )]
    JpCheckoutUnknown {
        /// The workspace id (`.jp/.id`) the server was started for.
        id: String,
        /// JP's working directory.
        cwd: PathBuf,
        /// What is missing.
        reason: String,
    },

    /// A `--cfg` or `-k` value cannot be used.
    #[error(transparent)]
    Usage(OverrideError),
}

impl ConfigError {
    /// Usage errors (a malformed `--cfg` or `-k`) exit with status 2;
    /// everything else is a runtime error (status 1).
    pub fn is_usage(&self) -> bool {
        matches!(self, ConfigError::Usage(_))
    }
}
