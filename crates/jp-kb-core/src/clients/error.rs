//! Why a client's files cannot be planned, read or written. Each error
//! names the file it is about; nothing is written when one occurs.

use std::path::PathBuf;

use crate::edit::WriteError;

/// Why `connect`, `sync` or reading a client's setup stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// No profile has this id.
    #[error("unknown client `{id}` (known clients: {})", known.join(", "))]
    UnknownClient {
        /// The id asked for.
        id: String,
        /// The ids that have a profile.
        known: Vec<String>,
    },
    /// An embedded profile (`assets/clients/NAME.toml`) does not parse: a
    /// build that a test catches.
    #[error("assets/clients/{file}: {message}")]
    Profile {
        /// The profile's file name.
        file: String,
        /// What is wrong in it.
        message: String,
    },
    /// A client file cannot be read: it leads out of the workspace, is
    /// not a regular file, or is too large.
    #[error(transparent)]
    Read(#[from] WriteError),
    /// A client file is not UTF-8.
    #[error("{}: not valid UTF-8", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A client file does not parse (JSON, TOML or YAML).
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line the parser names, when it does.
        line: Option<usize>,
        /// The parser's message.
        message: String,
    },
    /// jp-kb's entry cannot be merged into a file the person owns; the
    /// file is left as it is.
    #[error("{}: {message}; not written (fix the file first)", path.display())]
    NotMerged {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// JP's configuration is JSON or YAML (read-only for jp-kb) and does
    /// not reach the generated layer.
    #[error(
        "{}: add `{layer}` to its `extends` so JP loads the generated layer \
         (jp-kb edits TOML only); nothing written",
        path.display()
    )]
    ExtendsNeeded {
        /// JP's configuration file.
        path: PathBuf,
        /// The generated layer, relative to that file's directory.
        layer: String,
    },
}
