//! Keeping the generated files current (contract §8): `jp-kb sync`
//! rewrites every one that exists; every jp-kb edit (CLI and TUI) calls
//! [`after_edit`]; `check` reports what [`stale`] finds.
//!
//! A generated file that differs from what jp-kb would have written before
//! the edit was changed by someone else (edited by hand, or a subject
//! changed outside jp-kb): an edit leaves it alone and says so, and only
//! a sync on purpose (`jp-kb sync`) overwrites it.

use crate::KnowledgeBase;
use crate::edit::journal::Journal;

use super::ClientError;
use super::carry_out::write_all;

use super::connect::{
    Client, FileWrite, Part, Texts, generated_files, is_connected, not_needed, plan, read_text,
};

/// What [`after_edit`] did with one generated file (or client), for the
/// person to read: its `Display` is the line.
#[derive(Debug)]
#[non_exhaustive]
pub enum Synced {
    /// Rewritten for the edit.
    Wrote {
        /// The file, relative to the workspace root.
        file: String,
        /// The client it is for.
        client: Client,
    },
    /// Left alone: it no longer held what jp-kb generated (a front end
    /// adds how to regenerate it anyway).
    LeftEdited {
        /// The file, relative to the workspace root.
        file: String,
    },
    /// It could not be read or written.
    Failed(String),
    /// JP conversations that a plain `jp query` continues keep the section
    /// they began with ([`super::jp::conversations::older_line`]).
    JpConversationsKeep(String),
}

impl Synced {
    /// Whether the line is a warning or a note (said on stderr by the
    /// CLI), not a file written.
    pub fn is_warning(&self) -> bool {
        !matches!(self, Synced::Wrote { .. })
    }
}

impl std::fmt::Display for Synced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Synced::Wrote { file, client } => write!(f, "synced {file} ({})", client.name()),
            Synced::LeftEdited { file } => write!(
                f,
                "warning: {file} differs from what jp-kb generated (edited by hand, or a subject \
                 changed outside jp-kb); not overwritten"
            ),
            Synced::Failed(why) => write!(f, "warning: {why}"),
            Synced::JpConversationsKeep(line) => write!(f, "note: {line}"),
        }
    }
}

/// The clients connected in `kb`'s workspace that need it: a JP with the
/// knowledge base inside does not ([`not_needed`]; `check` says so,
/// KB118), and its old layer is never brought up to date.
pub fn connected(kb: &KnowledgeBase) -> Vec<Client> {
    Client::all()
        .into_iter()
        .filter(|c| is_connected(*c, kb.root()) && not_needed(*c, kb).is_none())
        .collect()
}

/// What `jp-kb sync` writes: every file of every connected client, with
/// its current content (unchanged ones included). The errors are per
/// client (a client config that does not parse): the other clients are
/// still planned.
pub fn plan_sync(kb: &KnowledgeBase) -> (Vec<FileWrite>, Vec<ClientError>) {
    let clients = connected(kb);
    if clients.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let texts = Texts::of(kb);
    let mut writes = Vec::new();
    let mut errors = Vec::new();
    for client in clients {
        match plan(client, kb, &texts) {
            Ok(files) => writes.extend(files),
            Err(e) => errors.push(e),
        }
    }
    (writes, errors)
}

/// The files `sync` would change (what `check` reports), and the errors
/// that would stop it.
pub fn stale(kb: &KnowledgeBase) -> (Vec<FileWrite>, Vec<ClientError>) {
    let (writes, errors) = plan_sync(kb);
    (
        writes.into_iter().filter(FileWrite::changed).collect(),
        errors,
    )
}

/// After an edit changed the configuration from `before` to `after`:
/// rewrites each generated file that was current (it held what `before`
/// generates) and leaves any other one alone. Returns what it did with
/// each file it wrote or left, for the person to read.
pub fn after_edit(before: &KnowledgeBase, after: &KnowledgeBase) -> Vec<Synced> {
    let clients = connected(after);
    if clients.is_empty() {
        return Vec::new();
    }
    let (old, new) = (Texts::of(before), Texts::of(after));
    let root = after.root();
    let bounds = after.boundaries();
    let mut lines = Vec::new();
    for client in clients.iter().copied() {
        let Ok(profile) = client.profile() else {
            continue;
        };
        let mut writes = Vec::new();
        for rel in generated_files(client) {
            let path = root.join(&rel);
            let (Some(was), Some(now)) =
                (old.generated(&profile, &rel), new.generated(&profile, &rel))
            else {
                continue;
            };
            let current = match read_text(&bounds, &path) {
                Ok(Some(text)) => text,
                Ok(None) => continue,
                Err(e) => {
                    lines.push(Synced::Failed(e.to_string()));
                    continue;
                }
            };
            if current == now {
                continue;
            }
            if current != was {
                lines.push(Synced::LeftEdited { file: rel });
                continue;
            }
            writes.push(FileWrite {
                client,
                path,
                part: Part::Generated,
                before: Some(current),
                after: now,
                notes: Vec::new(),
            });
        }
        // One plan per client: a client whose file cannot be written does
        // not keep another one stale.
        let mut journal = Journal::new(bounds.clone());
        match write_all(&writes, &mut journal) {
            Ok(_) => lines.extend(writes.iter().map(|w| Synced::Wrote {
                file: after.display_path(&w.path).display().to_string(),
                client,
            })),
            Err(e) => lines.push(Synced::Failed(e.to_string())),
        }
    }
    if clients.contains(&Client::JP) && old.section != new.section {
        let older = super::jp::conversations::older(after, new.section.as_deref());
        lines.extend(super::jp::conversations::older_line(&older).map(Synced::JpConversationsKeep));
    }
    lines
}

/// What `jp-kb mcp` does when it starts (contract §8, "Fresh"): rewrites
/// each generated file of a connected client that differs from what
/// `sync` writes — generated files only, never a file the person owns
/// (their entries stay as `connect` left them). One line per file it
/// rewrote or could not, for the server's log.
pub fn refresh_generated(kb: &KnowledgeBase) -> Vec<String> {
    let (writes, _) = plan_sync(kb);
    let mut lines = Vec::new();
    for client in Client::all() {
        let stale: Vec<&FileWrite> = writes
            .iter()
            .filter(|w| w.client == client)
            .filter(|w| w.part == Part::Generated && w.changed() && w.before.is_some())
            .collect();
        if stale.is_empty() {
            continue;
        }
        let shown = |w: &FileWrite| kb.display_path(&w.path).display().to_string();
        let mut journal = Journal::new(kb.boundaries());
        match write_all(stale.iter().copied(), &mut journal) {
            Ok(_) => lines.extend(stale.iter().map(|w| {
                format!(
                    "rewrote {}: it was out of date ({})",
                    shown(w),
                    client.name()
                )
            })),
            Err(e) => lines.push(format!(
                "{} out of date and could not be rewritten: {e}",
                stale
                    .iter()
                    .map(|w| shown(w))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    lines
}
