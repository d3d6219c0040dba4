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
        let Some(BaseConfig { section }) = base_config(&dir) else {
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
    older_than(active(kb), now)
}

/// [`older`], the section rendered only when some conversation is active
/// (rendering a large section takes a while; most workspaces have none).
pub fn older_than_current(kb: &KnowledgeBase) -> Vec<Active> {
    let active = active(kb);
    if active.is_empty() {
        return active;
    }
    older_than(active, kb.knowledge_section().as_deref())
}

fn older_than(active: Vec<Active>, now: Option<&str>) -> Vec<Active> {
    active
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

/// What jp-kb reads of a conversation's `base_config.json`.
struct BaseConfig {
    /// Its `<knowledge>` section (`None`: it has none).
    section: Option<String>,
}

/// A conversation's `base_config.json` (`None`: unreadable).
fn base_config(dir: &Path) -> Option<BaseConfig> {
    let config = json(&dir.join("base_config.json"))?;
    let sections = config.get("assistant")?.get("system_prompt_sections");
    // JP writes merged arrays as `{"value": [...], "strategy": ...}`.
    let list = sections
        .and_then(|s| s.get("value").or(Some(s)))
        .and_then(Value::as_array);
    let section = list
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("content").and_then(Value::as_str))
        .find(|c| c.contains("<knowledge>"))
        .map(str::to_owned);
    Some(BaseConfig { section })
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::config::{Environment, LoadOptions};

    /// A conversation of JP's per-user directory `user` whose base
    /// configuration holds `section`.
    fn conversation(user: &Path, dir: &str, section: Option<&str>) {
        let sections: Vec<serde_json::Value> = section
            .map(|s| serde_json::json!({"content": s, "position": 0}))
            .into_iter()
            .collect();
        let config = serde_json::json!({"assistant": {"system_prompt_sections":
            {"value": sections, "strategy": "replace"}}});
        let dir = user.join("conversations").join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("base_config.json"), config.to_string()).unwrap();
    }

    fn session(user: &Path, name: &str, ids: &[u64], at: &str) {
        let history: Vec<serde_json::Value> = ids
            .iter()
            .map(|id| serde_json::json!({"id": id, "activated_at": at}))
            .collect();
        std::fs::create_dir_all(user.join("sessions")).unwrap();
        std::fs::write(
            user.join("sessions").join(name),
            serde_json::json!({"history": history, "id": "1"}).to_string(),
        )
        .unwrap();
    }

    #[test]
    fn the_active_conversations_with_another_section() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("ws");
        std::fs::create_dir_all(root.join(".jp")).unwrap();
        std::fs::write(root.join(".jp/.id"), "abcde\n").unwrap();
        let data = tmp.path().join("data");
        let user = data.join("workspace/ws-abcde");
        conversation(&user, "11", Some("<knowledge>\nold\n</knowledge>"));
        conversation(&user, "22-a-title", Some("<knowledge>\nnow\n</knowledge>"));
        conversation(&user, "33", None);
        // The first of each history is the active one; 11 was active before.
        session(&user, "getsid-1.json", &[22, 11], "2026-01-02");
        session(&user, "getsid-2.json", &[33], "2026-01-03");
        session(&user, "env-x.json", &[11], "2026-01-01");
        std::fs::write(user.join("sessions/broken.json"), "{").unwrap();
        let env = Environment::workspace_only(&root).with_user_data_dir(&data);
        let kb = KnowledgeBase::load(&env, &LoadOptions::default()).unwrap();
        let older = older(&kb, Some("<knowledge>\nnow\n</knowledge>"));
        let ids: Vec<&str> = older.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["33", "11"]);
        let line = older_line(&older).unwrap();
        assert!(
            line.contains("33, 11") && line.contains("jp query --new"),
            "{line}"
        );
        assert!(older_line(&[]).is_none());
    }
}
