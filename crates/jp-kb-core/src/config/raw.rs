//! A format-neutral tree of configuration values with line numbers.
//!
//! TOML, JSON, YAML layers and `--cfg key:=JSON` values are all converted to
//! [`RawNode`] first, so one interpreter (see `interpret.rs`) reads the `kb`
//! table the same way whatever the file format.

use std::convert::Infallible;

use jp_kb_toml::walk::{Node, Step, Visit, walk};
use serde_json::Value as Json;

/// One value of a configuration layer and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct RawNode {
    pub kind: RawKind,
    pub line: Option<u32>,
}

/// The shape of a [`RawNode`]. Only what the `kb` table can hold is kept
/// precisely; every other scalar is remembered by its type name so a type
/// error can say what was found.
#[derive(Debug, Clone, PartialEq)]
pub enum RawKind {
    Table(Vec<(String, RawNode)>),
    Array(Vec<RawNode>),
    String(String),
    Bool(bool),
    Other(&'static str),
}

impl RawNode {
    pub fn new(kind: RawKind, line: Option<u32>) -> Self {
        Self { kind, line }
    }

    /// A short name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            RawKind::Table(_) => "table",
            RawKind::Array(_) => "array",
            RawKind::String(_) => "string",
            RawKind::Bool(_) => "boolean",
            RawKind::Other(name) => name,
        }
    }

    /// The entry `key` of a table node.
    pub fn get(&self, key: &str) -> Option<&RawNode> {
        match &self.kind {
            RawKind::Table(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

pub use super::spans::LineIndex;

/// A node being built while the walk is inside it.
struct Open {
    /// Its key in the parent table; `None` for an array item.
    name: Option<String>,
    node: RawNode,
    /// What its children are, for their line when they have no span.
    holds: Holds,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// A table's entries: each on its key's line.
    Entries,
    /// An inline table's entries: the key's line, else the table's.
    InlineEntries,
    /// Array items (or the tables of `[[...]]`): the array's line.
    Items,
}

/// Converts a parsed TOML document (with spans) into a [`RawNode`] tree,
/// from the one walk (`jp_kb_toml::walk`): nodes arrive parent first, so
/// an open node is closed into its parent when the walk leaves it.
pub fn from_toml(doc: &toml_edit::Document<String>) -> RawNode {
    let index = LineIndex::new(doc.raw());
    let line_of = |span: Option<std::ops::Range<usize>>| span.map(|s| index.line(s.start));
    let mut open = vec![Open {
        name: None,
        node: RawNode::new(RawKind::Table(Vec::new()), Some(1)),
        holds: Holds::Entries,
    }];
    let Ok(()) = walk(doc.as_table(), &mut |v: &Visit<'_, '_>| {
        close_to(&mut open, v.path.len());
        let (parent_line, parent_holds) = open
            .last()
            .map_or((None, Holds::Entries), |p| (p.node.line, p.holds));
        let key_line = line_of(v.key.and_then(toml_edit::Key::span));
        let own_line = line_of(v.node.span());
        let (kind, line, holds) = match v.node {
            // The tables of `[[...]]` have only their header's line.
            Node::Table(_) if parent_holds == Holds::Items => {
                (RawKind::Table(Vec::new()), own_line, Some(Holds::Entries))
            }
            Node::Table(_) => (
                RawKind::Table(Vec::new()),
                own_line.or(key_line),
                Some(Holds::Entries),
            ),
            Node::ArrayOfTables(_) => (
                RawKind::Array(Vec::new()),
                own_line.or(key_line),
                Some(Holds::Items),
            ),
            Node::Value(value) => {
                let fallback = match parent_holds {
                    Holds::Entries => key_line,
                    Holds::InlineEntries => key_line.or(parent_line),
                    Holds::Items => parent_line,
                };
                let (kind, holds) = value_kind(value);
                (kind, own_line.or(fallback), holds)
            }
        };
        let name = match v.path.last() {
            Some(Step::Key(k)) => Some((*k).to_owned()),
            _ => None,
        };
        let node = RawNode::new(kind, line);
        match (holds, open.last_mut()) {
            // A scalar holds nothing: it goes into its parent at once.
            (None, Some(parent)) => attach(parent, name, node),
            (holds, _) => open.push(Open {
                name,
                node,
                holds: holds.unwrap_or(Holds::Entries),
            }),
        }
        Ok::<_, Infallible>(true)
    });
    close_to(&mut open, 1);
    open.pop().map_or_else(
        || RawNode::new(RawKind::Table(Vec::new()), Some(1)),
        |root| root.node,
    )
}

/// A value's kind (arrays and inline tables empty: their items follow)
/// and what it holds (`None`: a scalar).
fn value_kind(value: &toml_edit::Value) -> (RawKind, Option<Holds>) {
    use toml_edit::Value;
    let kind = match value {
        Value::String(s) => RawKind::String(s.value().clone()),
        Value::Boolean(b) => RawKind::Bool(*b.value()),
        Value::Integer(_) => RawKind::Other("integer"),
        Value::Float(_) => RawKind::Other("float"),
        Value::Datetime(_) => RawKind::Other("datetime"),
        Value::Array(_) => return (RawKind::Array(Vec::new()), Some(Holds::Items)),
        Value::InlineTable(_) => {
            return (RawKind::Table(Vec::new()), Some(Holds::InlineEntries));
        }
    };
    (kind, None)
}

/// Closes open nodes into their parents until `depth` remain (the root is
/// depth 1: a node at path length `n` has its parent at depth `n`).
fn close_to(open: &mut Vec<Open>, depth: usize) {
    while open.len() > depth.max(1) {
        let Some(child) = open.pop() else { return };
        let Some(parent) = open.last_mut() else {
            return;
        };
        attach(parent, child.name, child.node);
    }
}

/// Puts a finished node into its parent: an entry of a table, an item of
/// an array. The walk names table entries by key and array items by
/// index, so no other pairing occurs.
fn attach(parent: &mut Open, name: Option<String>, node: RawNode) {
    match (&mut parent.node.kind, name) {
        (RawKind::Table(entries), Some(name)) => entries.push((name, node)),
        (RawKind::Array(items), None) => items.push(node),
        _ => {}
    }
}

/// Converts a JSON value (a JSON layer, or a `--cfg key:=JSON` value).
/// JSON carries no positions, so every line is `line`.
pub fn from_json(value: &Json, line: Option<u32>) -> RawNode {
    let kind = match value {
        Json::Null => RawKind::Other("null"),
        Json::Bool(b) => RawKind::Bool(*b),
        Json::Number(_) => RawKind::Other("number"),
        Json::String(s) => RawKind::String(s.clone()),
        Json::Array(items) => RawKind::Array(items.iter().map(|v| from_json(v, line)).collect()),
        Json::Object(map) => RawKind::Table(
            map.iter()
                .map(|(k, v)| (k.clone(), from_json(v, line)))
                .collect(),
        ),
    };
    RawNode::new(kind, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_lines_follow_keys_and_values() {
        let text = "# c\n[kb.topic.x]\nsubjects = \"a\"\nlearned = [\n  \"b\",\n]\n";
        let doc = toml_edit::Document::parse(text.to_owned()).expect("valid");
        let root = from_toml(&doc);
        let x = root
            .get("kb")
            .and_then(|k| k.get("topic"))
            .and_then(|t| t.get("x"));
        let x = x.expect("topic");
        assert_eq!(x.get("subjects").and_then(|n| n.line), Some(3));
        let learned = x.get("learned").expect("learned");
        assert_eq!(learned.line, Some(4));
        let RawKind::Array(items) = &learned.kind else {
            panic!("array expected")
        };
        assert_eq!(items[0].line, Some(5));
    }
}
