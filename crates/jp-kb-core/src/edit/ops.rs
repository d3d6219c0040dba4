//! The edit API: text in, text out. `apply` computes what a file would
//! hold after one edit, without touching the disk, so a caller can show
//! the result (`--diff`, the TUI) before writing it with `write`.
//!
//! Every byte outside the edited value is kept: the result is the input
//! with one or more spliced replacements, and it is re-parsed and checked
//! to mean exactly the input plus the edit before it is returned.

use crate::edit::error::{BadEdit, EditError};
use crate::edit::fields::FieldChange;
use crate::edit::locate::{known_topics, locate, parse_document, topic_path};
use jp_kb_toml::keys::path_repr;
use jp_kb_toml::patch::Patch;
use jp_kb_toml::text::doc_eol;
use jp_kb_toml::tree::Index;

use crate::config::{FieldKind, TopicField};
pub use crate::edit::kinds::{Applied, Edit, FieldValue};

/// Computes the file content after `edit`.
///
/// # Errors
/// [`EditError::Parse`] for invalid TOML, `TopicNotFound` when the edit
/// needs a topic the file does not define, `TopicExists` for adding one it
/// does, `WrongType` when a value in the way has an unexpected type (it is
/// never rewritten), `InvalidEdit` for nonsensical edits.
pub fn apply(source: &str, edit: &Edit) -> Result<Applied, EditError> {
    if let Edit::WholeFile {
        expected,
        text,
        summary,
    } = edit
    {
        return whole_file(source, expected.as_deref(), text, summary);
    }
    validate(edit)?;
    let (text, summary) = compute(source, edit)?;
    match text {
        Some(text) if text != source => {
            crate::edit::verify::check(source, &text, edit)?;
            Ok(Applied {
                text,
                changed: true,
                summary,
            })
        }
        _ => Ok(Applied {
            text: source.to_owned(),
            changed: false,
            summary,
        }),
    }
}

/// Like [`apply`], but an addition (`learned`, `disabled`, a field) to a
/// topic this file does not define first declares the topic with an empty
/// `[kb.topic.<id>]` table. That lets a layer such as the user-workspace
/// file hold only personal pre-loads for a topic the team's file defines.
///
/// # Errors
/// As [`apply`].
pub fn apply_declaring(source: &str, edit: &Edit) -> Result<Applied, EditError> {
    let (Edit::AddLearned { topic, .. }
    | Edit::AddDisabled { topic, .. }
    | Edit::SetField { topic, .. }) = edit
    else {
        return apply(source, edit);
    };
    match apply(source, edit) {
        Err(EditError::TopicNotFound { .. }) => {
            let patch = crate::edit::topic::add(source, topic, &[])?;
            let declared = patch.apply(source);
            let mut applied = apply(&declared, edit)?;
            applied.summary = format!(
                "{} (declared {} in this file)",
                applied.summary,
                path_repr(&topic_path(topic))
            );
            Ok(applied)
        }
        other => other,
    }
}

/// [`Edit::WholeFile`]: no splice and no meaning to check, only that the
/// file is still what the caller read.
fn whole_file(
    source: &str,
    expected: Option<&str>,
    text: &str,
    summary: &str,
) -> Result<Applied, EditError> {
    if source != expected.unwrap_or("") {
        return Err(EditError::Changed);
    }
    Ok(Applied {
        text: text.to_owned(),
        changed: text != source,
        summary: summary.to_owned(),
    })
}

fn validate(edit: &Edit) -> Result<(), EditError> {
    let id = match edit {
        Edit::WholeFile { .. } => return Ok(()),
        Edit::AddTopic { id, .. } => id,
        Edit::AddLearned { topic, .. }
        | Edit::RemoveLearned { topic, .. }
        | Edit::ReplaceLearned { topic, .. }
        | Edit::AddDisabled { topic, .. }
        | Edit::RemoveDisabled { topic, .. }
        | Edit::SetField { topic, .. }
        | Edit::UnsetField { topic, .. }
        | Edit::RemoveTopic { topic } => topic,
    };
    if id.is_empty() {
        return Err(EditError::InvalidEdit(BadEdit::EmptyTopicId));
    }
    let empty_list = match edit {
        Edit::AddLearned { patterns: v, .. }
        | Edit::RemoveLearned { patterns: v, .. }
        | Edit::AddDisabled { slugs: v, .. }
        | Edit::RemoveDisabled { slugs: v, .. } => v.is_empty(),
        _ => false,
    };
    if empty_list {
        return Err(EditError::InvalidEdit(BadEdit::NothingGiven));
    }
    if let Edit::SetField { field, .. } | Edit::UnsetField { field, .. } = edit
        && field.kind() == FieldKind::List
    {
        return Err(EditError::InvalidEdit(BadEdit::ListField(*field)));
    }
    if let Edit::SetField { field, value, .. } = edit {
        let ok = matches!(
            (field.kind(), value),
            (FieldKind::Flag, FieldValue::Bool(_)) | (FieldKind::Text, FieldValue::Text(_))
        );
        if !ok {
            return Err(EditError::InvalidEdit(BadEdit::WrongValue(*field)));
        }
    }
    Ok(())
}

type Outcome = (Option<String>, String);

fn compute(source: &str, edit: &Edit) -> Result<Outcome, EditError> {
    match edit {
        Edit::WholeFile { text, summary, .. } => Ok((Some(text.clone()), summary.clone())),
        Edit::AddLearned { topic, patterns } => {
            list_edit(source, topic, TopicField::Learned, ListOp::Add(patterns))
        }
        Edit::RemoveLearned { topic, patterns } => {
            list_edit(source, topic, TopicField::Learned, ListOp::Remove(patterns))
        }
        Edit::ReplaceLearned {
            topic,
            pattern,
            with,
        } => list_edit(
            source,
            topic,
            TopicField::Learned,
            ListOp::Replace(pattern, with),
        ),
        Edit::AddDisabled { topic, slugs } => {
            list_edit(source, topic, TopicField::Disabled, ListOp::Add(slugs))
        }
        Edit::RemoveDisabled { topic, slugs } => {
            list_edit(source, topic, TopicField::Disabled, ListOp::Remove(slugs))
        }
        Edit::AddTopic {
            id,
            subjects,
            title,
            introduction,
            description,
        } => {
            let fields = crate::edit::kinds::new_topic_fields(
                subjects,
                title.as_deref(),
                introduction.as_deref(),
                description.as_deref(),
            );
            let entries = crate::edit::topic::entries(&fields, doc_eol(source));
            let patch = crate::edit::topic::add(source, id, &entries)?;
            let summary = format!(
                "added topic {} (subjects `{subjects}`)",
                path_repr(&topic_path(id))
            );
            Ok((Some(patch.apply(source)), summary))
        }
        Edit::SetField {
            topic,
            field,
            value,
        } => field_edit(source, topic, *field, Some(value)),
        Edit::UnsetField { topic, field } => field_edit(source, topic, *field, None),
        Edit::RemoveTopic { topic } => {
            let doc = parse_document(source)?;
            let index = Index::build(source, &doc)?;
            require_topic(&doc, &index, topic)?;
            let text = crate::edit::topic::remove(source, topic)?;
            Ok((
                text,
                format!("removed topic {}", path_repr(&topic_path(topic))),
            ))
        }
    }
}

fn require_topic(
    doc: &toml_edit::Document<&str>,
    index: &Index<'_>,
    id: &str,
) -> Result<jp_kb_toml::container::Container, EditError> {
    locate(doc, index, id)?.ok_or_else(|| EditError::TopicNotFound {
        topic: id.to_owned(),
        known: known_topics(doc, index),
    })
}

#[derive(Clone, Copy)]
enum ListOp<'a> {
    Add(&'a [String]),
    Remove(&'a [String]),
    Replace(&'a str, &'a [String]),
}

fn list_edit(
    source: &str,
    id: &str,
    list: TopicField,
    op: ListOp<'_>,
) -> Result<Outcome, EditError> {
    let field = list.key();
    let doc = parse_document(source)?;
    let index = Index::build(source, &doc)?;
    let topic = require_topic(&doc, &index, id)?;
    let eol = doc_eol(source);
    let mut path = topic_path(id);
    path.push(field.to_owned());
    let key = path_repr(&path);
    let (change, summary) = match op {
        ListOp::Add(values) => {
            let c = crate::edit::lists::add(&doc, &index, &topic, field, values, eol)?;
            let summary = if c.done.is_empty() {
                format!("{} already in {key}: nothing changed", is_are(&c.skipped))
            } else if c.skipped.is_empty() {
                format!("added {} to {key}", quoted(&c.done))
            } else {
                format!(
                    "added {} to {key} ({} already there)",
                    quoted(&c.done),
                    was_were(&c.skipped)
                )
            };
            (c, summary)
        }
        ListOp::Remove(values) => {
            let c = crate::edit::lists::remove(&doc, &index, &topic, field, values)?;
            let summary = if c.done.is_empty() {
                format!("{} not in {key}: nothing changed", is_are(&c.skipped))
            } else if c.skipped.is_empty() {
                format!("removed {} from {key}", quoted(&c.done))
            } else {
                format!(
                    "removed {} from {key} ({} not there)",
                    quoted(&c.done),
                    was_were(&c.skipped)
                )
            };
            (c, summary)
        }
        ListOp::Replace(pattern, with) => {
            let c = crate::edit::lists::replace(&doc, &index, &topic, field, pattern, with, eol)?;
            let summary = if c.patch.is_none() {
                format!("`{pattern}` is not in {key}: nothing changed")
            } else if c.done.is_empty() {
                format!("removed `{pattern}` from {key}")
            } else {
                format!("replaced `{pattern}` in {key} by {}", quoted(&c.done))
            };
            (c, summary)
        }
    };
    let mut text = change.patch.map(|p: Patch| p.apply(source));
    // Adding may push a one-line array past the width limit; removing
    // only shortens it.
    if let (Some(t), ListOp::Add(_) | ListOp::Replace(..)) = (&text, op)
        && let Some(wrapped) = crate::edit::lists::wrap_long(t, id, field, eol)?
    {
        text = Some(wrapped);
    }
    Ok((text, summary))
}

fn field_edit(
    source: &str,
    id: &str,
    field: TopicField,
    value: Option<&FieldValue>,
) -> Result<Outcome, EditError> {
    let doc = parse_document(source)?;
    let index = Index::build(source, &doc)?;
    let topic = require_topic(&doc, &index, id)?;
    let mut path = topic_path(id);
    path.push(field.key().to_owned());
    let key = path_repr(&path);
    let shown = value.map(|v| match v {
        FieldValue::Bool(b) => b.to_string(),
        FieldValue::Text(s) => jp_kb_toml::strings::basic(s),
    });
    let change = match value {
        Some(v) => crate::edit::fields::set(&doc, &index, &topic, field, v, doc_eol(source))?,
        None => crate::edit::fields::unset(&doc, &index, &topic, field)?,
    };
    Ok(match (change, shown) {
        (FieldChange::Set(p), Some(v)) => (Some(p.apply(source)), format!("set {key} to {v}")),
        (FieldChange::Set(p), None) => (Some(p.apply(source)), format!("removed {key}")),
        (FieldChange::Unchanged, Some(v)) => {
            (None, format!("{key} is already {v}: nothing changed"))
        }
        (FieldChange::Unchanged, None) => (None, format!("{key} is not set: nothing changed")),
    })
}

fn quoted(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn is_are(values: &[String]) -> String {
    let verb = if values.len() == 1 { "is" } else { "are" };
    format!("{} {verb}", quoted(values))
}

fn was_were(values: &[String]) -> String {
    let verb = if values.len() == 1 { "was" } else { "were" };
    format!("{} {verb}", quoted(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_never_set_or_unset_as_one_value() {
        let source = "[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"a\"]\n";
        for edit in [
            Edit::SetField {
                topic: "t".into(),
                field: TopicField::Learned,
                value: FieldValue::Text("b".into()),
            },
            Edit::UnsetField {
                topic: "t".into(),
                field: TopicField::Disabled,
            },
        ] {
            let err = apply(source, &edit).expect_err("refused");
            assert!(err.to_string().contains("is a list"), "{err}");
        }
        let flag = Edit::SetField {
            topic: "t".into(),
            field: TopicField::Enable,
            value: FieldValue::Text("yes".into()),
        };
        let err = apply(source, &flag).expect_err("refused");
        assert!(err.to_string().contains("takes true or false"), "{err}");
    }
}
