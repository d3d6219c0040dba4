//! Byte spans of the keys and values of a TOML file, for pointing at them.
//!
//! The engine's [`Origin`](super::Origin) remembers a line; a diagnostic
//! wants the column too, and the extent to underline. [`TomlSpans`]
//! re-parses a file with `toml_edit::Document` (which keeps spans) and
//! answers "where is key `kb.topic.x.learned`" or "where is the item
//! `"foo"` of that array on line 7". It is read-only and changes nothing
//! about how configuration is loaded.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::ops::Range;

use jp_kb_toml::walk::{Node, Step, Visit, walk};

pub use jp_kb_toml::lines::{LineIndex, line_span_in, position_of};

/// One step of a key path: a table key, or an index into an array (or an
/// array of tables).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathPart {
    Key(String),
    Index(usize),
}

/// One key or array item of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanEntry {
    pub path: Vec<PathPart>,
    /// The key as written (`learnd` in `learnd = 1`, `x` in `[kb.topic.x]`);
    /// `None` for array items.
    pub key: Option<Range<usize>>,
    /// The value as written (quotes and brackets included); for a table
    /// with a header, the header.
    pub value: Option<Range<usize>>,
    /// The value when it is a string.
    pub string: Option<String>,
}

impl SpanEntry {
    /// The keys joined with `.` and array indices as `[i]`
    /// (`kb.topic.x.learned[0]`), the way the engine names keys in
    /// messages.
    pub fn dotted(&self) -> String {
        let mut out = String::new();
        for part in &self.path {
            match part {
                PathPart::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                PathPart::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }

    /// The keys of the path, array indices left out.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.path.iter().filter_map(|p| match p {
            PathPart::Key(k) => Some(k.as_str()),
            PathPart::Index(_) => None,
        })
    }

    /// The keys joined with `.`, array indices left out
    /// (`kb.topic.x.learned` for every item of that array).
    pub fn key_path(&self) -> String {
        self.keys().collect::<Vec<_>>().join(".")
    }

    /// Whether this is an array item (rather than a key).
    pub fn is_item(&self) -> bool {
        matches!(self.path.last(), Some(PathPart::Index(_)))
    }
}

/// Every key and array item of a TOML document with its spans, in document
/// order of the parsed tree, indexed by key path so that pointing at one of
/// 100k `learned` items does not scan the other 99,999.
#[derive(Debug, Clone)]
pub struct TomlSpans {
    text: String,
    lines: LineIndex,
    entries: Vec<SpanEntry>,
    by_key_path: HashMap<String, KeyPathEntries>,
}

/// The entries (indices, in document order) of one key path.
#[derive(Debug, Clone, Default)]
struct KeyPathEntries {
    keys: Vec<usize>,
    items: Vec<usize>,
    items_by_string: HashMap<String, Vec<usize>>,
}

impl TomlSpans {
    /// Parses `text`; `None` when it is not valid TOML.
    pub fn parse(text: &str) -> Option<Self> {
        let doc = toml_edit::Document::parse(text.to_owned()).ok()?;
        let entries = span_entries(&doc);
        let mut by_key_path: HashMap<String, KeyPathEntries> = HashMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let slot = by_key_path.entry(entry.key_path()).or_default();
            if entry.is_item() {
                slot.items.push(i);
                if let Some(string) = &entry.string {
                    slot.items_by_string
                        .entry(string.clone())
                        .or_default()
                        .push(i);
                }
            } else {
                slot.keys.push(i);
            }
        }
        Some(Self {
            text: text.to_owned(),
            lines: LineIndex::new(text),
            entries,
            by_key_path,
        })
    }

    /// The line index of the text.
    pub fn lines(&self) -> &LineIndex {
        &self.lines
    }

    /// The entries whose [`SpanEntry::key_path`] is `key_path`: array items
    /// when `items`, else keys; in document order.
    pub fn with_key_path(&self, key_path: &str, items: bool) -> Vec<&SpanEntry> {
        self.by_key_path
            .get(key_path)
            .map_or_else(Vec::new, |slot| {
                let indices = if items { &slot.items } else { &slot.keys };
                indices.iter().map(|&i| &self.entries[i]).collect()
            })
    }

    /// The string items `value` of the arrays at any of `key_paths`, in
    /// document order.
    pub fn items_with(&self, key_paths: &[&str], value: &str) -> Vec<&SpanEntry> {
        let mut indices: Vec<usize> = key_paths
            .iter()
            .filter_map(|k| self.by_key_path.get(*k))
            .filter_map(|slot| slot.items_by_string.get(value))
            .flatten()
            .copied()
            .collect();
        indices.sort_unstable();
        indices.dedup();
        indices.into_iter().map(|i| &self.entries[i]).collect()
    }

    pub fn entries(&self) -> &[SpanEntry] {
        &self.entries
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The entry whose key path is exactly `keys` (no array indices).
    pub fn find(&self, keys: &[&str]) -> Option<&SpanEntry> {
        self.entries.iter().find(|e| {
            !e.path.iter().any(|p| matches!(p, PathPart::Index(_)))
                && e.keys().eq(keys.iter().copied())
        })
    }

    /// The entry whose [`SpanEntry::dotted`] name is `dotted`, preferring
    /// one that starts on `line` (1-based) when given.
    pub fn find_dotted(&self, dotted: &str, line: Option<u32>) -> Option<&SpanEntry> {
        let mut matching = self.entries.iter().filter(|e| e.dotted() == dotted);
        match line {
            Some(line) => {
                let all: Vec<&SpanEntry> = matching.collect();
                all.iter()
                    .find(|e| self.entry_line(e) == Some(line))
                    .or_else(|| all.first())
                    .copied()
            }
            None => matching.next(),
        }
    }

    /// The string item `value` of an array whose keys start with `keys`
    /// (`learned = [...]` as well as `learned = { value = [...] }`),
    /// preferring one that starts on `line` when given.
    pub fn find_item(&self, keys: &[&str], value: &str, line: Option<u32>) -> Option<&SpanEntry> {
        let candidates: Vec<&SpanEntry> = self
            .entries
            .iter()
            .filter(|e| {
                e.is_item()
                    && e.string.as_deref() == Some(value)
                    && e.keys().take(keys.len()).eq(keys.iter().copied())
            })
            .collect();
        line.and_then(|line| {
            candidates
                .iter()
                .find(|e| self.entry_line(e) == Some(line))
                .copied()
        })
        .or_else(|| candidates.first().copied())
    }

    /// Entries that start on `line`.
    pub fn on_line(&self, line: u32) -> impl Iterator<Item = &SpanEntry> {
        self.entries
            .iter()
            .filter(move |e| self.entry_line(e) == Some(line))
    }

    /// The line an entry starts on (its key, else its value).
    pub fn entry_line(&self, entry: &SpanEntry) -> Option<u32> {
        entry
            .key
            .as_ref()
            .or(entry.value.as_ref())
            .map(|r| self.position(r.start).0)
    }

    /// The 1-based line and column of a byte offset; the column counts
    /// characters, not bytes.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        self.lines.position(&self.text, offset)
    }
}

/// Every node of the document as a [`SpanEntry`], in the order of the
/// one walk (`jp_kb_toml::walk`).
fn span_entries(doc: &toml_edit::Document<String>) -> Vec<SpanEntry> {
    let mut out = Vec::new();
    let Ok(()) = walk(doc.as_table(), &mut |v: &Visit<'_, '_>| {
        out.push(SpanEntry {
            path: v
                .path
                .iter()
                .map(|step| match step {
                    Step::Key(k) => PathPart::Key((*k).to_owned()),
                    Step::Index(i) => PathPart::Index(*i),
                })
                .collect(),
            key: v.key.and_then(toml_edit::Key::span),
            value: v.node.span(),
            string: match v.node {
                Node::Value(value) => value.as_str().map(str::to_owned),
                Node::Table(_) | Node::ArrayOfTables(_) => None,
            },
        });
        Ok::<_, Infallible>(true)
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
# comment
kb.topic.other.disabled = { value = [\"x\"], strategy = \"append\" }
[kb.topic.project]
title = \"Project\"
learned = [
  \"a\",
  \"é/b\",
]
learnd = 1
";

    fn slice<'a>(text: &'a str, range: Option<&Range<usize>>) -> &'a str {
        range.map_or("", |r| &text[r.clone()])
    }

    #[test]
    fn finds_keys_values_and_items() {
        let spans = TomlSpans::parse(TEXT).expect("valid");
        let title = spans
            .find(&["kb", "topic", "project", "title"])
            .expect("title");
        assert_eq!(slice(TEXT, title.key.as_ref()), "title");
        assert_eq!(slice(TEXT, title.value.as_ref()), "\"Project\"");
        assert_eq!(spans.entry_line(title), Some(4));

        let item = spans
            .find_item(&["kb", "topic", "project", "learned"], "é/b", None)
            .expect("item");
        assert_eq!(slice(TEXT, item.value.as_ref()), "\"é/b\"");
        assert_eq!(item.dotted(), "kb.topic.project.learned[1]");
        let start = item.value.as_ref().map_or(0, |r| r.start);
        assert_eq!(spans.position(start), (7, 3));

        let unknown = spans
            .find_dotted("kb.topic.project.learnd", Some(9))
            .expect("unknown key");
        assert_eq!(slice(TEXT, unknown.key.as_ref()), "learnd");
    }

    #[test]
    fn header_and_dotted_topics_have_key_spans() {
        let spans = TomlSpans::parse(TEXT).expect("valid");
        let project = spans.find(&["kb", "topic", "project"]).expect("header");
        assert_eq!(slice(TEXT, project.key.as_ref()), "project");
        assert_eq!(spans.entry_line(project), Some(3));
        let other = spans.find(&["kb", "topic", "other"]).expect("dotted");
        assert_eq!(slice(TEXT, other.key.as_ref()), "other");
        assert_eq!(spans.entry_line(other), Some(2));
        let x = spans
            .find_item(&["kb", "topic", "other", "disabled"], "x", Some(2))
            .expect("table form item");
        assert_eq!(x.dotted(), "kb.topic.other.disabled.value[0]");
        assert_eq!(slice(TEXT, x.value.as_ref()), "\"x\"");
    }

    #[test]
    fn positions_count_characters() {
        assert_eq!(position_of("é = 1\nab", 3), (1, 3));
        assert_eq!(position_of("é = 1\nab", 8), (2, 2));
        let text = "ab\ncd";
        assert_eq!(LineIndex::new(text).offset(text, 2, 2), 4);
        assert_eq!(line_span_in("a\n  b c  \n", 2), Some(4..7));
        assert!(TomlSpans::parse("a = ").is_none());
    }

    #[test]
    fn entries_are_found_by_key_path_and_item() {
        let spans = TomlSpans::parse(TEXT).expect("valid");
        let learned = spans.with_key_path("kb.topic.project.learned", true);
        assert_eq!(learned.len(), 2);
        assert_eq!(
            spans.with_key_path("kb.topic.project.learned", false).len(),
            1
        );
        let items = spans.items_with(
            &["kb.topic.other.disabled", "kb.topic.other.disabled.value"],
            "x",
        );
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].dotted(), "kb.topic.other.disabled.value[0]");
        assert!(spans.items_with(&["kb.nope"], "x").is_empty());
    }
}
