//! Editing a topic's `learned` or `disabled` list, written either as a
//! plain array or in table form (`{ value = [...], strategy = ... }`,
//! where `value` is the array edited).

use toml_edit::{Document, Value};

use crate::edit::error::EditError;
use crate::edit::locate::{locate, parse_document};
use jp_kb_toml::array::ArrayText;
use jp_kb_toml::container::{
    Container, NewEntry, Node, container_at, insert, node_at, remove_leaf, type_name, wrong_type,
};
use jp_kb_toml::keys::path_repr;
use jp_kb_toml::patch::Patch;
use jp_kb_toml::strings::{Style, encode, style_of};
use jp_kb_toml::tree::{Host, Index, Leaf};
use jp_kb_toml::wrap::wrap_if_long;

/// Where the list lives.
enum ListSite<'i, 'd> {
    /// No array yet: add key `key` to `container`.
    Missing {
        container: Container,
        key: &'static str,
    },
    /// The array; `plain` unless it is the `value` of the table form.
    Array { leaf: &'i Leaf<'d>, plain: bool },
}

/// The outcome: a patch when something changed, the items acted on, and
/// the items skipped (already there / not there).
pub(crate) struct ListChange {
    pub patch: Option<Patch>,
    pub done: Vec<String>,
    pub skipped: Vec<String>,
}

fn target<'i, 'd>(
    doc: &Document<&str>,
    index: &'i Index<'d>,
    topic: &Container,
    field: &'static str,
) -> Result<ListSite<'i, 'd>, EditError> {
    let mut path = topic.path.clone();
    path.push(field.to_owned());
    match node_at(doc, index, &path)? {
        Node::Missing => Ok(ListSite::Missing {
            container: topic.clone(),
            key: field,
        }),
        Node::Value(Value::Array(_)) => array_leaf(index, &path, true),
        Node::Table(_) | Node::Inline(_) => {
            let container = container_at(doc, index, &path)?
                .ok_or_else(|| EditError::Internal("list table vanished".into()))?;
            path.push("value".to_owned());
            match node_at(doc, index, &path)? {
                Node::Missing => Ok(ListSite::Missing {
                    container,
                    key: "value",
                }),
                Node::Value(Value::Array(_)) => array_leaf(index, &path, false),
                _ => Err(wrong_type(index, &path, "an array of strings").into()),
            }
        }
        Node::Value(_) | Node::ArrayOfTables => {
            Err(wrong_type(index, &path, "an array of strings").into())
        }
    }
}

fn array_leaf<'i, 'd>(
    index: &'i Index<'d>,
    path: &[String],
    plain: bool,
) -> Result<ListSite<'i, 'd>, EditError> {
    let leaf = index
        .leaf_at(path)
        .ok_or_else(|| EditError::Internal("array not found".into()))?;
    Ok(ListSite::Array { leaf, plain })
}

/// The array's items as strings and as editable text.
fn read_array(index: &Index<'_>, leaf: &Leaf<'_>) -> Result<(Vec<String>, ArrayText), EditError> {
    let array = leaf
        .item
        .as_array()
        .ok_or_else(|| EditError::Internal("not an array".into()))?;
    let mut values = Vec::with_capacity(array.len());
    let mut spans = Vec::with_capacity(array.len());
    for (i, v) in array.iter().enumerate() {
        let span = v
            .span()
            .ok_or_else(|| EditError::Internal("array item without position".into()))?;
        let Some(s) = v.as_str() else {
            let (line, column) = jp_kb_toml::lines::line_col(index.src, span.start);
            return Err(EditError::WrongType {
                key: format!("{}[{i}]", path_repr(&leaf.path)),
                line,
                column,
                found: type_name(v),
                expected: "a string",
            });
        };
        values.push(s.to_owned());
        spans.push(span);
    }
    let text = ArrayText::parse(index.src, &leaf.value, &spans)
        .ok_or_else(|| EditError::Internal("cannot read the array's layout".into()))?;
    Ok((values, text))
}

/// Quoting for new items: literal when the array's last item is literal.
fn item_style(text: &ArrayText) -> Style {
    match text.items.last().map(|p| style_of(&p.value)) {
        Some(Style::Literal) => Style::Literal,
        _ => Style::Basic,
    }
}

fn dedup(values: &[String]) -> Vec<String> {
    crate::unique::keep_first(values.iter().cloned())
}

/// Appends the values not already in the list.
pub(crate) fn add(
    doc: &Document<&str>,
    index: &Index<'_>,
    topic: &Container,
    field: &'static str,
    values: &[String],
    eol: &str,
) -> Result<ListChange, EditError> {
    let wanted = dedup(values);
    match target(doc, index, topic, field)? {
        ListSite::Missing { container, key } => {
            let items: Vec<String> = wanted
                .iter()
                .map(|v| encode(v, Style::Basic, "", eol))
                .collect();
            let patch = (!wanted.is_empty())
                .then(|| {
                    let value = format!("[{}]", items.join(", "));
                    insert(
                        index,
                        &container,
                        &[NewEntry {
                            key: key.to_owned(),
                            value,
                        }],
                        eol,
                    )
                })
                .transpose()?;
            Ok(ListChange {
                patch,
                done: wanted,
                skipped: Vec::new(),
            })
        }
        ListSite::Array { leaf, .. } => {
            let (present, mut text) = read_array(index, leaf)?;
            let style = item_style(&text);
            let (skipped, done): (Vec<String>, Vec<String>) =
                wanted.into_iter().partition(|v| present.contains(v));
            for v in &done {
                text.push(encode(v, style, "", eol), eol);
            }
            Ok(ListChange {
                patch: (!done.is_empty()).then(|| Patch {
                    range: leaf.value.clone(),
                    text: text.render(),
                }),
                done,
                skipped,
            })
        }
    }
}

/// Removes every occurrence of each value. A plain array left empty (and
/// holding no comment) is removed with its key: `learned = []` and no
/// `learned` mean the same.
pub(crate) fn remove(
    doc: &Document<&str>,
    index: &Index<'_>,
    topic: &Container,
    field: &'static str,
    values: &[String],
) -> Result<ListChange, EditError> {
    let wanted = dedup(values);
    let ListSite::Array { leaf, plain } = target(doc, index, topic, field)? else {
        return Ok(ListChange {
            patch: None,
            done: Vec::new(),
            skipped: wanted,
        });
    };
    let (present, mut text) = read_array(index, leaf)?;
    let (done, skipped): (Vec<String>, Vec<String>) =
        wanted.into_iter().partition(|v| present.contains(v));
    for i in (0..present.len()).rev() {
        if done.contains(&present[i]) {
            text.remove(i);
        }
    }
    let patch = (!done.is_empty()).then(|| finish(index, leaf, plain, &text));
    Ok(ListChange {
        patch,
        done,
        skipped,
    })
}

fn finish(index: &Index<'_>, leaf: &Leaf<'_>, plain: bool, text: &ArrayText) -> Patch {
    if plain && text.items.is_empty() && !text.has_comment() {
        remove_leaf(index, leaf)
    } else {
        Patch {
            range: leaf.value.clone(),
            text: text.render(),
        }
    }
}

/// Replaces the first occurrence of `pattern` in place by `with` (minus
/// values the list already has); later occurrences are removed.
pub(crate) fn replace(
    doc: &Document<&str>,
    index: &Index<'_>,
    topic: &Container,
    field: &'static str,
    pattern: &str,
    with: &[String],
    eol: &str,
) -> Result<ListChange, EditError> {
    let ListSite::Array { leaf, plain } = target(doc, index, topic, field)? else {
        return Ok(not_there(pattern));
    };
    let (present, mut text) = read_array(index, leaf)?;
    let Some(first) = present.iter().position(|v| v == pattern) else {
        return Ok(not_there(pattern));
    };
    for i in (first + 1..present.len()).rev() {
        if present[i] == pattern {
            text.remove(i);
        }
    }
    let fresh: Vec<String> = dedup(with)
        .into_iter()
        .filter(|v| v != pattern && !present.contains(v))
        .collect();
    let style = match style_of(&text.items[first].value) {
        Style::Literal => Style::Literal,
        _ => Style::Basic,
    };
    if let Some((head, rest)) = fresh.split_first() {
        text.items[first].value = encode(head, style, "", eol);
        for (k, v) in rest.iter().enumerate() {
            text.insert_after(first + k, encode(v, style, "", eol), eol);
        }
    } else {
        text.remove(first);
    }
    Ok(ListChange {
        patch: Some(finish(index, leaf, plain, &text)),
        done: fresh,
        skipped: Vec::new(),
    })
}

/// After an edit that added items: the list's array rewritten one item
/// per line when it is on one line and too long (see `wrap`); `None`
/// when it is fine as it is.
pub(crate) fn wrap_long(
    source: &str,
    id: &str,
    field: &'static str,
    eol: &str,
) -> Result<Option<String>, EditError> {
    let doc = parse_document(source)?;
    let index = Index::build(source, &doc)?;
    let Some(topic) = locate(&doc, &index, id)? else {
        return Ok(None);
    };
    let ListSite::Array { leaf, .. } = target(&doc, &index, &topic, field)? else {
        return Ok(None);
    };
    // Inside `{ … }` the author chose one line for the whole table;
    // breaking the array would break the table across lines too.
    if !matches!(leaf.host, Host::Std(_)) {
        return Ok(None);
    }
    let (_, mut text) = read_array(&index, leaf)?;
    if !wrap_if_long(&index, leaf.value.start, &mut text, eol) {
        return Ok(None);
    }
    let patch = Patch {
        range: leaf.value.clone(),
        text: text.render(),
    };
    Ok(Some(patch.apply(source)))
}

fn not_there(pattern: &str) -> ListChange {
    ListChange {
        patch: None,
        done: Vec::new(),
        skipped: vec![pattern.to_owned()],
    }
}
