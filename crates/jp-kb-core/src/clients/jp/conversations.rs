//! JP's conversations that keep an older `<knowledge>` section. JP stores
//! the configuration a conversation began with (`base_config.json` in its
//! directory) and layers it over the files on every later query of that
//! conversation: a conversation continued after a change still sends the
//! section it began with (JP's design). A plain `jp query` continues its
//! terminal's active conversation (the first entry of each session's
//! `sessions/*.json` in JP's per-user directory); those are the ones that
//! matter, and the ones said (`check --client jp`, the TUI, a CLI edit).
//!
//! Everything here is read through the guarded, bounded read and skipped
//! when it does not parse: JP's files, whatever their state, never stop a
//! jp-kb command.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::KnowledgeBase;
use crate::config::file::read_guarded;
use crate::config::workspace::jp_dir;

/// Most session files read (a person has one per terminal that ran JP).
const MAX_SESSIONS: usize = 256;

/// A conversation a plain `jp query` continues in some terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Active {
    /// JP's id of it (`jp conversation show ID`).
    pub id: String,
    /// When a terminal last made it its active one (JP's words, UTC).
    pub activated_at: String,
    /// Its directory.
    pub dir: PathBuf,
    /// The `<knowledge>` section it sends (`None`: it has none).
    pub section: Option<String>,
}

/// The active conversations of JP's per-user directory of `kb`'s
/// workspace (most recently activated first), each once.
pub fn active(kb: &KnowledgeBase) -> Vec<Active> {
    let Some(user_dir) = &kb.loaded.user_workspace_dir else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(user_dir.join("sessions")) else {
        return Vec::new();
    };
    let mut out: Vec<Active> = Vec::new();
    for entry in entries.flatten().take(MAX_SESSIONS) {
        let Some((id, activated_at)) = session_head(&entry.path()) else {
            continue;
        };
        if out.iter().any(|a| a.id == id) {
            continue;
        }
        let Some(dir) = conversation_dir(user_dir, kb.root(), &id) else {
            continue;
        };
        let Some(section) = base_section(&dir) else {
            continue;
        };
        out.push(Active {
            id,
            activated_at,
            dir,
            section,
        });
    }
    out.sort_by(|a, b| b.activated_at.cmp(&a.activated_at));
    out
}

/// The active conversations whose section is not `now` (the section of
/// the knowledge base as it is, `None` when absent): what JP keeps
/// sending in them.
pub fn older(kb: &KnowledgeBase, now: Option<&str>) -> Vec<Active> {
    active(kb)
        .into_iter()
        .filter(|a| a.section.as_deref() != now)
        .collect()
}

/// A session file's active conversation (`history[0]`) and when it was
/// activated.
fn session_head(path: &Path) -> Option<(String, String)> {
    let value = json(path)?;
    let head = value.get("history")?.as_array()?.first()?;
    let id = match head.get("id")? {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return None,
    };
    // An id names a directory: digits and the like only.
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return None;
    }
    let at = head
        .get("activated_at")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    Some((id, at))
}

/// The directory of conversation `id`: `<id>` or `<id>-<title>` in JP's
/// per-user `conversations/`, else in the workspace's `.jp/conversations/`.
fn conversation_dir(user_dir: &Path, root: &Path, id: &str) -> Option<PathBuf> {
    let prefix = format!("{id}-");
    [
        user_dir.join("conversations"),
        jp_dir(root).join("conversations"),
    ]
    .into_iter()
    .find_map(|parent| {
        std::fs::read_dir(&parent).ok()?.flatten().find_map(|e| {
            let name = e.file_name();
            let name = name.to_str()?;
            (name == id || name.starts_with(&prefix)).then(|| e.path())
        })
    })
}

/// The `<knowledge>` section in a conversation's `base_config.json`
/// (`Some(None)`: it has none; `None`: unreadable).
fn base_section(dir: &Path) -> Option<Option<String>> {
    let config = json(&dir.join("base_config.json"))?;
    let sections = config.get("assistant")?.get("system_prompt_sections");
    // JP writes merged arrays as `{"value": [...], "strategy": ...}`.
    let list = sections
        .and_then(|s| s.get("value").or(Some(s)))
        .and_then(Value::as_array);
    Some(
        list.into_iter()
            .flatten()
            .filter_map(|s| s.get("content").and_then(Value::as_str))
            .find(|c| c.contains("<knowledge>"))
            .map(str::to_owned),
    )
}

fn json(path: &Path) -> Option<Value> {
    let bytes = read_guarded(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// One line for a person about the conversations JP continues with an
/// older section, or `None` when there is none.
pub fn older_line(older: &[Active]) -> Option<String> {
    let first = older.first()?;
    let what = if older.len() == 1 {
        format!(
            "JP's conversation {} (active in a terminal) keeps",
            first.id
        )
    } else {
        format!(
            "{} JP conversations active in terminals ({}) keep",
            older.len(),
            older
                .iter()
                .map(|a| a.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Some(format!(
        "{what} the <knowledge> section it began with, not the current one: a plain \
         `jp query` continues it; `jp query --new` starts one with the current section"
    ))
}
