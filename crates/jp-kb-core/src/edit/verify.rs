//! The safety net under `apply`: the new text must parse, and must mean
//! the old text plus the edit — nothing more, nothing less. Meaning is
//! compared on plain values (JSON), so layout does not matter here; the
//! byte-level promise comes from splicing (see `patch`).

use serde_json::{Map, Value as J};
use toml_edit::{Document, Item, Value};

use crate::config::TopicField;
use crate::edit::error::EditError;
use crate::edit::kinds::{Edit, FieldValue, new_topic_fields};

pub(crate) fn check(old: &str, new: &str, edit: &Edit) -> Result<(), EditError> {
    let old_doc = Document::parse(old)
        .map_err(|e| EditError::Internal(format!("the input no longer parses: {}", e.message())))?;
    let new_doc = Document::parse(new).map_err(|e| {
        EditError::Internal(format!(
            "the result would not be valid TOML ({})",
            e.message().trim()
        ))
    })?;
    let mut expected = item_json(old_doc.as_item());
    expected_meaning(&mut expected, edit);
    let mut actual = item_json(new_doc.as_item());
    normalize(&mut expected);
    normalize(&mut actual);
    if expected == actual {
        Ok(())
    } else {
        Err(EditError::Internal(
            "the result would not mean what the edit asked for".into(),
        ))
    }
}

/// The plain value of a TOML item.
pub(crate) fn item_json(item: &Item) -> J {
    match item {
        Item::None => J::Null,
        Item::Value(v) => value_json(v),
        Item::Table(t) => J::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), item_json(v)))
                .collect(),
        ),
        Item::ArrayOfTables(a) => J::Array(
            a.iter()
                .map(|t| {
                    J::Object(
                        t.iter()
                            .map(|(k, v)| (k.to_owned(), item_json(v)))
                            .collect(),
                    )
                })
                .collect(),
        ),
    }
}

fn value_json(value: &Value) -> J {
    match value {
        Value::String(s) => J::String(s.value().clone()),
        Value::Integer(i) => J::from(*i.value()),
        Value::Float(f) => serde_json::Number::from_f64(*f.value())
            .map_or_else(|| J::String(format!("float:{}", f.value())), J::Number),
        Value::Boolean(b) => J::Bool(*b.value()),
        Value::Datetime(d) => J::String(format!("datetime:{}", d.value())),
        Value::Array(a) => J::Array(a.iter().map(value_json).collect()),
        Value::InlineTable(t) => J::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), value_json(v)))
                .collect(),
        ),
    }
}

fn topics(root: &mut J) -> &mut Map<String, J> {
    let map = as_object(root);
    let kb = as_object(map.entry("kb").or_insert_with(|| J::Object(Map::new())));
    as_object(kb.entry("topic").or_insert_with(|| J::Object(Map::new())))
}

fn as_object(v: &mut J) -> &mut Map<String, J> {
    if !v.is_object() {
        *v = J::Object(Map::new());
    }
    match v {
        J::Object(m) => m,
        _ => unreachable!("just made an object"),
    }
}

fn topic<'a>(root: &'a mut J, id: &str) -> &'a mut Map<String, J> {
    as_object(
        topics(root)
            .entry(id)
            .or_insert_with(|| J::Object(Map::new())),
    )
}

/// The array a list edit works on: the plain array or the table form's
/// `value`, created empty when missing.
fn list<'a>(root: &'a mut J, id: &str, field: TopicField) -> &'a mut Vec<J> {
    let t = topic(root, id);
    let slot = t.entry(field.key()).or_insert_with(|| J::Array(Vec::new()));
    let slot = if let J::Object(m) = slot {
        m.entry("value").or_insert_with(|| J::Array(Vec::new()))
    } else {
        slot
    };
    if !slot.is_array() {
        *slot = J::Array(Vec::new());
    }
    match slot {
        J::Array(a) => a,
        _ => unreachable!("just made an array"),
    }
}

fn strings(values: &[String]) -> Vec<J> {
    crate::unique::keep_first(values.iter().cloned())
        .into_iter()
        .map(J::String)
        .collect()
}

fn expected_meaning(root: &mut J, edit: &Edit) {
    match edit {
        // Not a splice: `ops::apply` never verifies it.
        Edit::WholeFile { .. } => {}
        Edit::AddLearned {
            topic: id,
            patterns: v,
        }
        | Edit::AddDisabled {
            topic: id,
            slugs: v,
        } => {
            let field = if matches!(edit, Edit::AddLearned { .. }) {
                TopicField::Learned
            } else {
                TopicField::Disabled
            };
            let list = list(root, id, field);
            for s in strings(v) {
                if !list.contains(&s) {
                    list.push(s);
                }
            }
        }
        Edit::RemoveLearned {
            topic: id,
            patterns: v,
        }
        | Edit::RemoveDisabled {
            topic: id,
            slugs: v,
        } => {
            let field = if matches!(edit, Edit::RemoveLearned { .. }) {
                TopicField::Learned
            } else {
                TopicField::Disabled
            };
            let gone = strings(v);
            list(root, id, field).retain(|s| !gone.contains(s));
        }
        Edit::ReplaceLearned {
            topic: id,
            pattern,
            with,
        } => {
            let list = list(root, id, TopicField::Learned);
            let p = J::String(pattern.clone());
            if let Some(first) = list.iter().position(|s| *s == p) {
                let fresh: Vec<J> = strings(with)
                    .into_iter()
                    .filter(|s| *s != p && !list.contains(s))
                    .collect();
                let mut seen = false;
                let old = std::mem::take(list);
                for (i, s) in old.into_iter().enumerate() {
                    if i == first {
                        list.extend(fresh.iter().cloned());
                        seen = true;
                    } else if !(seen && s == p) {
                        list.push(s);
                    }
                }
            }
        }
        Edit::AddTopic {
            id,
            subjects,
            title,
            introduction,
            description,
        } => {
            let t = topic(root, id);
            let fields = new_topic_fields(
                subjects,
                title.as_deref(),
                introduction.as_deref(),
                description.as_deref(),
            );
            for (field, v) in fields {
                if let Some(v) = v {
                    t.insert(field.key().to_owned(), J::String(v.to_owned()));
                }
            }
        }
        Edit::SetField {
            topic: id,
            field,
            value,
        } => {
            let v = match value {
                FieldValue::Text(s) => J::String(s.clone()),
                FieldValue::Bool(b) => J::Bool(*b),
            };
            topic(root, id).insert(field.key().to_owned(), v);
        }
        Edit::UnsetField { topic: id, field } => {
            topic(root, id).remove(field.key());
        }
        Edit::RemoveTopic { topic: id } => {
            topics(root).remove(id);
        }
    }
}

/// Erases differences that mean nothing: an empty plain `learned` or
/// `disabled` (same as none) and empty tables (jp-kb may drop or leave an
/// emptied implicit table).
fn normalize(root: &mut J) {
    if let Some(J::Object(topics)) = root.pointer_mut("/kb/topic") {
        for t in topics.values_mut() {
            if let J::Object(t) = t {
                for f in TopicField::LISTS.map(TopicField::key) {
                    if t.get(f)
                        .is_some_and(|v| v.as_array().is_some_and(Vec::is_empty))
                    {
                        t.remove(f);
                    }
                }
            }
        }
    }
    prune(root);
}

fn prune(v: &mut J) {
    match v {
        J::Object(m) => {
            for child in m.values_mut() {
                prune(child);
            }
            m.retain(|_, child| !child.as_object().is_some_and(Map::is_empty));
        }
        J::Array(a) => a.iter_mut().for_each(prune),
        _ => {}
    }
}
