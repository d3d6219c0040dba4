//! `jp-kb connect CLIENT`: what one client needs written so that it gets
//! the `learn` tool and the whole `<knowledge>` section exactly (contract
//! §8). [`plan`] computes every file's new content from the disk and the
//! knowledge base without writing; [`super::carry_out::write_all`] writes
//! them through the edit core's one apply, only over the bytes that were
//! read.

use std::path::{Path, PathBuf};

use crate::KnowledgeBase;
use crate::config::origin::is_editable_toml;
use crate::config::workspace::config_file_in;
use crate::edit::Boundaries;
use crate::edit::write::read_contained;
use crate::render::tool::tool_description;

use super::ClientError;
use super::generated;
use super::profile::{Channel, Format, Profile, profile};
use super::toml_merge::Merged;
use super::{json_merge, toml_merge};

/// A client `connect` knows: one of the profiles in `assets/clients/`,
/// named by its id. The profiles name the clients; the code knows only
/// JP by name ([`Client::JP`]), for what is JP's alone ([`super::jp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(&'static str);

impl Client {
    /// JP itself: its profile's id.
    pub const JP: Client = Client("jp");

    /// Every client jp-kb connects, in profile order.
    pub fn all() -> Vec<Client> {
        super::profile::client_ids()
            .into_iter()
            .map(Client)
            .collect()
    }

    /// The client whose profile has id `id`.
    ///
    /// # Errors
    /// No profile has it: the error names the known ones.
    pub fn named(id: &str) -> Result<Client, ClientError> {
        super::profile::client_ids()
            .into_iter()
            .find(|known| *known == id)
            .map(Client)
            .ok_or_else(|| ClientError::UnknownClient {
                id: id.to_owned(),
                known: super::profile::client_ids()
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            })
    }

    /// The name on the command line (its profile's id).
    pub fn name(self) -> &'static str {
        self.0
    }

    /// Its profile (`assets/clients/NAME.toml`): the one source of what
    /// `connect` writes and what the client receives.
    ///
    /// # Errors
    /// The embedded profile does not parse (a build that a test catches).
    pub fn profile(self) -> Result<Profile, ClientError> {
        profile(self.name())
    }
}

/// How a file relates to the knowledge base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Part {
    /// The whole file is generated from the knowledge base (the JP layer,
    /// the Claude Code rules file): every edit changes it.
    Generated,
    /// jp-kb owns one entry of a file the person owns (a server entry, an
    /// `extends` item); it does not depend on the knowledge base.
    Entry,
}

/// One file `connect` or `sync` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileWrite {
    /// The client that needs it.
    pub client: Client,
    /// The file.
    pub path: PathBuf,
    /// Whether jp-kb owns the whole file or one entry of it.
    pub part: Part,
    /// What the file holds now (`None`: missing).
    pub before: Option<String>,
    /// What it must hold.
    pub after: String,
    /// Things the person should know (Claude Code imports, …).
    pub notes: Vec<String>,
}

impl FileWrite {
    /// Whether writing it changes anything.
    pub fn changed(&self) -> bool {
        self.before.as_deref() != Some(self.after.as_str())
    }
}

/// Reads a text file through the guarded, bounded open (no link out of
/// `bounds`, no FIFO or device); `None` when missing.
///
/// # Errors
/// Unreadable, leading out, or not UTF-8, naming the file.
pub fn read_text(bounds: &Boundaries, path: &Path) -> Result<Option<String>, ClientError> {
    match read_contained(bounds, path)? {
        None => Ok(None),
        Some(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| ClientError::NotUtf8 {
                path: path.to_path_buf(),
            }),
    }
}

/// The texts the generated files hold, rendered once per knowledge base.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Texts {
    /// The `<knowledge>` section (`None`: absent).
    pub section: Option<String>,
    /// The `learn` tool's description (`None`: no learnable topic).
    pub tool_description: Option<String>,
}

impl Texts {
    /// The texts of `kb` as it is now.
    pub fn of(kb: &KnowledgeBase) -> Self {
        let topics = kb.learnable_topics();
        Self {
            section: kb.knowledge_section(),
            tool_description: (!topics.is_empty()).then(|| tool_description(&topics)),
        }
    }

    /// The content of the [`Part::Generated`] file at `rel` of the client
    /// `profile` describes: the file of its system-prompt-section channel
    /// is a JP-style layer, that of its project-memory channel a memory
    /// file.
    pub fn generated(&self, profile: &Profile, rel: &str) -> Option<String> {
        let file_of = |channel| profile.channel(channel).and_then(|c| c.file.as_deref());
        if file_of(Channel::SystemPromptSection) == Some(rel) {
            return Some(generated::jp_layer(
                &profile.connect,
                self.section.as_deref(),
                self.tool_description.as_deref(),
            ));
        }
        if file_of(Channel::ProjectMemory) == Some(rel) {
            return Some(generated::claude_rules(self.section.as_deref()));
        }
        None
    }
}

/// The files that [`Part::Generated`] covers for `client`.
pub fn generated_files(client: Client) -> Vec<String> {
    client
        .profile()
        .map(|p| p.generated_files().into_iter().map(str::to_owned).collect())
        .unwrap_or_default()
}

fn generated_write(
    client: Client,
    profile: &Profile,
    bounds: &Boundaries,
    root: &Path,
    rel: &str,
    texts: &Texts,
) -> Result<FileWrite, ClientError> {
    let path = root.join(rel);
    Ok(FileWrite {
        client,
        before: read_text(bounds, &path)?,
        after: texts.generated(profile, rel).unwrap_or_default(),
        path,
        part: Part::Generated,
        notes: Vec::new(),
    })
}

/// An entry merged into a file the person owns: `merge` gets the current
/// text (empty when missing) and returns the new one, `None` when the
/// entry is already right. An invalid file is never written. Keys the
/// merge removed from jp-kb's own entry become notes naming them.
fn entry_write(
    client: Client,
    bounds: &Boundaries,
    root: &Path,
    rel: &str,
    merge: impl Fn(&str) -> Result<Option<Merged>, String>,
) -> Result<FileWrite, ClientError> {
    let path = root.join(rel);
    let before = read_text(bounds, &path)?;
    let current = before.as_deref().unwrap_or("");
    let merged = merge(current).map_err(|message| ClientError::NotMerged {
        path: path.clone(),
        message,
    })?;
    let mut notes = Vec::new();
    let after = match merged {
        Some(Merged { text, removed }) => {
            if !removed.is_empty() {
                notes.push(format!(
                    "{rel}: removed {} from jp-kb's `kb` server entry (jp-kb writes that entry \
                     whole; set such keys on another server name if you need them)",
                    removed
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            text
        }
        None => current.to_owned(),
    };
    Ok(FileWrite {
        client,
        path,
        part: Part::Entry,
        before,
        after,
        notes,
    })
}

/// JP needs `.jp/config.toml` to `extends` the generated layer (JP applies
/// no default). A JSON/YAML config is read-only: when it does not reach the
/// layer already, the person is told what to add.
fn jp_extends(
    bounds: &Boundaries,
    root: &Path,
    parent: &str,
    layer: &str,
) -> Result<Option<FileWrite>, ClientError> {
    // `extends` entries are relative to the declaring file's directory.
    let dir = Path::new(parent).parent().unwrap_or(Path::new(""));
    let from_parent = Path::new(layer)
        .strip_prefix(dir)
        .ok()
        .and_then(Path::to_str)
        .unwrap_or(layer)
        .to_owned();
    let layer = from_parent.as_str();
    let jp_dir = crate::config::workspace::jp_dir(root);
    if let Some(config) = config_file_in(&jp_dir).filter(|p| !is_editable_toml(p)) {
        let text = read_text(bounds, &config)?.unwrap_or_default();
        let invalid = |message: String| ClientError::Invalid {
            path: config.clone(),
            line: None,
            message,
        };
        let value: serde_json::Value = if config.extension().is_some_and(|e| e == "json") {
            serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?
        } else {
            serde_norway::from_str(&text).map_err(|e| invalid(e.to_string()))?
        };
        let entries = toml_merge::extends_entries(value.get("extends"));
        if crate::config::layers::extends_reaches(&entries, layer) {
            return Ok(None);
        }
        return Err(ClientError::ExtendsNeeded {
            path: config,
            layer: layer.to_owned(),
        });
    }
    entry_write(Client::JP, bounds, root, parent, |text| {
        toml_merge::jp_extends(text, layer).map(|text| {
            text.map(|text| Merged {
                text,
                removed: Vec::new(),
            })
        })
    })
    .map(Some)
}

/// What in JP's layers would still keep JP from getting what `connect`
/// writes, as notes with their fixes (the machine's part, which this
/// `connect` writes, aside), and how JP will run `learn`.
fn earlier_setups(kb: &KnowledgeBase) -> Vec<String> {
    let mut notes: Vec<String> = super::jp::setup::jp_problems(kb)
        .into_iter()
        .filter(|p| !p.machine)
        .map(|p| {
            let place = p.file.as_deref().map_or_else(String::new, |f| {
                let shown = kb.display_path(f).display().to_string();
                match p.line {
                    Some(line) => format!("{shown}:{line}: "),
                    None => format!("{shown}: "),
                }
            });
            format!("{place}{}; fix: {}", p.message, p.fix)
        })
        .collect();
    if let Some((run, file)) = super::jp::setup::learn_run_override(kb) {
        notes.push(format!(
            "JP runs `learn` as `run = {run:?}` in {} says (it wins over the generated layer's \
             \"unattended\")",
            kb.display_path(&file).display()
        ));
    }
    notes
}

/// The machine's part of JP's setup ([`super::jp::machine`]): `.jp/.id`
/// written as JP would when JP has not yet, and `[providers.mcp.kb]` in
/// JP's user-workspace layer naming the workspace id, so that the server
/// serves the checkout JP runs for, also for `jp -w DIR` run from
/// elsewhere. Nothing (with the reason in a note) when JP has no data
/// directory here or its user-workspace file is not TOML.
fn jp_machine_part(
    kb: &KnowledgeBase,
    profile: &Profile,
    bounds: &Boundaries,
    notes: &mut Vec<String>,
) -> Result<Vec<FileWrite>, ClientError> {
    let mut out = Vec::new();
    let (id, id_write) = match super::jp::machine::new_id(kb, std::time::SystemTime::now()) {
        Some((path, text, id)) => {
            let write = FileWrite {
                client: Client::JP,
                path,
                part: Part::Entry,
                before: None,
                after: text,
                notes: vec![
                    ".jp/.id: JP's workspace id, written as JP writes it (JP had not run here \
                     yet); commit it, so every checkout of the repository shares it"
                        .to_owned(),
                ],
            };
            (Some(id), Some(write))
        }
        None => (crate::config::workspace::workspace_id(kb.root()), None),
    };
    let Some(id) = id else {
        // `.jp/.id` exists and is not an id: `check` says so (KB117).
        return Ok(out);
    };
    out.extend(id_write);
    let Some(file) = super::jp::machine::machine_file_for(kb, &id) else {
        notes.push(
            "JP has no user data directory here: JP run inside the workspace works; `jp -w DIR` \
             from elsewhere does not"
                .to_owned(),
        );
        return Ok(out);
    };
    if !is_editable_toml(&file) {
        notes.push(format!(
            "{}: not TOML, so jp-kb does not edit it; for `jp -w DIR` from elsewhere, set \
             [providers.mcp.kb] there to run `jp-kb` with arguments {:?}",
            file.display(),
            super::jp::machine::server_arguments(&profile.connect.server_args, &id)
        ));
        return Ok(out);
    }
    let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str())) else {
        return Ok(out);
    };
    let args = super::jp::machine::server_arguments(&profile.connect.server_args, &id);
    out.push(entry_write(Client::JP, bounds, dir, name, |text| {
        let command = super::jp::machine::kept_command(text);
        let entries = generated::jp_machine_server(&command, &args);
        toml_merge::owned_table(text, &super::jp::machine::SERVER_TABLE, &entries)
    })?);
    Ok(out)
}

/// Why `client` needs nothing connected in `kb`'s workspace, if it does
/// not: a JP with the knowledge base inside reads the `kb` tables of its
/// own files, builds the section at each query and has `learn` built in,
/// so a generated layer and an MCP server would only send both twice.
pub fn not_needed(client: Client, kb: &KnowledgeBase) -> Option<String> {
    (client == Client::JP && kb.loaded.jp.reads_kb()).then(|| {
        "the JP here has the knowledge base inside: it reads the `kb` tables of its own \
         files (.jp/config.toml, config.d, extends), builds the <knowledge> section at each \
         query and has `learn` built in; a generated layer and an MCP server would send \
         both twice"
            .to_owned()
    })
}

/// Every file `client` needs, with its current and new content. Nothing is
/// written; an error (a client config that does not parse, a read-only
/// JP config) means nothing may be.
///
/// # Errors
/// A message naming the file.
pub fn plan(
    client: Client,
    kb: &KnowledgeBase,
    texts: &Texts,
) -> Result<Vec<FileWrite>, ClientError> {
    let profile = client.profile()?;
    let root = kb.root();
    let bounds = &kb.boundaries();
    let mut out = Vec::new();
    let generated = profile.generated_files();
    for rel in &generated {
        let mut write = generated_write(client, &profile, bounds, root, rel, texts)?;
        if profile
            .channel(Channel::ProjectMemory)
            .and_then(|c| c.file.as_deref())
            == Some(rel)
        {
            write.notes.extend(import_note(rel, texts));
        }
        out.push(write);
    }
    if let Some(parent) = &profile.mcp.loaded_through_extends_of {
        out.extend(jp_extends(bounds, root, parent, &profile.mcp.file)?);
    }
    if !generated.contains(&profile.mcp.file.as_str()) {
        out.push(server_write(client, &profile, bounds, root)?);
    }
    if client == Client::JP {
        let mut notes = earlier_setups(kb);
        let machine = jp_machine_part(kb, &profile, bounds, &mut notes)?;
        if let Some(layer) = out.first_mut() {
            layer.notes.extend(notes);
        }
        out.extend(machine);
    }
    Ok(out)
}

/// The words of the section written as code in a memory file, so that
/// the client does not import the files they name ([`super::imports`]).
fn import_note(rel: &str, texts: &Texts) -> Option<String> {
    let (_, imports) = texts
        .section
        .as_deref()
        .map(super::imports::quote_imports)
        .unwrap_or_default();
    (!imports.is_empty()).then(|| {
        format!(
            "{rel}: wrote {} as code so that Claude Code does not import the files they name \
             (the section as Claude Code receives it shows what arrives)",
            imports.join(", ")
        )
    })
}

/// jp-kb's `kb` server entry in the client's MCP file, as its profile
/// says: written whole (keys found there that jp-kb did not write are
/// removed and named).
fn server_write(
    client: Client,
    profile: &Profile,
    bounds: &Boundaries,
    root: &Path,
) -> Result<FileWrite, ClientError> {
    let table = profile.server_table();
    let facts = &profile.connect;
    match profile.mcp.format {
        Format::Json => {
            let mut entry = serde_json::Map::new();
            if let Some(kind) = &facts.server_type {
                entry.insert("type".to_owned(), kind.clone().into());
            }
            entry.insert(profile.mcp.command.clone(), "jp-kb".into());
            entry.insert(profile.mcp.args.clone(), facts.server_args.clone().into());
            let entry = serde_json::Value::Object(entry);
            entry_write(client, bounds, root, &profile.mcp.file, |text| {
                json_merge::set_owned_member(text, &table, &entry)
            })
        }
        Format::Toml => {
            let entries = generated::toml_server_entry(profile, &facts.server_args);
            entry_write(client, bounds, root, &profile.mcp.file, |text| {
                let entries: Vec<(&str, String)> = entries
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.clone()))
                    .collect();
                toml_merge::owned_table(text, &table, &entries)
            })
        }
    }
}

/// Whether `client` is connected in the workspace at `root`: its generated
/// file is there (Codex: its config declares the `kb` server). Something
/// at the generated file's place that is not a plain file inside the
/// workspace (a link out, a FIFO) counts as connected, so that `sync`
/// and `check` look at it and say what is wrong instead of skipping it.
pub fn is_connected(client: Client, root: &Path) -> bool {
    let Ok(profile) = client.profile() else {
        return false;
    };
    let generated = profile.generated_files();
    if !generated.is_empty() {
        return generated
            .iter()
            .any(|rel| std::fs::symlink_metadata(root.join(rel)).is_ok());
    }
    let bounds = Boundaries::new([root.to_path_buf()]);
    let Ok(Some(text)) = read_text(&bounds, &root.join(&profile.mcp.file)) else {
        return false;
    };
    let table = profile.server_table();
    match profile.mcp.format {
        Format::Toml => toml_merge::has_table(&text, &table),
        Format::Json => serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .is_some_and(|v| table.iter().try_fold(&v, |v, k| v.get(*k)).is_some()),
    }
}
