//! Carrying a plan out: one symbolic link per adopted file in
//! `.jp/kb/<topic>/`, then `.jp/kb.toml`. Everything is checked before
//! anything is written (every place inside the workspace, nothing in the
//! way); links come first and the configuration last, so a run that
//! stops half-way leaves links nothing uses, and the next run finishes
//! it. Nothing is ever overwritten, nothing is written outside `.jp/`,
//! and a second run on the same files changes no byte.

use std::path::{Path, PathBuf};

use crate::config::workspace::{jp_dir, shadowed_by_creating};
use crate::edit::link::{AtLink, at_link, create_link, place_of_link, relative_target};
use crate::edit::target::workspace_file;
use crate::edit::write::{read_contained, write_atomic};
use crate::edit::{Boundaries, Place, WriteError};

use super::plan::Plan;
use super::text::kb_toml;

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// The configuration and `links` links were written (`kept` were
    /// already there).
    Written {
        /// Links made.
        links: usize,
        /// Links already there.
        kept: usize,
    },
    /// Everything was already as the plan says: nothing written.
    AlreadyAdopted,
    /// The configuration was as the plan says; `links` missing links
    /// were made again.
    Restored {
        /// Links made again.
        links: usize,
    },
}

/// Why a plan was not carried out. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum AdoptError {
    /// The configuration file exists with other text.
    #[error(
        "{} already exists and differs from what this plan would write; jp-kb init never \
         overwrites (a dry run shows the plan; add topics to the existing file instead)",
        .0.display()
    )]
    Exists(PathBuf),
    /// Creating the configuration file would hide a JSON/YAML file of the
    /// same layer.
    #[error(
        "{} exists; jp-kb init would create {} beside it, which would hide it: nothing created",
        hidden.display(),
        config.display()
    )]
    Shadowed {
        /// The JSON/YAML file the new one would hide.
        hidden: PathBuf,
        /// The configuration file not created.
        config: PathBuf,
    },
    /// Something else is where a link goes.
    #[error("{} is {what}, not the link jp-kb init makes there; nothing written (move it away)", path.display())]
    Occupied {
        /// Where the link goes.
        path: PathBuf,
        /// What is there instead.
        what: String,
    },
    /// A write failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// One link to make.
struct Link {
    place: Place,
    target: PathBuf,
}

/// Carries `plan` out in the workspace at `root`.
///
/// # Errors
/// See [`AdoptError`]; nothing is written when one is returned before the
/// first link (a failure while writing leaves only links).
pub fn apply(root: &Path, plan: &Plan) -> Result<Applied, AdoptError> {
    let config = workspace_file(root);
    if let Some(hidden) = shadowed_by_creating(&config) {
        return Err(AdoptError::Shadowed { hidden, config });
    }
    let bounds = Boundaries::new([root.to_path_buf()]);
    let text = kb_toml(plan);
    bounds.resolve(&config)?;
    let existing = read_contained(&bounds, &config)?;
    if existing
        .as_deref()
        .is_some_and(|bytes| bytes != text.as_bytes())
    {
        return Err(AdoptError::Exists(config));
    }
    let links = links(root, &bounds, plan)?;
    let mut made = 0;
    for link in &links {
        if create_link(&link.place, &link.target)? {
            made += 1;
        }
    }
    if existing.is_some() {
        return Ok(if made == 0 {
            Applied::AlreadyAdopted
        } else {
            Applied::Restored { links: made }
        });
    }
    write_atomic(&bounds, &config, None, text.as_bytes())?;
    Ok(Applied::Written {
        links: made,
        kept: links.len() - made,
    })
}

/// Every link of the plan, checked: inside the workspace, and nothing but
/// the same link already at its place.
fn links(root: &Path, bounds: &Boundaries, plan: &Plan) -> Result<Vec<Link>, AdoptError> {
    let kb = jp_dir(root).join("kb");
    let mut out = Vec::new();
    for entry in plan.adopted() {
        let path = kb.join(entry.topic.id()).join(&entry.link);
        let place = place_of_link(bounds, &path)?;
        let target = relative_target(&place, &entry.rel);
        match at_link(&place) {
            AtLink::Nothing => {}
            AtLink::Link(t) if t == target => {}
            AtLink::Link(t) => {
                return Err(AdoptError::Occupied {
                    path,
                    what: format!("a link to {}", t.display()),
                });
            }
            AtLink::Other(what) => {
                return Err(AdoptError::Occupied {
                    path,
                    what: what.to_owned(),
                });
            }
        }
        out.push(Link { place, target });
    }
    Ok(out)
}
