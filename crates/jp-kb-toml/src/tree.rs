//! A flat map of a parsed document: where every key-value and every table
//! header sits in the source text. `toml_edit` gives the spans of values
//! and of the last key segment; this adds where a (dotted) key starts,
//! which header or inline table holds it, and where each header's lines end.
//! The nodes come from the one walk ([`crate::walk`]); array items are
//! not leaves (an array is edited as a whole by [`crate::array`]).

use std::ops::Range;

use toml_edit::{Document, Key, Table, Value};

use crate::error::TomlError;
use crate::text::{line_end_incl, line_start, skip_blanks};
use crate::walk::{Node, Step, Visit, walk};

/// Where a key-value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// On its own line, under header `headers[i]` (`None`: before any header).
    Std(Option<usize>),
    /// Inside the braces of a (non-dotted) inline table.
    Inline {
        open: usize,
        close: usize,
        path_len: usize,
    },
}

/// A `[table]` or `[[array]]` header and the lines it owns.
#[derive(Debug, Clone)]
pub struct Header {
    pub path: Vec<String>,
    pub span: Range<usize>,
    /// Just past the line break of the last line holding one of its keys
    /// (or of the header line itself).
    pub region_end: usize,
    pub array: bool,
}

/// A key-value as written. Dotted tables are not leaves; inline tables
/// are leaves and their entries are leaves too.
#[derive(Debug, Clone)]
pub struct Leaf<'d> {
    pub path: Vec<String>,
    /// Start of the key as written (its first dotted segment).
    pub key_start: usize,
    /// The last key segment.
    pub key: Range<usize>,
    pub value: Range<usize>,
    pub host: Host,
    pub item: &'d Value,
}

pub struct Index<'d> {
    pub src: &'d str,
    pub headers: Vec<Header>,
    pub leaves: Vec<Leaf<'d>>,
}

/// The keys of a walk's path (the index of an array of tables left out:
/// its tables share the array's path).
fn keys_of(path: &[Step<'_>]) -> Vec<String> {
    path.iter()
        .filter_map(|step| match step {
            Step::Key(k) => Some((*k).to_owned()),
            Step::Index(_) => None,
        })
        .collect()
}

fn missing_span(what: &str) -> TomlError {
    TomlError::Internal(format!("the parser gave no position for {what}"))
}

impl<'d> Index<'d> {
    pub fn build(src: &'d str, doc: &'d Document<&'d str>) -> Result<Self, TomlError> {
        let mut index = Index {
            src,
            headers: Vec::new(),
            leaves: Vec::new(),
        };
        // `hosts[n]`: where the keys of the node open at path length `n`
        // are written (the walk gives a node before what it holds).
        let mut hosts = vec![Host::Std(None)];
        walk(doc.as_table(), &mut |v: &Visit<'_, 'd>| {
            hosts.truncate(v.path.len());
            let host = hosts.last().copied().unwrap_or(Host::Std(None));
            let inner = match v.node {
                // Its elements find their own header.
                Node::ArrayOfTables(_) => Some(host),
                Node::Table(table) => Some(index.table_host(table, v.path, host, v.is_item())?),
                Node::Value(value) => {
                    let path = keys_of(v.path);
                    let name = path.last().map_or("", String::as_str);
                    let key = v.key.ok_or_else(|| missing_span(name))?;
                    index.leaf(key, value, path, host)?
                }
            };
            if let Some(inner) = inner {
                hosts.push(inner);
            }
            Ok(inner.is_some())
        })?;
        index.find_key_starts()?;
        index.find_region_ends();
        Ok(index)
    }

    /// The host of a sub-table's keys: its own header, or (dotted and
    /// implicit tables) the enclosing one.
    fn table_host(
        &mut self,
        table: &Table,
        path: &[Step<'_>],
        host: Host,
        array: bool,
    ) -> Result<Host, TomlError> {
        if table.is_dotted() || (table.is_implicit() && !array) {
            return Ok(host);
        }
        let span = table.span().ok_or_else(|| missing_span("a table header"))?;
        self.headers.push(Header {
            path: keys_of(path),
            region_end: span.end,
            span,
            array,
        });
        Ok(Host::Std(Some(self.headers.len() - 1)))
    }

    /// Records a key-value as a leaf, and returns the host of what the
    /// walk should visit inside it: the entries of an inline table (a
    /// dotted one is no leaf: its entries share `host`). An array's items
    /// are not leaves: `None`, and the walk skips them.
    fn leaf(
        &mut self,
        key: &Key,
        value: &'d Value,
        path: Vec<String>,
        host: Host,
    ) -> Result<Option<Host>, TomlError> {
        if let Value::InlineTable(table) = value
            && table.is_dotted()
        {
            return Ok(Some(host));
        }
        let key_span = key.span().ok_or_else(|| missing_span("a key"))?;
        let value_span = value.span().ok_or_else(|| missing_span("a value"))?;
        let inner = match value {
            Value::InlineTable(_) => Some(Host::Inline {
                open: value_span.start,
                close: value_span.end - 1,
                path_len: path.len(),
            }),
            _ => None,
        };
        self.leaves.push(Leaf {
            path,
            key_start: key_span.start,
            key: key_span,
            value: value_span,
            host,
            item: value,
        });
        Ok(inner)
    }

    /// A std key starts its line; an inline entry starts after `{` or the
    /// comma following the previous entry.
    fn find_key_starts(&mut self) -> Result<(), TomlError> {
        let src = self.src;
        let mut order: Vec<usize> = (0..self.leaves.len()).collect();
        order.sort_by_key(|&i| self.leaves[i].key.start);
        let mut prev_in_host: std::collections::HashMap<usize, usize> =
            std::collections::HashMap::new();
        for i in order {
            match self.leaves[i].host {
                Host::Std(_) => {
                    let leaf = &mut self.leaves[i];
                    leaf.key_start = skip_blanks(src, line_start(src, leaf.key.start));
                }
                Host::Inline { open, .. } => {
                    let from = match prev_in_host.get(&open) {
                        Some(&prev) => {
                            let after = skip_blanks(src, self.leaves[prev].value.end);
                            if src.as_bytes().get(after) != Some(&b',') {
                                return Err(TomlError::Internal(
                                    "unexpected text between inline table entries".into(),
                                ));
                            }
                            after + 1
                        }
                        None => open + 1,
                    };
                    self.leaves[i].key_start = skip_blanks(src, from);
                    prev_in_host.insert(open, i);
                }
            }
        }
        Ok(())
    }

    fn find_region_ends(&mut self) {
        for h in &mut self.headers {
            h.region_end = line_end_incl(self.src, h.span.end);
        }
        for leaf in &self.leaves {
            if let Host::Std(Some(h)) = leaf.host {
                let end = line_end_incl(self.src, leaf.value.end);
                let header = &mut self.headers[h];
                header.region_end = header.region_end.max(end);
            }
        }
    }

    /// Number of path components given by the host (header path or the
    /// inline table's path) rather than by the key as written.
    pub fn host_path_len(&self, host: Host) -> usize {
        match host {
            Host::Std(None) => 0,
            Host::Std(Some(h)) => self.headers[h].path.len(),
            Host::Inline { path_len, .. } => path_len,
        }
    }

    /// The leaf at exactly `path`.
    pub fn leaf_at(&self, path: &[String]) -> Option<&Leaf<'d>> {
        self.leaves.iter().find(|l| l.path == path)
    }

    /// Byte ranges of the written segments of a leaf's key, checked
    /// against what the parser says the key is.
    pub fn segments(&self, leaf: &Leaf<'_>) -> Result<Vec<Range<usize>>, TomlError> {
        let segs = crate::keys::segments(self.src, leaf.key_start)
            .ok_or_else(|| TomlError::Internal("cannot read a key".into()))?;
        let expected = leaf.path.len() - self.host_path_len(leaf.host);
        if segs.len() != expected || segs.last() != Some(&leaf.key) {
            return Err(TomlError::Internal(format!(
                "key at byte {} has {} segments, expected {expected}",
                leaf.key_start,
                segs.len()
            )));
        }
        Ok(segs)
    }
}
