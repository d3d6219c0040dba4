//! Table-like things a key can be added to or removed from, in the
//! spelling the file uses: a `[header]` table, dotted keys (`x.title = …`,
//! inside a header's lines or inside braces), an inline table, or an
//! implicit table that only exists through sub-table headers.

use std::ops::Range;

use toml_edit::{Document, InlineTable, Item, Table, Value};

use crate::error::TomlError;
use crate::keys::path_repr;
use crate::patch::Patch;
use crate::text::{bom_len, first_break, is_blank, line_end_incl, line_start};
use crate::tree::{Host, Index, Leaf};

/// What sits at a path of the document.
pub enum Node<'d> {
    Table(&'d Table),
    Inline(&'d InlineTable),
    Value(&'d Value),
    ArrayOfTables,
    Missing,
}

/// Walks `path` from the root. An ancestor that is not a table is an
/// error naming that ancestor.
pub fn node_at<'d>(
    doc: &'d Document<&'d str>,
    index: &Index<'_>,
    path: &[String],
) -> Result<Node<'d>, TomlError> {
    let mut node = Node::Table(doc.as_table());
    for (depth, name) in path.iter().enumerate() {
        node = match node {
            Node::Table(t) => match t.get(name) {
                None | Some(Item::None) => return Ok(Node::Missing),
                Some(Item::Table(t)) => Node::Table(t),
                Some(Item::Value(Value::InlineTable(t))) => Node::Inline(t),
                Some(Item::Value(v)) => Node::Value(v),
                Some(Item::ArrayOfTables(_)) => Node::ArrayOfTables,
            },
            Node::Inline(t) => match t.get(name) {
                None => return Ok(Node::Missing),
                Some(Value::InlineTable(t)) => Node::Inline(t),
                Some(v) => Node::Value(v),
            },
            Node::Value(_) | Node::ArrayOfTables => {
                return Err(wrong_type(index, &path[..depth], "a table"));
            }
            Node::Missing => return Ok(Node::Missing),
        };
    }
    Ok(node)
}

/// "`kb.topic.x` at line L, column C is an integer, expected a table".
pub fn wrong_type(index: &Index<'_>, path: &[String], expected: &'static str) -> TomlError {
    let (found, pos) = if let Some(leaf) = index.leaf_at(path) {
        (type_name(leaf.item), leaf.key_start)
    } else if let Some(h) = index.headers.iter().find(|h| h.path == path) {
        (
            if h.array {
                "an array of tables"
            } else {
                "a table"
            },
            h.span.start,
        )
    } else {
        ("something else", 0)
    };
    let (line, column) = crate::lines::line_col(index.src, pos);
    TomlError::WrongType {
        key: path_repr(path),
        line,
        column,
        found,
        expected,
    }
}

pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date-time",
        Value::Array(_) => "an array",
        Value::InlineTable(_) => "an inline table",
    }
}

/// How a table-like thing is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `[a.b]`, index into `Index::headers`.
    Header(usize),
    /// Keys written `x.key = …` on the lines or in the braces of `host`.
    Dotted(Host),
    /// `x = { … }`: the braces at `open`/`close`.
    Inline { open: usize, close: usize },
    /// Only exists because of `[x.sub]` headers.
    Implicit,
}

#[derive(Debug, Clone)]
pub struct Container {
    pub path: Vec<String>,
    pub kind: Kind,
}

/// The container at `path`, `None` when absent, an error when something
/// that is not a table is there.
pub fn container_at(
    doc: &Document<&str>,
    index: &Index<'_>,
    path: &[String],
) -> Result<Option<Container>, TomlError> {
    let kind = match node_at(doc, index, path)? {
        Node::Missing => return Ok(None),
        Node::Table(t) if t.is_dotted() => Kind::Dotted(dotted_host(index, path)?),
        Node::Table(t) if t.is_implicit() => Kind::Implicit,
        Node::Table(_) => {
            let h = index
                .headers
                .iter()
                .position(|h| !h.array && h.path == path)
                .ok_or_else(|| TomlError::Internal("table header not found".into()))?;
            Kind::Header(h)
        }
        Node::Inline(t) if t.is_dotted() => Kind::Dotted(dotted_host(index, path)?),
        Node::Inline(_) => {
            let leaf = index
                .leaf_at(path)
                .ok_or_else(|| TomlError::Internal("inline table not found".into()))?;
            Kind::Inline {
                open: leaf.value.start,
                close: leaf.value.end - 1,
            }
        }
        Node::Value(_) | Node::ArrayOfTables => return Err(wrong_type(index, path, "a table")),
    };
    Ok(Some(Container {
        path: path.to_vec(),
        kind,
    }))
}

fn dotted_host(index: &Index<'_>, path: &[String]) -> Result<Host, TomlError> {
    index
        .leaves
        .iter()
        .find(|l| l.path.starts_with(path) && index.host_path_len(l.host) < path.len())
        .map(|l| l.host)
        .ok_or_else(|| TomlError::Internal("dotted table without keys".into()))
}

/// Leaves written directly in the container's lines or braces.
pub fn direct_leaves<'i, 'd>(index: &'i Index<'d>, c: &Container) -> Vec<&'i Leaf<'d>> {
    let mut leaves: Vec<_> = index
        .leaves
        .iter()
        .filter(|l| {
            l.path.len() > c.path.len()
                && l.path.starts_with(&c.path)
                && match c.kind {
                    Kind::Header(h) => l.host == Host::Std(Some(h)),
                    Kind::Dotted(host) => l.host == host,
                    Kind::Inline { open, .. } => {
                        matches!(l.host, Host::Inline { open: o, .. } if o == open)
                    }
                    Kind::Implicit => false,
                }
        })
        .collect();
    leaves.sort_by_key(|l| l.key_start);
    leaves
}

/// A new key-value for `insert`: key (relative to the container, one
/// segment, unquoted) and the value's source text.
pub struct NewEntry {
    pub key: String,
    pub value: String,
}

/// Adds entries at the end of the container, in its spelling: new lines
/// indented like its last key, dotted keys with the same prefix, or
/// `, key = value` before the closing brace.
pub fn insert(
    index: &Index<'_>,
    c: &Container,
    entries: &[NewEntry],
    eol: &str,
) -> Result<Patch, TomlError> {
    let src = index.src;
    let direct = direct_leaves(index, c);
    let anchor = direct.iter().max_by_key(|l| l.value.end).copied();
    let key_prefix = match (c.kind, anchor) {
        (Kind::Dotted(host), Some(a)) => {
            let segs = index.segments(a)?;
            let keep = c.path.len() - index.host_path_len(host);
            src[a.key_start..segs[keep].start].to_owned()
        }
        _ => String::new(),
    };
    let sep = anchor.map_or(" = ", |a| {
        let s = &src[a.key.end..a.value.start];
        if s.trim_matches([' ', '\t']) == "=" {
            s
        } else {
            " = "
        }
    });
    let render = |e: &NewEntry| {
        format!(
            "{key_prefix}{}{sep}{}",
            crate::keys::key_repr(&e.key),
            e.value
        )
    };
    match (c.kind, anchor) {
        (Kind::Inline { open, close }, None) => Ok(Patch {
            range: open + 1..close,
            text: format!(
                " {} ",
                entries.iter().map(render).collect::<Vec<_>>().join(", ")
            ),
        }),
        (Kind::Inline { .. } | Kind::Dotted(Host::Inline { .. }), Some(a)) => {
            let gap = inline_gap(index, a.host);
            let mut text = String::new();
            for e in entries {
                text.push(',');
                text.push_str(&gap);
                text.push_str(&render(e));
            }
            Ok(Patch {
                range: a.value.end..a.value.end,
                text,
            })
        }
        (Kind::Header(_) | Kind::Dotted(Host::Std(_)), Some(a)) => {
            let indent = &src[line_start(src, a.key_start)..a.key_start];
            let lines: Vec<String> = entries
                .iter()
                .map(|e| format!("{indent}{}", render(e)))
                .collect();
            Ok(insert_lines(
                src,
                line_end_incl(src, a.value.end),
                &lines,
                eol,
            ))
        }
        (Kind::Header(h), None) => {
            let lines: Vec<String> = entries.iter().map(render).collect();
            let at = line_end_incl(src, index.headers[h].span.end);
            Ok(insert_lines(src, at, &lines, eol))
        }
        (Kind::Implicit, _) => insert_header_before_subtables(index, c, entries, eol),
        (Kind::Dotted(_), None) => Err(TomlError::Internal("dotted table without keys".into())),
    }
}

/// What separates a comma from the next entry in this inline table.
fn inline_gap(index: &Index<'_>, host: Host) -> String {
    let mut entries: Vec<_> = index.leaves.iter().filter(|l| l.host == host).collect();
    entries.sort_by_key(|l| l.key_start);
    entries
        .windows(2)
        .find_map(|w| {
            let between = &index.src[w[0].value.end..w[1].key_start];
            let after = between.trim_start_matches([' ', '\t']).strip_prefix(',')?;
            is_blank(after).then(|| after.to_owned())
        })
        .unwrap_or_else(|| " ".to_owned())
}

/// Lines inserted at a line start `at`; at the very end of a file whose
/// last line has no break, the break goes before them instead, so the
/// file still ends without one.
fn insert_lines(src: &str, at: usize, lines: &[String], eol: &str) -> Patch {
    let break_first = at == src.len() && !src.is_empty() && !src.ends_with('\n');
    let mut text = String::new();
    for l in lines {
        if break_first {
            text.push_str(eol);
        }
        text.push_str(l);
        if !break_first {
            text.push_str(eol);
        }
    }
    Patch {
        range: at..at,
        text,
    }
}

/// An implicit table gets its own header, right before its first
/// sub-table header, spelled like that header.
fn insert_header_before_subtables(
    index: &Index<'_>,
    c: &Container,
    entries: &[NewEntry],
    eol: &str,
) -> Result<Patch, TomlError> {
    let src = index.src;
    let first = index
        .headers
        .iter()
        .filter(|h| h.path.len() > c.path.len() && h.path.starts_with(&c.path))
        .min_by_key(|h| h.span.start)
        .ok_or_else(|| TomlError::Internal("implicit table without sub-tables".into()))?;
    let open = first.span.start + if first.array { 2 } else { 1 };
    let segs = crate::keys::segments(src, open)
        .filter(|s| s.len() == first.path.len())
        .ok_or_else(|| TomlError::Internal("cannot read a table header".into()))?;
    let name = &src[segs[0].start..segs[c.path.len() - 1].end];
    let mut text = format!("[{name}]{eol}");
    for e in entries {
        text.push_str(&crate::keys::key_repr(&e.key));
        text.push_str(" = ");
        text.push_str(&e.value);
        text.push_str(eol);
    }
    // A blank line keeps the new table apart from the sub-table.
    text.push_str(eol);
    let at = line_start(src, first.span.start);
    Ok(Patch {
        range: at..at,
        text,
    })
}

/// Deletes one key-value: its whole line(s) when written on lines (a
/// comment on those lines goes too, comment lines around stay), or the
/// entry and one comma when inside braces.
pub fn remove_leaf(index: &Index<'_>, leaf: &Leaf<'_>) -> Patch {
    let src = index.src;
    let range = match leaf.host {
        Host::Std(_) => lines_range(
            src,
            line_start(src, leaf.key_start),
            line_end_incl(src, leaf.value.end),
        ),
        Host::Inline { open, close, .. } => {
            let mut siblings: Vec<_> = index
                .leaves
                .iter()
                .filter(|l| l.host == leaf.host)
                .collect();
            siblings.sort_by_key(|l| l.key_start);
            let at = siblings.iter().position(|l| l.key_start == leaf.key_start);
            match at {
                Some(i) if i > 0 => siblings[i - 1].value.end..leaf.value.end,
                Some(i) if i + 1 < siblings.len() => leaf.key_start..siblings[i + 1].key_start,
                _ => open + 1..close,
            }
        }
    };
    Patch {
        range,
        text: String::new(),
    }
}

/// Whole lines `[start, end)`; when they end the file without a final
/// line break, the break before them goes instead.
fn lines_range(src: &str, start: usize, end: usize) -> Range<usize> {
    if end == src.len() && !src.ends_with('\n') && start > bom_len(src) {
        let before = &src[..start];
        let cut = if before.ends_with("\r\n") { 2 } else { 1 };
        start - cut..end
    } else {
        start..end
    }
}

/// Deletes a header and the lines it owns, with the comment lines right
/// above the header (unless they open the file: then they are the file's),
/// plus one blank line above, so that the tables around keep a single
/// blank line between them.
pub fn remove_header(index: &Index<'_>, h: usize) -> Patch {
    let src = index.src;
    let header = &index.headers[h];
    let mut start = line_start(src, header.span.start);
    let mut end = header.region_end;
    let mut above = start;
    let bof = bom_len(src);
    while above > bof {
        let prev = line_start(src, above - 1);
        if src[prev..above].trim_start().starts_with('#') {
            above = prev;
        } else {
            break;
        }
    }
    if above > bof {
        start = above;
    }
    if start > bof {
        let prev = line_start(src, start - 1);
        if is_blank(&src[prev..start]) {
            start = prev;
        }
    } else if let Some((_, b)) = first_break(&src[end..])
        && is_blank(&src[end..end + b])
    {
        end += b;
    }
    Patch {
        range: lines_range(src, start, end),
        text: String::new(),
    }
}
