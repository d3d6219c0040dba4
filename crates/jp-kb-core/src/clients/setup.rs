//! Reading a client's configuration in the workspace: the jp-kb MCP server
//! it runs (with which arguments), and the files that carry jp-kb text
//! (JP's system-prompt sections and tool `summary`, Claude Code's project
//! memory). Where the profile says the files are; never written here.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::ClientError;
use super::profile::{Channel, Format, Profile};
use crate::edit::Boundaries;
use crate::mcp::{InstructionsMode, ModeError};
use crate::remedy::Remedy;

/// The jp-kb MCP server a client runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// Its name in the client's configuration (`kb`).
    pub name: String,
    /// `jp-kb`'s arguments.
    pub args: Vec<String>,
    /// What `--instructions` in `args` asks for (`Err`: the server does
    /// not start, with this reason).
    pub mode: Result<InstructionsMode, ModeError>,
}

/// What a client's configuration in the workspace gives jp-kb.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// False: none of the client's files exist, and a plain MCP setup
    /// (`jp-kb mcp`) is assumed.
    pub configured: bool,
    /// The jp-kb server, if the client runs one.
    pub server: Option<Server>,
    /// Why there is no server, or why its files are not read.
    pub not_loaded: Option<String>,
    /// The tool `summary` the client sends instead of the description.
    pub summary: Option<String>,
    /// System-prompt sections' texts (JP), in order.
    pub sections: Vec<String>,
    /// The project memory file's text (Claude Code).
    pub memory: Option<String>,
}

/// Reads the client's configuration under `root`. A file that exists but
/// does not parse is an error naming it (and the line, where the parser
/// says).
pub fn read_setup(root: &Path, profile: &Profile) -> Result<Setup, ClientError> {
    let mcp_path = root.join(&profile.mcp.file);
    let channel_files: Vec<PathBuf> = profile
        .channels
        .iter()
        .filter_map(|c| c.file.as_ref().map(|f| root.join(f)))
        .collect();
    let configured = mcp_path.exists() || channel_files.iter().any(|p| p.exists());
    if !configured {
        return Ok(Setup {
            configured,
            server: Some(server("kb", &["mcp".to_owned()])),
            not_loaded: None,
            summary: None,
            sections: Vec::new(),
            memory: None,
        });
    }
    let mut setup = Setup {
        configured,
        server: None,
        not_loaded: None,
        summary: None,
        sections: Vec::new(),
        memory: None,
    };
    if let Some(parent) = &profile.mcp.loaded_through_extends_of
        && mcp_path.exists()
        && !reached_by_extends(root, parent, &profile.mcp.file)?
    {
        setup.not_loaded = Some(format!(
            "{} does not load {}: `extends` in {parent} does not reach it (add `extends = [\"config.d/**/*\"]`)",
            profile.name, profile.mcp.file
        ));
    }
    let mcp = read_value(root, &mcp_path, profile.mcp.format)?;
    if setup.not_loaded.is_none() {
        if let Some(mcp) = &mcp {
            setup.server = find_server(mcp, profile);
            if setup.server.is_none() {
                setup.not_loaded = Some(format!(
                    "{} runs no jp-kb MCP server: {} has no `{}` entry running `jp-kb`",
                    profile.name, profile.mcp.file, profile.mcp.servers
                ));
            }
            if let Some(key) = profile
                .channel(Channel::ToolDescription)
                .and_then(|c| c.summary.as_ref())
            {
                setup.summary = lookup(mcp, key).and_then(Value::as_str).map(str::to_owned);
            }
        } else {
            setup.not_loaded = Some(format!(
                "{} runs no jp-kb MCP server: there is no {}",
                profile.name, profile.mcp.file
            ));
        }
    }
    if let Some(facts) = profile.channel(Channel::SystemPromptSection)
        && let (Some(file), Some(key)) = (&facts.file, &facts.key)
    {
        let loaded = setup.not_loaded.is_none() || *file != profile.mcp.file;
        let value = if *file == profile.mcp.file {
            mcp.clone()
        } else {
            read_value(root, &root.join(file), Format::Toml)?
        };
        if let (true, Some(value)) = (loaded, value) {
            setup.sections = lookup(&value, key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("content").and_then(Value::as_str))
                .map(str::to_owned)
                .collect();
        }
    }
    if let Some(file) = profile
        .channel(Channel::ProjectMemory)
        .and_then(|c| c.file.as_ref())
    {
        let path = root.join(file);
        if let Some(bytes) = read_client_file(root, &path)? {
            setup.memory = Some(
                String::from_utf8(bytes)
                    .map_err(|_| ClientError::NotUtf8 { path: path.clone() })?,
            );
        }
    }
    Ok(setup)
}

/// A line about a client's setup, said before what its model receives
/// (`prompt --client` on stderr, the TUI's client view).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SetupNote {
    /// A warning (the client does not get what it could), or a note.
    pub warning: bool,
    /// What it says; it ends with the remedy's phrase when there is one.
    pub text: String,
    /// The action the text names by its phrase, which a front end words
    /// as its own command.
    pub remedy: Option<Remedy>,
}

impl Setup {
    /// What a front end says about this setup of `profile`'s client.
    pub fn notes(&self, profile: &Profile) -> Vec<SetupNote> {
        let mut out = Vec::new();
        if !self.configured {
            let connect = Remedy::Connect {
                client: profile.id.clone(),
            };
            out.push(SetupNote {
                warning: false,
                text: format!(
                    "no {} configuration in this workspace ({}); showing what a plain MCP \
                     setup of the server gets; {} sets it up",
                    profile.name,
                    profile.mcp.file,
                    connect.phrase()
                ),
                remedy: Some(connect),
            });
        }
        if let Some(why) = &self.not_loaded {
            out.push(SetupNote {
                warning: true,
                text: why.clone(),
                remedy: None,
            });
        }
        if let Some(Err(why)) = self.server.as_ref().map(|s| &s.mode) {
            out.push(SetupNote {
                warning: true,
                text: format!("{}'s jp-kb server does not start: {why}", profile.name),
                remedy: None,
            });
        }
        out
    }
}

fn server(name: &str, args: &[String]) -> Server {
    Server {
        name: name.to_owned(),
        args: args.to_vec(),
        mode: instructions_mode(args),
    }
}

/// The `--instructions` mode `jp-kb mcp`'s arguments ask for.
pub fn instructions_mode(args: &[String]) -> Result<InstructionsMode, ModeError> {
    let mut mode = InstructionsMode::Full;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = if arg == "--instructions" {
            it.next().ok_or(ModeError::MissingValue)?
        } else if let Some(value) = arg.strip_prefix("--instructions=") {
            value
        } else {
            continue;
        };
        mode = value.parse()?;
    }
    Ok(mode)
}

/// The first server entry named `kb` or running a `jp-kb` binary.
fn find_server(mcp: &Value, profile: &Profile) -> Option<Server> {
    let servers = lookup(mcp, &profile.mcp.servers)?.as_object()?;
    let runs_jp_kb = |entry: &Value| {
        entry
            .get(&profile.mcp.command)
            .and_then(Value::as_str)
            .is_some_and(|c| Path::new(c).file_name().is_some_and(|n| n == "jp-kb"))
    };
    let (name, entry) = servers
        .iter()
        .find(|(_, entry)| runs_jp_kb(entry))
        .or_else(|| servers.iter().find(|(name, _)| *name == "kb"))?;
    let args: Vec<String> = entry
        .get(&profile.mcp.args)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str().map(str::to_owned))
        .collect();
    Some(server(name, &args))
}

/// Whether `extends` in `parent` (relative to the root) reaches `file`
/// (relative to the root), as the loader reads it.
fn reached_by_extends(root: &Path, parent: &str, file: &str) -> Result<bool, ClientError> {
    let Some(doc) = read_value(root, &root.join(parent), Format::Toml)? else {
        return Ok(false);
    };
    let dir = Path::new(parent).parent().unwrap_or(Path::new(""));
    let Some(relative) = Path::new(file)
        .strip_prefix(dir)
        .ok()
        .and_then(Path::to_str)
    else {
        return Ok(false);
    };
    let entries = super::toml_merge::extends_entries(doc.get("extends"));
    Ok(crate::config::layers::extends_reaches(&entries, relative))
}

/// A client file's bytes through the guarded, bounded open: nothing that
/// leads out of the workspace, no FIFO, no device, a size limit (contract
/// §8). `None` when it does not exist.
fn read_client_file(root: &Path, path: &Path) -> Result<Option<Vec<u8>>, ClientError> {
    Ok(crate::edit::write::read_contained(
        &Boundaries::new([root.to_path_buf()]),
        path,
    )?)
}

/// A file as JSON values (TOML converted), `None` when it does not exist.
fn read_value(root: &Path, path: &Path, format: Format) -> Result<Option<Value>, ClientError> {
    let Some(bytes) = read_client_file(root, path)? else {
        return Ok(None);
    };
    let text = String::from_utf8(bytes).map_err(|_| ClientError::NotUtf8 {
        path: path.to_path_buf(),
    })?;
    let value = match format {
        Format::Json => serde_json::from_str(&text).map_err(|e| ClientError::Invalid {
            path: path.to_path_buf(),
            line: None,
            message: format!("invalid JSON: {e}"),
        })?,
        Format::Toml => {
            let doc: toml_edit::DocumentMut =
                text.parse()
                    .map_err(|e: toml_edit::TomlError| ClientError::Invalid {
                        path: path.to_path_buf(),
                        line: e
                            .span()
                            .map(|s| jp_kb_toml::lines::line_col(&text, s.start).0),
                        message: format!("invalid TOML: {}", e.message().trim_end()),
                    })?;
            table_to_json(doc.as_table())
        }
    };
    Ok(Some(value))
}

fn lookup<'a>(value: &'a Value, dotted: &str) -> Option<&'a Value> {
    dotted.split('.').try_fold(value, |v, key| v.get(key))
}

fn table_to_json(table: &toml_edit::Table) -> Value {
    Value::Object(
        table
            .iter()
            .map(|(k, item)| (k.to_owned(), item_to_json(item)))
            .collect(),
    )
}

fn item_to_json(item: &toml_edit::Item) -> Value {
    match item {
        toml_edit::Item::Value(v) => value_to_json(v),
        toml_edit::Item::Table(t) => table_to_json(t),
        toml_edit::Item::ArrayOfTables(a) => Value::Array(a.iter().map(table_to_json).collect()),
        toml_edit::Item::None => Value::Null,
    }
}

fn value_to_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match value {
        V::String(s) => Value::String(s.value().clone()),
        V::Integer(i) => Value::from(*i.value()),
        V::Float(f) => Value::from(*f.value()),
        V::Boolean(b) => Value::Bool(*b.value()),
        V::Datetime(d) => Value::String(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(value_to_json).collect()),
        V::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), value_to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn reads_the_instructions_mode_from_the_arguments() {
        assert_eq!(
            instructions_mode(&args(&["mcp"])),
            Ok(InstructionsMode::Full)
        );
        assert_eq!(
            instructions_mode(&args(&["mcp", "--instructions", "none"])),
            Ok(InstructionsMode::None)
        );
        assert_eq!(
            instructions_mode(&args(&["--workspace", "x", "mcp", "--instructions=menu"])),
            Ok(InstructionsMode::Menu)
        );
        assert!(instructions_mode(&args(&["mcp", "--instructions"])).is_err());
        assert!(instructions_mode(&args(&["mcp", "--instructions", "all"])).is_err());
    }
}
