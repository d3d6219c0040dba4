//! What else in JP's layers decides what JP gets from jp-kb (contract §8,
//! "Portable" and "Earlier setups"): the machine's part of the setup (the
//! server entry in JP's user-workspace layer, [`super::machine`]) missing
//! or naming one checkout, a `kb` server or `learn` tool defined in a
//! layer that wins over the generated one (the README's earlier snippet in
//! `.jp/config.toml` did: its `arguments` replace jp-kb's), a second
//! `<knowledge>` section (JP would send it twice), no `run` default for
//! tools (JP refuses to start), and a `jp-kb` that JP cannot start because
//! it is not on `PATH`. Each comes with its fix.

use std::path::{Path, PathBuf};

use crate::KnowledgeBase;
use crate::config::LayerKind;
use crate::config::file::read_config_file;
use crate::config::raw::{RawKind, RawNode};
use crate::config::workspace::{jp_dir, workspace_id};
use crate::remedy::Remedy;

use super::machine::{Entry, SERVER_TABLE, entry_of, kept_command, machine_file};

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
    /// About the machine's part, which `connect` and `sync` rewrite.
    pub machine: bool,
}

/// The problems of JP's setup in `kb`'s workspace.
pub fn jp_problems(kb: &KnowledgeBase) -> Vec<SetupProblem> {
    let mut out = Vec::new();
    let root = kb.root();
    let layer_rel = crate::clients::profile::profile("jp")
        .map(|p| p.mcp.file)
        .unwrap_or_default();
    let generated = root.join(&layer_rel);
    let machine = machine_file(kb);
    let layers = jp_layers(kb);
    let wins_from = wins_from(kb, &layers);
    let mut run_default = false;
    for (index, (path, _)) in layers.iter().enumerate() {
        let Ok(node) = read_config_file(path) else {
            continue;
        };
        run_default |= sets_run_default(&node);
        if same(path, &generated) {
            continue;
        }
        let is_machine = machine.as_deref().is_some_and(|m| same(m, path));
        if index >= wins_from {
            overrides(path, &layer_rel, &node, !is_machine, &mut out);
        }
        twice(path, &layer_rel, &node, &mut out);
    }
    out.extend(machine_problems(kb));
    let from_env = std::env::vars_os().any(|(k, _)| {
        k.to_str()
            .is_some_and(|k| k.starts_with("JP_CFG_CONVERSATION_TOOLS"))
    });
    if !run_default && !from_env {
        let global = kb
            .loaded
            .files
            .iter()
            .find(|f| f.kind == LayerKind::UserGlobal)
            .map(|f| f.path.display().to_string());
        out.push(SetupProblem {
            file: None,
            line: None,
            message: "no file JP loads sets `run` in [conversation.tools.'*']: JP refuses to \
                      start (\"Missing required value for field conversation.tools.*.run\")"
                .to_owned(),
            fix: format!(
                "add `run = \"ask\"` under [conversation.tools.'*'] in {}",
                global.map_or_else(
                    || "your JP configuration".to_owned(),
                    |g| format!("your JP configuration ({g})")
                )
            ),
            remedy: None,
            error: true,
            machine: false,
        });
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
            machine: false,
        });
    }
    out
}

/// The problems of the machine's part, when JP is connected here (its
/// generated layer exists): `.jp/.id` and the server entry of JP's
/// user-workspace layer, which must follow the checkout JP runs for, for
/// this workspace's id.
pub fn machine_problems(kb: &KnowledgeBase) -> Option<SetupProblem> {
    // A JP with the knowledge base inside needs no machine entry, and
    // `sync` keeps none for it (KB118 says what to remove instead).
    if kb.loaded.jp.reads_kb() {
        return None;
    }
    let layer = crate::clients::profile::profile("jp").ok()?.mcp.file;
    std::fs::symlink_metadata(kb.root().join(layer)).ok()?;
    let file = machine_file(kb);
    let entry = file
        .as_deref()
        .filter(|f| crate::config::file::is_present(f))
        .and_then(|f| read_config_file(f).ok())
        .and_then(|node| entry_of(&node));
    machine_problem(kb, file.as_deref(), entry)
}

fn machine_problem(
    kb: &KnowledgeBase,
    file: Option<&Path>,
    entry: Option<(Entry, Option<u32>)>,
) -> Option<SetupProblem> {
    let regenerate = |message: String, file: Option<&Path>, line| SetupProblem {
        file: file.map(Path::to_path_buf),
        line,
        message,
        fix: format!(
            "{} (the entry then follows the checkout JP runs for)",
            Remedy::Regenerate.phrase()
        ),
        remedy: Some(Remedy::Regenerate),
        error: true,
        machine: true,
    };
    let Some(id) = workspace_id(kb.root()) else {
        return Some(SetupProblem {
            file: Some(jp_dir(kb.root()).join(".id")),
            line: None,
            message: "there is no workspace id (`.jp/.id`) yet: JP run from another directory \
                      (`jp -w DIR`) starts jp-kb where it runs, and jp-kb cannot tell which \
                      checkout it is for"
                .to_owned(),
            fix: format!(
                "{} (it writes `.jp/.id` as JP would; commit it)",
                Remedy::Regenerate.phrase()
            ),
            remedy: Some(Remedy::Regenerate),
            error: true,
            machine: true,
        });
    };
    let Some(file) = file else {
        // No data directory: JP keeps no per-user layer either.
        return None;
    };
    let shared = "JP's user-workspace layer (shared by every checkout of this workspace id on \
                  this machine)";
    match entry {
        None | Some((Entry::Plain, _)) => Some(regenerate(
            format!(
                "{shared} has no `kb` server entry naming the workspace id: JP run from another \
                 directory (`jp -w DIR`) starts jp-kb there, which finds no workspace"
            ),
            Some(file),
            entry.and_then(|(_, line)| line),
        )),
        Some((Entry::Names { path }, line)) => Some(regenerate(
            format!(
                "{shared} starts jp-kb on {path}: JP in every clone, worktree or moved \
                 checkout is served that checkout's subjects (an earlier jp-kb wrote it)"
            ),
            Some(file),
            line,
        )),
        Some((Entry::Follows { id: named }, line)) if named != id => Some(regenerate(
            format!("{shared} starts jp-kb for workspace id {named:?}, not this one's ({id})"),
            Some(file),
            line,
        )),
        Some((Entry::Follows { .. }, _)) => None,
    }
}

/// The index of the first of `layers` that wins over the generated
/// layer: the one after it, or, without the generated layer loaded yet,
/// `.jp/config.toml` (`connect` adds the layer to its `extends`, loaded
/// before that file).
fn wins_from(kb: &KnowledgeBase, layers: &[(PathBuf, LayerKind)]) -> usize {
    let layer_rel = crate::clients::profile::profile("jp")
        .map(|p| p.mcp.file)
        .unwrap_or_default();
    let generated = kb.root().join(layer_rel);
    layers
        .iter()
        .position(|(p, _)| same(p, &generated))
        .map_or_else(
            || {
                layers
                    .iter()
                    .position(|(_, kind)| *kind == LayerKind::Workspace)
                    .unwrap_or(layers.len())
            },
            |at| at + 1,
        )
}

/// Whether a layer sets `run` in `[conversation.tools.'*']`.
fn sets_run_default(node: &RawNode) -> bool {
    at(node, &["conversation", "tools", "*", "run"]).is_some()
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

/// The keys of `[conversation.tools.learn]` a person may set in a layer of
/// their own: how JP runs the tool and shows it, not what it is.
const PERSONAL_TOOL_KEYS: [&str; 4] = ["run", "result", "style", "cancellation_response"];

/// A `kb` server (`server`: not in the machine's layer, whose entry
/// [`machine_problem`] checks) or what the `learn` tool is, set in a
/// layer that wins over the generated one: it replaces what `connect`
/// wrote. How JP runs the tool (`run`, …) is the person's to choose.
fn overrides(path: &Path, layer: &str, node: &RawNode, server: bool, out: &mut Vec<SetupProblem>) {
    let mut found: Vec<(String, &str, Option<u32>)> = Vec::new();
    if server && let Some(table) = at(node, &SERVER_TABLE) {
        found.push((SERVER_TABLE.join("."), "the `kb` MCP server", table.line));
    }
    let learn = ["conversation", "tools", "learn"];
    if let Some(RawNode {
        kind: RawKind::Table(entries),
        line,
    }) = at(node, &learn)
    {
        let replaced: Vec<&str> = entries
            .iter()
            .map(|(key, _)| key.as_str())
            .filter(|key| !PERSONAL_TOOL_KEYS.contains(key))
            .collect();
        if !replaced.is_empty() {
            found.push((
                format!("{} ({})", learn.join("."), replaced.join(", ")),
                "the `learn` tool",
                *line,
            ));
        }
    }
    for (name, what, line) in found {
        out.push(SetupProblem {
            file: Some(path.to_path_buf()),
            line,
            message: format!(
                "[{name}] here overrides {what} of the generated layer ({layer}): JP \
                 takes this file's values"
            ),
            fix: "remove it from this file; the generated layer and JP's user-workspace entry \
                  set it (how JP runs the tool, `run`, stays yours to set)"
                .to_owned(),
            remedy: None,
            error: true,
            machine: false,
        });
    }
}

/// A `run` for `learn` set in a layer that wins over the generated one
/// (`run = "ask"` in a layer of the person's): the last one, and its file.
/// `None` when JP runs `learn` as the generated layer says (unattended).
pub fn learn_run_override(kb: &KnowledgeBase) -> Option<(String, PathBuf)> {
    let layers = jp_layers(kb);
    let from = wins_from(kb, &layers);
    let mut found = None;
    for (path, _) in layers.iter().skip(from) {
        let Ok(node) = read_config_file(path) else {
            continue;
        };
        if let Some(RawNode {
            kind: RawKind::String(run),
            ..
        }) = at(&node, &["conversation", "tools", "learn", "run"])
        {
            found = Some((run.clone(), path.clone()));
        }
    }
    found.filter(|(run, _)| run != "unattended")
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
                machine: false,
            });
        }
    }
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
