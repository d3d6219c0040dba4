//! Adding and removing whole topics. A new topic becomes a
//! `[kb.topic.<id>]` table after the file's last line of content (or an
//! entry of `kb.topic` when that is an inline table, where no header may
//! go). Removing a topic removes every line and entry that defines it.

use crate::config::TopicField;
use crate::edit::error::EditError;
use crate::edit::kinds::FieldValue;
use crate::edit::locate::{first_offset, locate, parse_document, topic_path};
use jp_kb_toml::container::{
    NewEntry, Node, container_at, insert, node_at, remove_header, remove_leaf, wrong_type,
};
use jp_kb_toml::keys::key_repr;
use jp_kb_toml::patch::Patch;
use jp_kb_toml::text::{doc_eol, line_end_incl};
use jp_kb_toml::tree::Index;

/// A new topic's fields ([`new_topic_fields`](crate::edit::kinds::new_topic_fields))
/// as new entries, the unset ones left out.
pub(crate) fn entries(fields: &[(TopicField, Option<&str>)], eol: &str) -> Vec<NewEntry> {
    fields
        .iter()
        .filter_map(|(field, v)| {
            v.map(|v| NewEntry {
                key: field.key().to_owned(),
                value: crate::edit::fields::new_value_text(&FieldValue::Text(v.to_owned()), eol),
            })
        })
        .collect()
}

pub(crate) fn add(source: &str, id: &str, entries: &[NewEntry]) -> Result<Patch, EditError> {
    let doc = parse_document(source)?;
    let index = Index::build(source, &doc)?;
    let eol = doc_eol(source);
    if let Some(c) = locate(&doc, &index, id)? {
        let (line, column) = jp_kb_toml::lines::line_col(source, first_offset(&index, &c));
        return Err(EditError::TopicExists {
            topic: id.to_owned(),
            line,
            column,
        });
    }
    let inline_value = || {
        let fields: Vec<String> = entries
            .iter()
            .map(|e| format!("{} = {}", key_repr(&e.key), e.value))
            .collect();
        format!("{{ {} }}", fields.join(", "))
    };
    let kb = vec!["kb".to_owned()];
    let kb_topic = vec!["kb".to_owned(), "topic".to_owned()];
    match node_at(&doc, &index, &kb_topic)? {
        Node::Inline(_) => {
            let c = container_at(&doc, &index, &kb_topic)?
                .ok_or_else(|| EditError::Internal("kb.topic vanished".into()))?;
            let entry = NewEntry {
                key: id.to_owned(),
                value: inline_value(),
            };
            return Ok(insert(&index, &c, &[entry], eol)?);
        }
        Node::Missing => {
            if let Node::Inline(_) = node_at(&doc, &index, &kb)? {
                let c = container_at(&doc, &index, &kb)?
                    .ok_or_else(|| EditError::Internal("kb vanished".into()))?;
                let entry = NewEntry {
                    key: "topic".to_owned(),
                    value: format!("{{ {} = {} }}", key_repr(id), inline_value()),
                };
                return Ok(insert(&index, &c, &[entry], eol)?);
            }
        }
        Node::Table(_) => {}
        Node::Value(_) | Node::ArrayOfTables => {
            return Err(wrong_type(&index, &kb_topic, "a table").into());
        }
    }
    let header = format!("kb.topic.{}", key_repr(id));
    Ok(append_table(source, &header, entries, eol))
}

/// `[<header>]` (a dotted key path, already in TOML spelling) and its keys
/// after the last line of content, one blank line after it; trailing blank
/// lines of the file stay last.
pub(crate) fn append_table(source: &str, header: &str, entries: &[NewEntry], eol: &str) -> Patch {
    let mut lines = vec![format!("[{header}]")];
    lines.extend(
        entries
            .iter()
            .map(|e| format!("{} = {}", key_repr(&e.key), e.value)),
    );
    let block = lines.join(eol);
    let bom = jp_kb_toml::text::bom_len(source);
    if source.len() == bom {
        return Patch {
            range: bom..bom,
            text: format!("{block}{eol}"),
        };
    }
    let content = source.trim_end_matches([' ', '\t', '\r', '\n']).len();
    let at = if content <= bom {
        source.len()
    } else {
        line_end_incl(source, content)
    };
    let text = if at == source.len() && !source.ends_with('\n') {
        format!("{eol}{eol}{block}")
    } else {
        format!("{eol}{block}{eol}")
    };
    Patch {
        range: at..at,
        text,
    }
}

/// Removes one piece of the topic per pass, re-reading the document in
/// between, until nothing defines it any more. `None` when it was absent.
pub(crate) fn remove(source: &str, id: &str) -> Result<Option<String>, EditError> {
    let path = topic_path(id);
    let mut text = source.to_owned();
    let mut changed = false;
    // Each pass deletes at least one key or header: bounded by the size.
    for _ in 0..=source.len() {
        let doc = parse_document(&text)?;
        let index = Index::build(&text, &doc)?;
        if locate(&doc, &index, id)?.is_none() {
            return Ok(changed.then_some(text));
        }
        let step = if let Some(leaf) = index.leaf_at(&path) {
            remove_leaf(&index, leaf)
        } else if let Some(h) = (0..index.headers.len())
            .filter(|&h| index.headers[h].path.starts_with(&path))
            .max_by_key(|&h| index.headers[h].span.start)
        {
            remove_header(&index, h)
        } else if let Some(leaf) = index
            .leaves
            .iter()
            .filter(|l| l.path.starts_with(&path))
            .max_by_key(|l| l.key_start)
        {
            remove_leaf(&index, leaf)
        } else {
            return Err(EditError::Internal("topic has nothing to remove".into()));
        };
        let next = step.apply(&text);
        drop(index);
        drop(doc);
        text = next;
        changed = true;
    }
    Err(EditError::Internal("topic removal did not finish".into()))
}
