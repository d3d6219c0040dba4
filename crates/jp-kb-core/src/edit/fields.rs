//! Setting and unsetting a topic's scalar fields (`title`,
//! `introduction`, `description`, `subjects`, `enable`). An existing value
//! is replaced in place, keeping its quoting style when it can; a missing
//! one is added at the end of the topic in the topic's own spelling.

use toml_edit::{Document, Value};

use crate::config::TopicField;
use crate::edit::error::EditError;
use crate::edit::kinds::FieldValue;
use jp_kb_toml::container::{Container, NewEntry, Node, insert, node_at, remove_leaf, wrong_type};
use jp_kb_toml::patch::Patch;
use jp_kb_toml::strings::{Style, encode, ml_lead_of, style_of};
use jp_kb_toml::tree::Index;

/// What happened to the field.
pub(crate) enum FieldChange {
    Set(Patch),
    Unchanged,
}

/// Source text for a value written where no value was.
pub(crate) fn new_value_text(value: &FieldValue, eol: &str) -> String {
    match value {
        FieldValue::Bool(b) => b.to_string(),
        FieldValue::Text(s) if s.contains('\n') => encode(s, Style::MlBasic, eol, eol),
        FieldValue::Text(s) => encode(s, Style::Basic, "", eol),
    }
}

pub(crate) fn set(
    doc: &Document<&str>,
    index: &Index<'_>,
    topic: &Container,
    field: TopicField,
    value: &FieldValue,
    eol: &str,
) -> Result<FieldChange, EditError> {
    let mut path = topic.path.clone();
    path.push(field.key().to_owned());
    let expected = field.expected();
    match (node_at(doc, index, &path)?, value) {
        (Node::Missing, _) => {
            let entry = NewEntry {
                key: field.key().to_owned(),
                value: new_value_text(value, eol),
            };
            Ok(FieldChange::Set(insert(index, topic, &[entry], eol)?))
        }
        (Node::Value(Value::String(old)), FieldValue::Text(new)) => {
            if old.value() == new {
                return Ok(FieldChange::Unchanged);
            }
            let leaf = index
                .leaf_at(&path)
                .ok_or_else(|| EditError::Internal("value not found".into()))?;
            let repr = &index.src[leaf.value.clone()];
            Ok(FieldChange::Set(Patch {
                range: leaf.value.clone(),
                text: encode(new, style_of(repr), ml_lead_of(repr), eol),
            }))
        }
        (Node::Value(Value::Boolean(old)), FieldValue::Bool(new)) => {
            if old.value() == new {
                return Ok(FieldChange::Unchanged);
            }
            let leaf = index
                .leaf_at(&path)
                .ok_or_else(|| EditError::Internal("value not found".into()))?;
            Ok(FieldChange::Set(Patch {
                range: leaf.value.clone(),
                text: new.to_string(),
            }))
        }
        _ => Err(wrong_type(index, &path, expected).into()),
    }
}

pub(crate) fn unset(
    doc: &Document<&str>,
    index: &Index<'_>,
    topic: &Container,
    field: TopicField,
) -> Result<FieldChange, EditError> {
    let mut path = topic.path.clone();
    path.push(field.key().to_owned());
    match node_at(doc, index, &path)? {
        Node::Missing => Ok(FieldChange::Unchanged),
        Node::Value(_) => {
            let leaf = index
                .leaf_at(&path)
                .ok_or_else(|| EditError::Internal("value not found".into()))?;
            Ok(FieldChange::Set(remove_leaf(index, leaf)))
        }
        Node::Table(_) | Node::Inline(_) | Node::ArrayOfTables => {
            Err(wrong_type(index, &path, field.expected()).into())
        }
    }
}
