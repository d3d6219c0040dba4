//! The one part of JP's setup that belongs to this machine: the `kb`
//! server entry in JP's user-workspace layer (`<data>/workspace/<dir>/
//! config.toml`, never committed), which JP loads after the workspace's
//! files, so its `arguments` replace the generated layer's.
//!
//! That layer is per workspace **id**, shared by every clone, worktree
//! and moved checkout of the repository on this machine
//! ([`crate::config::jp_user_dir`]). So the entry names no checkout: it
//! names the id (`jp-kb mcp --client jp --jp-workspace-id ID`), and the
//! server serves the checkout JP runs for ([`crate::mcp::jp_checkout`]):
//! the one it is started in, or, for `jp -w DIR` run from elsewhere, the
//! one JP's `storage` link names. An entry an earlier jp-kb wrote
//! (`--workspace PATH`) serves PATH to every checkout.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::KnowledgeBase;
use crate::config::jp_user_dir::{new_id_file, resolve};
use crate::config::raw::{RawKind, RawNode};
use crate::config::workspace::{config_file_in, jp_dir, workspace_id};

/// Where the server entry is, in every layer JP loads.
pub const SERVER_TABLE: [&str; 3] = ["providers", "mcp", "kb"];

/// The argument naming JP's workspace id: `jp-kb mcp` started with it
/// serves the checkout JP runs for.
pub const ID_FLAG: &str = "--jp-workspace-id";

/// The argument the entries of an earlier jp-kb used: one checkout's path.
const PATH_FLAG: &str = "--workspace";

/// The workspace id the machine entry is for: `.jp/.id`'s, or the one
/// `connect` is about to write ([`new_id`]).
pub fn id_of(kb: &KnowledgeBase) -> Option<String> {
    workspace_id(kb.root())
}

/// `.jp/.id` of `kb`'s workspace and what `connect` writes there when
/// there is none yet (JP writes it at its first start; before that,
/// `jp -w DIR` run from elsewhere has no id to find the checkout by).
pub fn new_id(kb: &KnowledgeBase, now: SystemTime) -> Option<(PathBuf, String, String)> {
    let path = jp_dir(kb.root()).join(".id");
    if crate::config::file::is_present(&path) {
        return None;
    }
    let (text, id) = new_id_file(now);
    Some((path, text, id))
}

/// JP's user-workspace config file for workspace `id` of `kb`'s checkout:
/// in the directory JP uses for it, whichever checkout made it.
pub fn machine_file_for(kb: &KnowledgeBase, id: &str) -> Option<PathBuf> {
    let dir = match (&kb.loaded.user_workspace_dir, workspace_id(kb.root())) {
        (Some(dir), Some(current)) if current == id => dir.clone(),
        _ => {
            let data = kb.loaded.jp_data_dir.as_ref()?;
            let name = kb.root().file_name()?.to_str()?;
            resolve(&data.join("workspace"), name, id)
        }
    };
    Some(config_file_in(&dir).unwrap_or_else(|| dir.join("config.toml")))
}

/// JP's user-workspace config file of `kb`'s checkout, as it is now.
pub fn machine_file(kb: &KnowledgeBase) -> Option<PathBuf> {
    let dir = kb.loaded.user_workspace_dir.as_ref()?;
    Some(config_file_in(dir).unwrap_or_else(|| dir.join("config.toml")))
}

/// `jp-kb`'s arguments in the machine entry: the profile's, then the id.
pub fn server_arguments(profile_args: &[String], id: &str) -> Vec<String> {
    profile_args
        .iter()
        .cloned()
        .chain([ID_FLAG.to_owned(), id.to_owned()])
        .collect()
}

/// What an existing machine entry does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// It follows the checkout JP runs for, for workspace `id`.
    Follows {
        /// The id in its arguments.
        id: String,
    },
    /// It starts the server on one checkout (an earlier jp-kb's entry, or
    /// a person's own `--workspace`).
    Names {
        /// The path in its arguments.
        path: String,
    },
    /// Neither: the server finds the workspace from JP's directory, so
    /// `jp -w DIR` run from elsewhere finds none.
    Plain,
}

/// What the `kb` server of a layer (`node`, the whole file) does, when it
/// has one.
pub fn entry_of(node: &RawNode) -> Option<(Entry, Option<u32>)> {
    let server = SERVER_TABLE.iter().try_fold(node, |n, key| n.get(key))?;
    let args = server.get("arguments").map(strings).unwrap_or_default();
    let after = |flag: &str| {
        args.iter()
            .position(|a| *a == flag)
            .and_then(|i| args.get(i + 1))
            .map(|s| (*s).to_owned())
    };
    let entry = if let Some(id) = after(ID_FLAG) {
        Entry::Follows { id }
    } else if let Some(path) = after(PATH_FLAG) {
        Entry::Names { path }
    } else {
        Entry::Plain
    };
    Some((entry, server.line))
}

fn strings(node: &RawNode) -> Vec<&str> {
    match &node.kind {
        RawKind::Array(items) => items
            .iter()
            .filter_map(|i| match &i.kind {
                RawKind::String(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The `command` of the `kb` server in JP's user-workspace config `text`
/// when it names a `jp-kb` binary by path (a person's way to a `jp-kb`
/// not on JP's `PATH`: `connect` keeps it); else `jp-kb`.
pub fn kept_command(text: &str) -> String {
    let set = toml_edit::Document::parse(text).ok().and_then(|doc| {
        doc.get("providers")?
            .get("mcp")?
            .get("kb")?
            .get("command")?
            .as_str()
            .map(str::to_owned)
    });
    set.filter(|c| {
        Path::new(c).is_absolute() && Path::new(c).file_name().is_some_and(|n| n == "jp-kb")
    })
    .unwrap_or_else(|| "jp-kb".to_owned())
}
