//! A format-neutral tree of configuration values with line numbers.
//!
//! TOML, JSON, YAML layers and `--cfg key:=JSON` values are all converted to
//! [`RawNode`] first, so one interpreter (see `interpret.rs`) reads the `kb`
//! table the same way whatever the file format.

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

/// Converts a parsed TOML document (with spans) into a [`RawNode`] tree.
pub fn from_toml(doc: &toml_edit::Document<String>) -> RawNode {
    let index = LineIndex::new(doc.raw());
    table_node(doc.as_table().iter(), doc.as_table(), &index, Some(1))
}

fn table_node<'a>(
    entries: impl Iterator<Item = (&'a str, &'a toml_edit::Item)>,
    table: &toml_edit::Table,
    index: &LineIndex,
    line: Option<u32>,
) -> RawNode {
    let mut out = Vec::new();
    for (key, item) in entries {
        let key_line = table
            .key(key)
            .and_then(toml_edit::Key::span)
            .map(|s| index.line(s.start));
        out.push((key.to_owned(), item_node(item, index, key_line)));
    }
    RawNode::new(RawKind::Table(out), line)
}

fn item_node(item: &toml_edit::Item, index: &LineIndex, key_line: Option<u32>) -> RawNode {
    let own_line = item.span().map(|s| index.line(s.start));
    match item {
        toml_edit::Item::None => RawNode::new(RawKind::Other("nothing"), key_line),
        toml_edit::Item::Table(table) => {
            table_node(table.iter(), table, index, own_line.or(key_line))
        }
        toml_edit::Item::ArrayOfTables(array) => {
            let items = array
                .iter()
                .map(|t| table_node(t.iter(), t, index, t.span().map(|s| index.line(s.start))))
                .collect();
            RawNode::new(RawKind::Array(items), own_line.or(key_line))
        }
        toml_edit::Item::Value(value) => value_node(value, index, key_line),
    }
}

fn value_node(value: &toml_edit::Value, index: &LineIndex, key_line: Option<u32>) -> RawNode {
    use toml_edit::Value;
    let line = value.span().map(|s| index.line(s.start)).or(key_line);
    let kind = match value {
        Value::String(s) => RawKind::String(s.value().clone()),
        Value::Boolean(b) => RawKind::Bool(*b.value()),
        Value::Integer(_) => RawKind::Other("integer"),
        Value::Float(_) => RawKind::Other("float"),
        Value::Datetime(_) => RawKind::Other("datetime"),
        Value::Array(array) => {
            RawKind::Array(array.iter().map(|v| value_node(v, index, line)).collect())
        }
        Value::InlineTable(table) => {
            let mut out = Vec::new();
            for (key, v) in table {
                let kl = table
                    .key(key)
                    .and_then(toml_edit::Key::span)
                    .map(|s| index.line(s.start))
                    .or(line);
                out.push((key.to_owned(), value_node(v, index, kl)));
            }
            RawKind::Table(out)
        }
    };
    RawNode::new(kind, line)
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
