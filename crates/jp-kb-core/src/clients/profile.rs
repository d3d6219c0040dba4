//! Client profiles as data: one file per client in `assets/clients/`, each
//! naming the client's version and the facts observed running it for real
//! (which channel carries what, where it cuts). The code interprets them;
//! a new client version with new facts is an edit of its file.

use std::fmt;

use toml_edit::{DocumentMut, Item, Table};

use super::ClientError;
use super::cut::Unit;

/// The profile files, embedded at build time.
const SOURCES: [(&str, &str); 3] = [
    ("jp.toml", include_str!("../../assets/clients/jp.toml")),
    (
        "claude-code.toml",
        include_str!("../../assets/clients/claude-code.toml"),
    ),
    (
        "codex.toml",
        include_str!("../../assets/clients/codex.toml"),
    ),
];

/// A route by which jp-kb text reaches a client's model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Channel {
    /// A system-prompt section the client reads from its own configuration
    /// (JP's `[[assistant.system_prompt_sections]]`).
    SystemPromptSection,
    /// A project memory file (Claude Code's `.claude/rules/*.md`).
    ProjectMemory,
    /// The MCP server instructions.
    McpInstructions,
    /// The `learn` tool's description.
    ToolDescription,
}

impl Channel {
    /// Every channel, in the order profiles list them.
    pub const ALL: [Channel; 4] = [
        Channel::SystemPromptSection,
        Channel::ProjectMemory,
        Channel::McpInstructions,
        Channel::ToolDescription,
    ];

    /// The channel's id in profiles and in `prompt --client --json`.
    pub fn id(self) -> &'static str {
        match self {
            Channel::SystemPromptSection => "system-prompt-section",
            Channel::ProjectMemory => "project-memory",
            Channel::McpInstructions => "mcp-instructions",
            Channel::ToolDescription => "tool-description",
        }
    }

    /// Words for a person.
    pub fn label(self) -> &'static str {
        match self {
            Channel::SystemPromptSection => "system-prompt section",
            Channel::ProjectMemory => "project memory file",
            Channel::McpInstructions => "MCP server instructions",
            Channel::ToolDescription => "`learn` tool description",
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What a client does with a channel's text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Delivery {
    /// It arrives byte for byte.
    Whole,
    /// It is received and thrown away.
    Dropped,
    /// Cut to its first `max` units (characters or UTF-16 code units, as
    /// the client counts), `marker` appended.
    Truncated {
        /// How many units arrive.
        max: usize,
        /// What the client counts.
        unit: Unit,
        /// What the client appends to the cut text.
        marker: String,
    },
    /// Only its first sentence arrives.
    FirstSentence,
}

/// How the client reads its MCP servers from a file in the project.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpConfig {
    /// Relative to the workspace root.
    pub file: String,
    /// The file's format.
    pub format: Format,
    /// Dotted key of the table of servers.
    pub servers: String,
    /// Key of a server's command.
    pub command: String,
    /// Key of a server's argument list.
    pub args: String,
    /// The file is a layer the client loads only when `extends` in this
    /// file (relative to the root) reaches it.
    pub loaded_through_extends_of: Option<String>,
}

/// The format of a client's MCP configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// TOML (JP, Codex).
    Toml,
    /// JSON (Claude Code's `.mcp.json`).
    Json,
}

/// One channel of a client.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ChannelFacts {
    /// The channel.
    pub channel: Channel,
    /// What the client does with its text.
    pub delivery: Delivery,
    /// The file carrying the text (system-prompt section, project memory),
    /// relative to the workspace root.
    pub file: Option<String>,
    /// Dotted key of the array of tables holding the text (in `file`).
    pub key: Option<String>,
    /// Dotted key (in the MCP file) of a text the client sends instead of
    /// the cut one (JP's tool `summary`).
    pub summary: Option<String>,
    /// A leading `---` block is stripped as front-matter.
    pub strips_front_matter: bool,
}

/// What `jp-kb connect` writes for a client: the `kb` server entry in the
/// client's MCP file, and the words it ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConnectFacts {
    /// The entry's `type`, when the client's format has one.
    pub server_type: Option<String>,
    /// `jp-kb`'s arguments in the entry.
    pub server_args: Vec<String>,
    /// What the person is told once the files are written.
    pub next: String,
}

/// One client's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Profile {
    /// Its id (`jp`, `claude-code`, `codex`).
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// The client version the profile was observed with.
    pub version: String,
    /// Where and how the client declares MCP servers.
    pub mcp: McpConfig,
    /// What `connect` writes and tells for it.
    pub connect: ConnectFacts,
    /// In [`Channel::ALL`] order; only the channels the client has.
    pub channels: Vec<ChannelFacts>,
}

impl Profile {
    /// The facts of `channel`, when the client has it.
    pub fn channel(&self, channel: Channel) -> Option<&ChannelFacts> {
        self.channels.iter().find(|c| c.channel == channel)
    }

    /// The files jp-kb generates whole for this client (relative to the
    /// workspace root): those of the channels that carry the section
    /// (JP's layer, Claude Code's memory file).
    pub fn generated_files(&self) -> Vec<&str> {
        let mut files: Vec<&str> = Vec::new();
        for facts in &self.channels {
            let carries = matches!(
                facts.channel,
                Channel::SystemPromptSection | Channel::ProjectMemory
            );
            if let (true, Some(file)) = (carries, facts.file.as_deref())
                && !files.contains(&file)
            {
                files.push(file);
            }
        }
        files
    }

    /// The dotted key of jp-kb's server entry in the MCP file.
    pub fn server_table(&self) -> Vec<&str> {
        self.mcp.servers.split('.').chain(["kb"]).collect()
    }

    /// "Claude Code 2.1.197".
    pub fn display_name(&self) -> String {
        format!("{} {}", self.name, self.version)
    }
}

/// The ids of the known clients, in file order.
pub fn client_ids() -> Vec<&'static str> {
    SOURCES
        .iter()
        .map(|(file, _)| file.trim_end_matches(".toml"))
        .collect()
}

/// The profile of client `id`; an unknown id names the known ones.
pub fn profile(id: &str) -> Result<Profile, ClientError> {
    let (file, text) = SOURCES
        .iter()
        .find(|(file, _)| file.trim_end_matches(".toml") == id)
        .ok_or_else(|| ClientError::UnknownClient {
            id: id.to_owned(),
            known: client_ids().into_iter().map(str::to_owned).collect(),
        })?;
    parse(text).map_err(|message| ClientError::Profile {
        file: (*file).to_owned(),
        message,
    })
}

/// Parses a profile file.
pub(crate) fn parse(text: &str) -> Result<Profile, String> {
    let doc: DocumentMut = text.parse().map_err(|e| format!("invalid TOML: {e}"))?;
    let root = doc.as_table();
    let mcp = table(root, "mcp")?;
    let format = match string(mcp, "format")?.as_str() {
        "toml" => Format::Toml,
        "json" => Format::Json,
        other => return Err(format!("`mcp.format` must be toml or json, not {other:?}")),
    };
    let mcp = McpConfig {
        file: string(mcp, "file")?,
        format,
        servers: string(mcp, "servers")?,
        command: string(mcp, "command")?,
        args: string(mcp, "args")?,
        loaded_through_extends_of: optional(mcp, "loaded_through_extends_of")?,
    };
    let listed = table(root, "channel")?;
    for (key, _) in listed {
        if !Channel::ALL.iter().any(|c| c.id() == key) {
            return Err(format!("unknown channel `channel.{key}`"));
        }
    }
    let mut channels = Vec::new();
    for channel in Channel::ALL {
        let Some(item) = listed.get(channel.id()) else {
            continue;
        };
        let facts = item
            .as_table()
            .ok_or_else(|| format!("`channel.{channel}` must be a table"))?;
        channels.push(channel_facts(channel, facts)?);
    }
    let connect = table(root, "connect")?;
    let connect = ConnectFacts {
        server_type: optional(connect, "server_type")?,
        server_args: connect
            .get("server_args")
            .and_then(Item::as_array)
            .and_then(|a| {
                a.iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or("`connect.server_args` must be an array of strings")?,
        next: string(connect, "next")?,
    };
    Ok(Profile {
        id: string(root, "id")?,
        name: string(root, "name")?,
        version: string(root, "version")?,
        mcp,
        connect,
        channels,
    })
}

fn channel_facts(channel: Channel, facts: &Table) -> Result<ChannelFacts, String> {
    let delivery = match string(facts, "arrives")?.as_str() {
        "whole" => Delivery::Whole,
        "dropped" => Delivery::Dropped,
        "first-sentence" => Delivery::FirstSentence,
        "truncated" => {
            let max = facts
                .get("max")
                .and_then(Item::as_integer)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("`channel.{channel}.max` must be a count"))?;
            let unit = string(facts, "unit")?;
            let unit = Unit::parse(&unit).ok_or_else(|| {
                format!("`channel.{channel}.unit` must be characters or utf-16, not {unit:?}")
            })?;
            Delivery::Truncated {
                max,
                unit,
                marker: string(facts, "marker")?,
            }
        }
        other => {
            return Err(format!(
                "`channel.{channel}.arrives` must be whole, dropped, truncated or first-sentence, not {other:?}"
            ));
        }
    };
    Ok(ChannelFacts {
        channel,
        delivery,
        file: optional(facts, "file")?,
        key: optional(facts, "key")?,
        summary: optional(facts, "summary")?,
        strips_front_matter: facts
            .get("strips_front_matter")
            .and_then(Item::as_bool)
            .unwrap_or(false),
    })
}

fn table<'a>(parent: &'a Table, key: &str) -> Result<&'a Table, String> {
    parent
        .get(key)
        .and_then(Item::as_table)
        .ok_or_else(|| format!("missing table `{key}`"))
}

fn string(parent: &Table, key: &str) -> Result<String, String> {
    optional(parent, key)?.ok_or_else(|| format!("missing `{key}`"))
}

fn optional(parent: &Table, key: &str) -> Result<Option<String>, String> {
    match parent.get(key) {
        None => Ok(None),
        Some(item) => item
            .as_str()
            .map(|s| Some(s.to_owned()))
            .ok_or_else(|| format!("`{key}` must be a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_profile_parses_and_names_its_file() {
        for id in client_ids() {
            let profile = profile(id);
            assert_eq!(profile.as_ref().map(|p| p.id.as_str()).ok(), Some(id));
        }
        assert!(profile("cursor").is_err_and(|e| e.to_string().contains("claude-code")));
    }

    #[test]
    fn recorded_facts() {
        let Ok(claude) = profile("claude-code") else {
            panic!("claude-code profile")
        };
        assert_eq!(
            claude
                .channel(Channel::McpInstructions)
                .map(|c| c.delivery.clone()),
            Some(Delivery::Truncated {
                max: 2048,
                unit: Unit::Utf16,
                marker: "… [truncated]".into()
            })
        );
        let Ok(jp) = profile("jp") else {
            panic!("jp profile")
        };
        assert_eq!(
            jp.channel(Channel::McpInstructions).map(|c| &c.delivery),
            Some(&Delivery::Dropped)
        );
        assert!(parse("id = 1").is_err());
    }
}
