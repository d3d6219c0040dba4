//! The one door from the TUI to config files: every change the curator
//! makes is an [`Edit`] applied here, saved atomically and journaled for
//! undo/redo.
//!
//! TEMPORARY ADAPTER — to be replaced by `crate::edit` when the edit core
//! lands. It only understands a topic written as a `[kb.topic.<id>]`
//! table (or dotted keys / an inline table `toml_edit` can reach) with plain
//! arrays; the real core handles every spelling, comment moves and
//! conflict re-apply. Keep the public shape (`Edit`, `apply`, `save`,
//! `Journal`) so the switch is local to this file.

use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, Item, Table, TableLike, Value};

/// A topic field that `SetField` / `UnsetField` change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Enable,
    Title,
    Introduction,
    Description,
    Subjects,
}

impl Field {
    pub fn key(self) -> &'static str {
        match self {
            Field::Enable => "enable",
            Field::Title => "title",
            Field::Introduction => "introduction",
            Field::Description => "description",
            Field::Subjects => "subjects",
        }
    }
}

/// A new value for a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Bool(bool),
    Text(String),
}

/// One change to one config file (mirrors the edit core's `Edit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    AddLearned {
        topic: String,
        patterns: Vec<String>,
    },
    RemoveLearned {
        topic: String,
        patterns: Vec<String>,
    },
    AddDisabled {
        topic: String,
        slugs: Vec<String>,
    },
    RemoveDisabled {
        topic: String,
        slugs: Vec<String>,
    },
    AddTopic {
        id: String,
        subjects: String,
        title: Option<String>,
        introduction: Option<String>,
        description: Option<String>,
    },
    SetField {
        topic: String,
        field: Field,
        value: FieldValue,
    },
    UnsetField {
        topic: String,
        field: Field,
    },
    RemoveTopic {
        topic: String,
    },
}

/// The result of applying an edit to a file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    pub changed: bool,
    /// "added `x` to learned of topic `t`" (the caller adds the file).
    pub summary: String,
}

#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("not valid TOML: {0}")]
    Parse(String),
    #[error("topic `{0}` is not in this file")]
    NoTopic(String),
    #[error("topic `{0}` already exists")]
    TopicExists(String),
    #[error("`{0}` has a form the temporary edit adapter cannot change (edit it by hand)")]
    Unsupported(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0} changed since it was written; not undone")]
    Conflict(PathBuf),
}

/// Applies one edit to TOML text; text outside the edited value is kept.
pub fn apply(source: &str, edit: &Edit) -> Result<Applied, EditError> {
    let mut doc: DocumentMut = source
        .parse()
        .map_err(|e: toml_edit::TomlError| EditError::Parse(e.to_string()))?;
    let summary = apply_doc(&mut doc, edit)?;
    let text = doc.to_string();
    text.parse::<DocumentMut>()
        .map_err(|e| EditError::Parse(e.to_string()))?;
    let changed = text != source;
    let summary = if changed {
        summary
    } else {
        format!("nothing to change ({summary})")
    };
    Ok(Applied {
        text,
        changed,
        summary,
    })
}

fn apply_doc(doc: &mut DocumentMut, edit: &Edit) -> Result<String, EditError> {
    match edit {
        Edit::AddLearned { topic, patterns } => add(doc, topic, "learned", patterns),
        Edit::RemoveLearned { topic, patterns } => remove(doc, topic, "learned", patterns),
        Edit::AddDisabled { topic, slugs } => add(doc, topic, "disabled", slugs),
        Edit::RemoveDisabled { topic, slugs } => remove(doc, topic, "disabled", slugs),
        Edit::AddTopic {
            id,
            subjects,
            title,
            introduction,
            description,
        } => {
            if topic_mut(doc, id, false).is_ok() {
                return Err(EditError::TopicExists(id.clone()));
            }
            let table = topic_mut(doc, id, true)?;
            table.insert("subjects", toml_edit::value(subjects.as_str()));
            for (key, v) in [
                ("title", title),
                ("introduction", introduction),
                ("description", description),
            ] {
                if let Some(v) = v {
                    table.insert(key, toml_edit::value(v.as_str()));
                }
            }
            Ok(format!("created topic `{id}`"))
        }
        Edit::SetField {
            topic,
            field,
            value,
        } => {
            let table = topic_mut(doc, topic, true)?;
            let mut new = match value {
                FieldValue::Bool(b) => Value::from(*b),
                FieldValue::Text(t) => Value::from(t.as_str()),
            };
            if let Some(old) = table.get(field.key()).and_then(Item::as_value) {
                *new.decor_mut() = old.decor().clone();
            }
            table.insert(field.key(), Item::Value(new));
            let shown = match value {
                FieldValue::Bool(b) => b.to_string(),
                FieldValue::Text(t) => format!("{t:?}"),
            };
            Ok(format!("set {} of topic `{topic}` to {shown}", field.key()))
        }
        Edit::UnsetField { topic, field } => {
            topic_mut(doc, topic, false)?.remove(field.key());
            Ok(format!("unset {} of topic `{topic}`", field.key()))
        }
        Edit::RemoveTopic { topic } => {
            let topics = doc
                .get_mut("kb")
                .and_then(|kb| kb.get_mut("topic"))
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| EditError::NoTopic(topic.clone()))?;
            topics.remove(topic);
            Ok(format!("removed topic `{topic}`"))
        }
    }
}

fn quoted(items: &[String]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn add(
    doc: &mut DocumentMut,
    topic: &str,
    key: &str,
    items: &[String],
) -> Result<String, EditError> {
    let table = topic_mut(doc, topic, true)?;
    if table.get(key).is_none() {
        table.insert(key, Item::Value(Value::Array(Array::new())));
    }
    let array = table
        .get_mut(key)
        .and_then(Item::as_array_mut)
        .ok_or_else(|| EditError::Unsupported(format!("kb.topic.{topic}.{key}")))?;
    for item in items {
        if !array.iter().any(|v| v.as_str() == Some(item)) {
            array.push(item.as_str());
        }
    }
    Ok(format!(
        "added {} to {key} of topic `{topic}`",
        quoted(items)
    ))
}

fn remove(
    doc: &mut DocumentMut,
    topic: &str,
    key: &str,
    items: &[String],
) -> Result<String, EditError> {
    let table = topic_mut(doc, topic, false)?;
    if let Some(item) = table.get_mut(key) {
        let array = item
            .as_array_mut()
            .ok_or_else(|| EditError::Unsupported(format!("kb.topic.{topic}.{key}")))?;
        array.retain(|v| !v.as_str().is_some_and(|s| items.iter().any(|i| i == s)));
    }
    Ok(format!(
        "removed {} from {key} of topic `{topic}`",
        quoted(items)
    ))
}

fn topic_mut<'d>(
    doc: &'d mut DocumentMut,
    id: &str,
    create: bool,
) -> Result<&'d mut dyn TableLike, EditError> {
    let kb = child(doc.as_table_mut(), "kb", create, true)?;
    let topics = child(kb, "topic", create, true)?;
    child(topics, id, create, false).map_err(|e| match e {
        EditError::NoTopic(_) => EditError::NoTopic(id.to_owned()),
        other => other,
    })
}

fn child<'t>(
    parent: &'t mut dyn TableLike,
    key: &str,
    create: bool,
    implicit: bool,
) -> Result<&'t mut dyn TableLike, EditError> {
    if parent.get(key).is_none() {
        if !create {
            return Err(EditError::NoTopic(key.to_owned()));
        }
        let mut table = Table::new();
        table.set_implicit(implicit);
        parent.insert(key, Item::Table(table));
    }
    parent
        .get_mut(key)
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| EditError::Unsupported(key.to_owned()))
}

/// What a save did: the bytes before (None when the file did not exist)
/// and after, for the journal and the Config tab's highlight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub path: PathBuf,
    pub before: Option<String>,
    pub after: String,
    pub changed: bool,
    pub summary: String,
}

/// Applies `edits` in order to the file at `path` (a missing file counts
/// as empty) and writes the result atomically when it changed.
pub fn save(path: &Path, edits: &[Edit]) -> Result<Saved, EditError> {
    let before = read_optional(path)?;
    let mut text = before.clone().unwrap_or_default();
    let mut summaries = Vec::new();
    for edit in edits {
        let applied = apply(&text, edit)?;
        summaries.push(applied.summary);
        text = applied.text;
    }
    let changed =
        before.as_deref() != Some(text.as_str()) && !(before.is_none() && text.is_empty());
    if changed {
        write_atomic(path, &text)?;
    }
    Ok(Saved {
        path: path.to_path_buf(),
        before,
        after: text,
        changed,
        summary: summaries.join("; "),
    })
}

fn read_optional(path: &Path) -> Result<Option<String>, EditError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(EditError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Suffix of the temporary files atomic writes use (the watcher ignores
/// them).
pub const TEMP_SUFFIX: &str = ".jp-kb-tmp";

/// Writes via a temporary file in the same directory, fsync, rename; the
/// file's permissions are kept.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), EditError> {
    use std::io::Write as _;
    let io = |source| EditError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let name = path
        .file_name()
        .map_or_else(|| "config".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}{TEMP_SUFFIX}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Undo/redo across files: each entry is one save. An entry is only
/// undone when the file still holds what we wrote.
#[derive(Debug, Default)]
pub struct Journal {
    undo: Vec<Saved>,
    redo: Vec<Saved>,
}

impl Journal {
    pub fn record(&mut self, saved: Saved) {
        if saved.changed {
            self.undo.push(saved);
            self.redo.clear();
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Restores the bytes before the last save; returns that save.
    pub fn undo(&mut self) -> Result<Option<Saved>, EditError> {
        let Some(entry) = self.undo.pop() else {
            return Ok(None);
        };
        match swap(&entry.path, Some(&entry.after), entry.before.as_deref()) {
            Ok(()) => {
                self.redo.push(entry.clone());
                Ok(Some(entry))
            }
            Err(e) => {
                self.undo.push(entry);
                Err(e)
            }
        }
    }

    /// Re-applies the last undone save.
    pub fn redo(&mut self) -> Result<Option<Saved>, EditError> {
        let Some(entry) = self.redo.pop() else {
            return Ok(None);
        };
        match swap(&entry.path, entry.before.as_deref(), Some(&entry.after)) {
            Ok(()) => {
                self.undo.push(entry.clone());
                Ok(Some(entry))
            }
            Err(e) => {
                self.redo.push(entry);
                Err(e)
            }
        }
    }
}

fn swap(path: &Path, expected: Option<&str>, new: Option<&str>) -> Result<(), EditError> {
    if read_optional(path)?.as_deref() != expected {
        return Err(EditError::Conflict(path.to_path_buf()));
    }
    match new {
        Some(text) => write_atomic(path, text),
        None => std::fs::remove_file(path).map_err(|source| EditError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learned(topic: &str, p: &str) -> Edit {
        Edit::AddLearned {
            topic: topic.into(),
            patterns: vec![p.into()],
        }
    }

    #[test]
    fn adds_and_removes_keeping_comments() {
        let src = "# top\n[kb.topic.p] # here\nsubjects = \"kb\" # dir\nlearned = [\"a\"]\n";
        let out = apply(src, &learned("p", "b")).unwrap();
        assert_eq!(
            out.text,
            "# top\n[kb.topic.p] # here\nsubjects = \"kb\" # dir\nlearned = [\"a\", \"b\"]\n"
        );
        assert!(out.changed);
        let back = apply(
            &out.text,
            &Edit::RemoveLearned {
                topic: "p".into(),
                patterns: vec!["b".into()],
            },
        )
        .unwrap();
        assert_eq!(back.text, src);
        let again = apply(src, &learned("p", "a")).unwrap();
        assert!(!again.changed);
        assert!(again.summary.starts_with("nothing to change"));
    }

    #[test]
    fn creates_topic_and_sets_fields() {
        let out = apply(
            "",
            &Edit::AddTopic {
                id: "n".into(),
                subjects: "kb/n".into(),
                title: Some("New".into()),
                introduction: None,
                description: None,
            },
        )
        .unwrap();
        assert_eq!(
            out.text,
            "[kb.topic.n]\nsubjects = \"kb/n\"\ntitle = \"New\"\n"
        );
        let off = apply(
            &out.text,
            &Edit::SetField {
                topic: "n".into(),
                field: Field::Enable,
                value: FieldValue::Bool(false),
            },
        )
        .unwrap();
        assert!(off.text.ends_with("enable = false\n"));
        assert!(matches!(
            apply("x = [", &learned("p", "a")),
            Err(EditError::Parse(_))
        ));
    }

    #[test]
    fn journal_undoes_and_redoes_and_refuses_conflicts() {
        let dir = std::env::temp_dir().join(format!("jp-kb-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        std::fs::write(&path, "[kb.topic.p]\nsubjects = \"kb\"\n").unwrap();
        let mut journal = Journal::default();
        journal.record(save(&path, &[learned("p", "x")]).unwrap());
        let edited = std::fs::read_to_string(&path).unwrap();
        assert!(edited.contains("learned = [\"x\"]"));
        journal.undo().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[kb.topic.p]\nsubjects = \"kb\"\n"
        );
        journal.redo().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
        std::fs::write(&path, "changed elsewhere\n").unwrap();
        assert!(matches!(journal.undo(), Err(EditError::Conflict(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
