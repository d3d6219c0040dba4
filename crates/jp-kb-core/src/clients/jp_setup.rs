//! What else in JP's layers decides what JP gets from jp-kb (contract §8,
//! "Portable" and "Earlier setups"): the machine's part of the setup (the
//! server's `--workspace` path in JP's user-workspace layer) naming
//! another checkout, a `kb` server or `learn` tool defined in a layer that
//! wins over the generated one (the README's earlier snippet in
//! `.jp/config.toml` did: its `arguments` replace jp-kb's), a second
//! `<knowledge>` section (JP would send it twice), and a `jp-kb` that JP
//! cannot start because it is not on `PATH`. Each comes with its fix.

use std::path::{Path, PathBuf};

use crate::KnowledgeBase;
use crate::check::Remedy;
use crate::config::LayerKind;
use crate::config::file::read_config_file;
use crate::config::raw::{RawKind, RawNode};

use super::generated::JP_SERVER_TABLE;

/// One thing in the person's setup that keeps JP from getting jp-kb
/// exactly, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupProblem {
    /// The file it is about (`None`: the machine, e.g. `PATH`).
    pub file: Option<PathBuf>,
    pub line: Option<u32>,
    pub message: String,
    /// How to fix it, in plain words.
    pub fix: String,
    /// The action `fix` names by its phrase, when it is one a front end
    /// words as its own command.
    pub remedy: Option<Remedy>,
    /// An error (JP does not get what `connect` promised) or a warning.
    pub error: bool,
}

/// The problems of JP's setup in `kb`'s workspace.
pub fn jp_problems(kb: &KnowledgeBase) -> Vec<SetupProblem> {
    let mut out = Vec::new();
    let root = kb.root();
    let layer_rel = super::profile::profile("jp")
        .map(|p| p.mcp.file)
        .unwrap_or_default();
    let generated = root.join(&layer_rel);
    let machine = machine_file(kb);
    let layers = jp_layers(kb);
    let generated_at = layers.iter().position(|(p, _)| same(p, &generated));
    // Without the generated layer loaded yet, `connect` would add it to
    // `.jp/config.toml`'s `extends`, loaded before that file: from that
    // file on, every layer wins over it.
    let wins_from = generated_at.map_or_else(
        || {
            layers
                .iter()
                .position(|(_, kind)| *kind == LayerKind::Workspace)
                .unwrap_or(layers.len())
        },
        |at| at + 1,
    );
    for (index, (path, _)) in layers.iter().enumerate() {
        if same(path, &generated) {
            continue;
        }
        let Ok(node) = read_config_file(path) else {
            continue;
        };
        let is_machine = machine.as_deref().is_some_and(|m| same(m, path));
        if is_machine {
            machine_entry(root, path, &node, &mut out);
        }
        if index >= wins_from && !is_machine {
            overrides(path, &layer_rel, &node, &mut out);
        }
        twice(path, &layer_rel, &node, &mut out);
    }
    let command = machine
        .as_deref()
        .and_then(|m| crate::config::file::read_guarded(m).ok())
        .map_or_else(
            || "jp-kb".to_owned(),
            |b| kept_command(&String::from_utf8_lossy(&b)),
        );
    if !can_start(&command) {
        out.push(SetupProblem {
            file: None,
            line: None,
            // A fact about the entry JP has (its `command` and arguments),
            // not a command offered to the person.
            message: "`jp-kb` is not on PATH: JP starts `jp-kb mcp` by name and every query \
                      would fail (`Cannot spawn process`)"
                .to_owned(),
            fix: "install it on PATH (`cargo install --locked --path .` in jp-kb's checkout), \
                  or set `command` in [providers.mcp.kb] of JP's user-workspace config.toml \
                  to its absolute path"
                .to_owned(),
            remedy: None,
            error: false,
        });
    }
    out
}

/// The files JP loads, in merge order (no `kb.*` file, no `--cfg`).
fn jp_layers(kb: &KnowledgeBase) -> Vec<(PathBuf, LayerKind)> {
    let mut out: Vec<(PathBuf, LayerKind)> = Vec::new();
    for file in &kb.loaded.files {
        let jp_loads = !kb.loaded.kb_files.contains(&file.path) && file.kind != LayerKind::Cfg;
        if jp_loads && !out.iter().any(|(p, _)| p == &file.path) {
            out.push((file.path.clone(), file.kind));
        }
    }
    out
}

/// JP's user-workspace config file, where the machine's part goes.
pub fn machine_file(kb: &KnowledgeBase) -> Option<PathBuf> {
    let dir = kb.loaded.user_workspace_dir.as_ref()?;
    Some(crate::config::workspace::config_file_in(dir).unwrap_or_else(|| dir.join("config.toml")))
}

fn same(a: &Path, b: &Path) -> bool {
    a == b
        || a.canonicalize()
            .ok()
            .zip(b.canonicalize().ok())
            .is_some_and(|(a, b)| a == b)
}

fn at<'n>(node: &'n RawNode, path: &[&str]) -> Option<&'n RawNode> {
    path.iter().try_fold(node, |n, key| n.get(key))
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

/// The machine's server entry must start the server on this checkout: a
/// copy of the workspace (a clone at the same path name, a moved
/// checkout) shares JP's user-workspace layer with the first one.
fn machine_entry(root: &Path, path: &Path, node: &RawNode, out: &mut Vec<SetupProblem>) {
    let Some(server) = at(node, &JP_SERVER_TABLE) else {
        return;
    };
    let args = server.get("arguments").map(strings).unwrap_or_default();
    let named = args
        .iter()
        .position(|a| *a == "--workspace")
        .and_then(|i| args.get(i + 1));
    if let Some(named) = named
        && !same(Path::new(named), root)
    {
        let reconnect = Remedy::ConnectHere {
            client: "jp".to_owned(),
        };
        out.push(SetupProblem {
            file: Some(path.to_path_buf()),
            line: server.line,
            message: format!(
                "JP's user-workspace layer starts jp-kb on {named}, not on this workspace: JP here \
                 would be served that workspace's subjects"
            ),
            fix: format!(
                "{} (it rewrites the entry for this checkout)",
                reconnect.phrase()
            ),
            remedy: Some(reconnect),
            error: true,
        });
    }
}

/// A `kb` server or `learn` tool in a layer that wins over the generated
/// one replaces what `connect` wrote.
fn overrides(path: &Path, layer: &str, node: &RawNode, out: &mut Vec<SetupProblem>) {
    let checks: [(&[&str], &str); 2] = [
        (&JP_SERVER_TABLE, "the `kb` MCP server"),
        (&["conversation", "tools", "learn"], "the `learn` tool"),
    ];
    for (table, what) in checks {
        if let Some(found) = at(node, table) {
            let name = table.join(".");
            out.push(SetupProblem {
                file: Some(path.to_path_buf()),
                line: found.line,
                message: format!(
                    "[{name}] here overrides {what} of the generated layer ({layer}): JP \
                     takes this file's values"
                ),
                fix: format!(
                    "remove the [{name}] table from this file; the generated layer and JP's \
                     user-workspace entry set it"
                ),
                remedy: None,
                error: true,
            });
        }
    }
}

/// A `<knowledge>` section in a system-prompt section of another layer:
/// JP would send the section twice.
fn twice(path: &Path, layer: &str, node: &RawNode, out: &mut Vec<SetupProblem>) {
    let Some(RawNode {
        kind: RawKind::Array(sections),
        ..
    }) = at(node, &["assistant", "system_prompt_sections"])
    else {
        return;
    };
    for section in sections {
        let holds = section
            .get("content")
            .is_some_and(|c| matches!(&c.kind, RawKind::String(s) if s.contains("<knowledge>")));
        if holds {
            out.push(SetupProblem {
                file: Some(path.to_path_buf()),
                line: section.line,
                message: format!(
                    "a system-prompt section here holds a <knowledge> section: JP sends it as \
                     well as the generated one ({layer}), so the model sees it twice"
                ),
                fix: "remove this [[assistant.system_prompt_sections]] entry; the generated \
                      layer carries the section and is regenerated with it"
                    .to_owned(),
                remedy: None,
                error: true,
            });
        }
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

/// Whether JP can start `command`: an executable file at that path, or
/// found in a directory of `PATH`.
fn can_start(command: &str) -> bool {
    if Path::new(command).is_absolute() {
        return executable(Path::new(command));
    }
    on_path(command)
}

fn executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        {
            m.is_file()
        }
    })
}

/// Whether `command` is an executable file in a directory of `PATH`.
fn on_path(command: &str) -> bool {
    let Some(paths) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&paths).any(|dir| executable(&dir.join(command)))
}
