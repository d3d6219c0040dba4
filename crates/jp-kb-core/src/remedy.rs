//! What fixes a finding, as data: the core words it in plain language
//! (its [`Remedy::phrase`], part of the finding's hint), and a front end
//! that has a command for it puts its own words in that phrase's place
//! (the `jp-kb` binary says which of its commands). JP has none of
//! jp-kb's commands, so no core message names one.

use std::path::PathBuf;

/// An action that fixes a finding, which a front end may offer as one of
/// its own commands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Remedy {
    /// Work inside a JP workspace, or create one.
    CreateWorkspace,
    /// Use `--cfg` and `-k` in the forms they accept.
    OverrideForms,
    /// List every subject of a topic, hidden ones included.
    ListEverySlug {
        /// The topic's id.
        topic: String,
    },
    /// Move the `kb` table out of a file JP loads.
    MoveKbTable {
        /// Where it goes (relative to the workspace root when inside it).
        to: PathBuf,
    },
    /// Regenerate the generated client files from the knowledge base.
    Regenerate,
    /// Set up what a client needs (its generated files and entries).
    Connect {
        /// The client's id (`jp`, `claude-code`, `codex`).
        client: String,
    },
    /// Set up what a client needs again, from this workspace.
    ConnectHere {
        /// The client's id.
        client: String,
    },
    /// Trust a directory's configuration whoever owns it.
    TrustDirectory {
        /// The directory.
        dir: PathBuf,
    },
}

impl Remedy {
    /// The remedy in plain words, as the core's hint says it: a front end
    /// replaces this part of [`crate::check::Finding::hint`] by its own.
    pub fn phrase(&self) -> String {
        match self {
            Remedy::CreateWorkspace => {
                "work inside a JP workspace (a directory holding `.jp/`), or create one".to_owned()
            }
            Remedy::OverrideForms => "`--cfg` takes `key=value`, `key+=item`, `key:=JSON`, a \
                                      file or a config name; `-k` takes `TOPIC/GLOB`"
                .to_owned(),
            Remedy::ListEverySlug { topic } => {
                format!("the listing of `{topic}` with hidden subjects shows every slug")
            }
            Remedy::MoveKbTable { to } => format!("move the table to {}", to.display()),
            Remedy::Regenerate => "regenerate the generated files".to_owned(),
            Remedy::Connect { client } => format!("setting up {client} again"),
            Remedy::ConnectHere { client } => format!("set up {client} again in this workspace"),
            Remedy::TrustDirectory { dir } => format!(
                "if you trust whoever can write it, list {} as a safe directory",
                dir.display()
            ),
        }
    }
}
