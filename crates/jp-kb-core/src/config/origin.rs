//! Where an effective configuration value came from.
//!
//! Every value the engine uses remembers its origin so the CLI, the TUI and
//! `jp-kb check` can say *why* the assistant sees what it sees.

use std::fmt;
use std::path::{Path, PathBuf};

/// Whether jp-kb may edit the configuration file at `path`: a `.toml`
/// file. JSON and YAML layers are read-only (jp-kb writes TOML only), and
/// a file without an extension, although read as TOML, is never written.
/// The one home of this rule: the planner, `check`, `migrate` and the
/// CLI's `--file` all ask it.
pub fn is_editable_toml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
}

/// The source of one configuration value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// A configuration file, with the 1-based line of the value when known
    /// (TOML files always know it; JSON and YAML layers do not).
    File {
        /// The file.
        path: PathBuf,
        /// The value's 1-based line, when known.
        line: Option<u32>,
    },
    /// A `--cfg` argument, as written on the command line.
    Cfg(String),
    /// A `-k`/`--knowledge` argument, as written on the command line.
    Knowledge(String),
    /// The configuration a host program merged itself and handed in
    /// ([`crate::KnowledgeBase::from_topics`]: JP's own `kb` tables, say).
    /// The core does not know which of the host's files set the value.
    Host,
}

impl Origin {
    /// The file this value came from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Origin::File { path, .. } => Some(path),
            Origin::Cfg(_) | Origin::Knowledge(_) | Origin::Host => None,
        }
    }

    /// The file this value came from when jp-kb may edit it there (see
    /// [`is_editable_toml`]); command-line
    /// values and JSON/YAML layers cannot be edited.
    pub fn editable_file(&self) -> Option<&Path> {
        self.path().filter(|p| is_editable_toml(p))
    }

    /// The 1-based line, if the value came from a file and the line is known.
    pub fn line(&self) -> Option<u32> {
        match self {
            Origin::File { line, .. } => *line,
            Origin::Cfg(_) | Origin::Knowledge(_) | Origin::Host => None,
        }
    }

    /// The same origin with its file relative to `root` when inside it
    /// (what a message shows: `.jp/kb.toml:7`).
    #[must_use]
    pub fn relative_to(&self, root: &Path) -> Origin {
        match self {
            Origin::File { path, line } => Origin::File {
                path: path.strip_prefix(root).unwrap_or(path).to_path_buf(),
                line: *line,
            },
            other => other.clone(),
        }
    }

    /// Renders the origin with file paths shown relative to `root` when they
    /// lie inside it (`.jp/config.toml:7`, `--cfg kb.topic.x.learned+=a`).
    pub fn display_relative(&self, root: &Path) -> String {
        match self {
            Origin::File { path, line } => {
                let shown = path.strip_prefix(root).unwrap_or(path);
                match line {
                    Some(line) => format!("{}:{line}", shown.display()),
                    None => shown.display().to_string(),
                }
            }
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File {
                path,
                line: Some(line),
            } => write!(f, "{}:{line}", path.display()),
            Origin::File { path, line: None } => write!(f, "{}", path.display()),
            Origin::Cfg(arg) => write!(f, "--cfg {arg}"),
            Origin::Knowledge(arg) => write!(f, "-k {arg}"),
            Origin::Host => f.write_str("the host's configuration"),
        }
    }
}

/// A value together with the place it was set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Valued<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Valued<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Self { value, origin }
    }
}
