//! A Facts file as read: the fields of its header (an `index.json`'s top
//! level, a YAML file's front matter) and of each fact entry, every field
//! with its place, and what could not be read. Nothing is judged here
//! (`check` does); only what is needed to judge it is kept.

use std::ops::Range;

use serde_json::{Map, Value};

use super::spans::FieldSpans;

/// Which of the format's two layers a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactsKind {
    /// `index.json`: `version`, `last_updated`, `total_facts`, `facts`.
    Index,
    /// A YAML knowledge file: front matter (`domain`, `category`,
    /// `version`, `last_updated`), then Markdown with fact entries.
    Yaml,
}

/// One fact entry.
#[derive(Debug, Clone)]
pub struct Fact {
    /// Its fields as written (YAML read as JSON values).
    pub fields: Map<String, Value>,
    /// Where they are.
    pub spans: FieldSpans,
    /// Its `domain`, or the file's (a YAML entry inherits it).
    pub domain: Option<String>,
    /// Its `category`, or the file's.
    pub category: Option<String>,
    /// Whether `category` came from the file's front matter.
    pub inherits_category: bool,
}

impl Fact {
    /// Its `id`, when it is a string.
    pub fn id(&self) -> Option<&str> {
        self.fields.get("id").and_then(Value::as_str)
    }
}

/// What could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, one sentence.
    pub message: String,
    /// Where.
    pub span: Range<usize>,
}

/// A Facts file as read.
#[derive(Debug, Clone)]
pub struct FactsFile {
    /// `index.json` or a YAML file.
    pub kind: FactsKind,
    /// The header's fields (front matter; the index's top level, without
    /// `facts`).
    pub header: Map<String, Value>,
    /// Where the header's fields are (`head`: the file's start).
    pub header_spans: FieldSpans,
    /// The fact entries, in file order.
    pub facts: Vec<Fact>,
    /// What could not be read (syntax, an entry that is no mapping).
    pub problems: Vec<Problem>,
}

impl FactsFile {
    /// An empty file of `kind`, its header pointing at `head`.
    pub(crate) fn new(kind: FactsKind, head: Range<usize>) -> Self {
        Self {
            kind,
            header: Map::new(),
            header_spans: FieldSpans::new(head),
            facts: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// A string field of the header.
    pub fn header_str(&self, key: &str) -> Option<&str> {
        self.header.get(key).and_then(Value::as_str)
    }
}
