//! Why a configuration path is not trusted ([`super::trust`]): plain data,
//! a leaf, so that [`super::error::ConfigError`] can carry it while the
//! trust check itself builds that error.

use std::path::PathBuf;

/// Why a path is not trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Distrust {
    /// Owned by another user.
    OwnedBy {
        /// The owner's user id.
        uid: u32,
    },
    /// Every user may write it.
    WritableByAll,
    /// Its directory is another user's, or lets every user replace it.
    Directory {
        /// The directory.
        dir: PathBuf,
        /// What is wrong with it.
        why: Box<Distrust>,
    },
}

impl std::fmt::Display for Distrust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Distrust::OwnedBy { uid } => write!(f, "it is owned by another user (uid {uid})"),
            Distrust::WritableByAll => f.write_str("every user may write it"),
            Distrust::Directory { dir, why } => {
                let why = why.to_string();
                let why = why.strip_prefix("it ").unwrap_or(&why);
                write!(
                    f,
                    "its directory {} {why}, so it could be replaced",
                    crate::display::escape_name(&dir.to_string_lossy())
                )
            }
        }
    }
}
