//! The one walk over a parsed document: every table, array of tables,
//! key-value, array item and inline-table entry, in document-tree order
//! (a node before what it holds), with its path and the key as parsed.
//!
//! Three readers build on it: the splicer's [`Index`](crate::tree::Index)
//! (where keys and headers sit, to edit them), and in the core the
//! format-neutral configuration tree (`config::raw`, lines for messages)
//! and the span finder (`config::spans`, what `check` points at). Each
//! keeps only its own bookkeeping; which nodes exist, in which order, and
//! which key names them is decided here once.

use toml_edit::{ArrayOfTables, Key, Table, Value};

/// One step of a path: a key, or an index into an array or an array of
/// tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'d> {
    Key(&'d str),
    Index(usize),
}

/// What sits at a path.
#[derive(Debug, Clone, Copy)]
pub enum Node<'d> {
    /// A table: with a header, dotted, implicit, or one element of an
    /// array of tables.
    Table(&'d Table),
    /// `[[name]]` tables, as one node; its elements follow as `Table`s.
    ArrayOfTables(&'d ArrayOfTables),
    /// A value, arrays and inline tables included; their items and
    /// entries follow.
    Value(&'d Value),
}

impl Node<'_> {
    /// Where the node is written: a value as written (quotes and brackets
    /// included), a table's header.
    pub fn span(&self) -> Option<std::ops::Range<usize>> {
        match self {
            Node::Table(t) => t.span(),
            Node::ArrayOfTables(a) => a.span(),
            Node::Value(v) => v.span(),
        }
    }
}

/// One node met by [`walk`].
#[derive(Debug, Clone, Copy)]
pub struct Visit<'p, 'd> {
    /// From the document root to this node (its last step names it).
    pub path: &'p [Step<'d>],
    /// The key naming the node, whose span is the last key segment as
    /// written; `None` for array items and the elements of an array of
    /// tables.
    pub key: Option<&'d Key>,
    pub node: Node<'d>,
}

impl Visit<'_, '_> {
    /// Whether the node is an item of an array (or an element of an array
    /// of tables) rather than named by a key.
    pub fn is_item(&self) -> bool {
        matches!(self.path.last(), Some(Step::Index(_)))
    }
}

/// Visits every node under `root` in document-tree order. `visit` returns
/// whether to walk what the node holds (`false` skips an array's items,
/// say), or an error that ends the walk.
pub fn walk<'d, E>(
    root: &'d Table,
    visit: &mut impl FnMut(&Visit<'_, 'd>) -> Result<bool, E>,
) -> Result<(), E> {
    walk_table(root, &mut Vec::new(), visit)
}

fn walk_table<'d, E>(
    table: &'d Table,
    path: &mut Vec<Step<'d>>,
    visit: &mut impl FnMut(&Visit<'_, 'd>) -> Result<bool, E>,
) -> Result<(), E> {
    for (name, item) in table {
        path.push(Step::Key(name));
        let key = table.key(name);
        match item {
            toml_edit::Item::None => {}
            toml_edit::Item::Value(value) => walk_value(value, key, path, visit)?,
            toml_edit::Item::Table(sub) => {
                let node = Node::Table(sub);
                if visit(&Visit { path, key, node })? {
                    walk_table(sub, path, visit)?;
                }
            }
            toml_edit::Item::ArrayOfTables(array) => {
                let node = Node::ArrayOfTables(array);
                if visit(&Visit { path, key, node })? {
                    for (i, sub) in array.iter().enumerate() {
                        path.push(Step::Index(i));
                        let node = Node::Table(sub);
                        if visit(&Visit {
                            path,
                            key: None,
                            node,
                        })? {
                            walk_table(sub, path, visit)?;
                        }
                        path.pop();
                    }
                }
            }
        }
        path.pop();
    }
    Ok(())
}

fn walk_value<'d, E>(
    value: &'d Value,
    key: Option<&'d Key>,
    path: &mut Vec<Step<'d>>,
    visit: &mut impl FnMut(&Visit<'_, 'd>) -> Result<bool, E>,
) -> Result<(), E> {
    let node = Node::Value(value);
    if !visit(&Visit { path, key, node })? {
        return Ok(());
    }
    match value {
        Value::Array(array) => {
            for (i, item) in array.iter().enumerate() {
                path.push(Step::Index(i));
                walk_value(item, None, path, visit)?;
                path.pop();
            }
        }
        Value::InlineTable(table) => {
            for (name, item) in table {
                path.push(Step::Key(name));
                walk_value(item, table.key(name), path, visit)?;
                path.pop();
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::convert::Infallible;
    use std::fmt::Write as _;

    use super::*;

    fn walked(src: &str, into_arrays: bool) -> Vec<String> {
        let doc = toml_edit::Document::parse(src).unwrap();
        let mut out = Vec::new();
        walk(doc.as_table(), &mut |v: &Visit<'_, '_>| {
            let mut line = String::new();
            for step in v.path {
                match step {
                    Step::Key(k) => write!(line, ".{k}").unwrap(),
                    Step::Index(i) => write!(line, "[{i}]").unwrap(),
                }
            }
            let key = v.key.and_then(Key::span).map(|s| &src[s]);
            let what = v.node.span().map(|s| &src[s]);
            write!(line, " {key:?} {what:?}").unwrap();
            out.push(line);
            Ok::<_, Infallible>(into_arrays || !matches!(v.node, Node::Value(Value::Array(_))))
        })
        .unwrap();
        out
    }

    #[test]
    fn visits_every_node_before_what_it_holds() {
        let src = "a = [1, { b = 'x' }]\n[t]\nc.d = true\n[[u]]\ne = 2\n";
        assert_eq!(
            walked(src, true),
            [
                ".a Some(\"a\") Some(\"[1, { b = 'x' }]\")",
                ".a[0] None Some(\"1\")",
                ".a[1] None Some(\"{ b = 'x' }\")",
                ".a[1].b Some(\"b\") Some(\"'x'\")",
                ".t Some(\"t\") Some(\"[t]\")",
                ".t.c Some(\"c\") Some(\"c\")",
                ".t.c.d Some(\"d\") Some(\"true\")",
                ".u Some(\"u\") Some(\"[[u]]\")",
                ".u[0] None Some(\"[[u]]\")",
                ".u[0].e Some(\"e\") Some(\"2\")",
            ]
        );
        assert_eq!(walked(src, false).len(), 7);
    }
}
