//! Where a fact's fields are in its file, as byte ranges, whichever
//! format it is in: [`FieldSpans`] is what a finding points at
//! (`confidence`'s value, the second id of `related`, the entry when the
//! field is missing).

use std::ops::Range;

/// The places of one entry's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSpans {
    /// What to point at when no field will do: an entry's first line (a
    /// YAML `- id: …`), an object's opening brace.
    pub head: Range<usize>,
    values: Vec<(String, Range<usize>)>,
    items: Vec<(String, Vec<Range<usize>>)>,
}

impl FieldSpans {
    /// Spans pointing at `head` only, until fields are added.
    pub fn new(head: Range<usize>) -> Self {
        Self {
            head,
            ..Self::default()
        }
    }

    /// Records where `key`'s value is (the first record of a key wins).
    pub fn set_value(&mut self, key: &str, span: Range<usize>) {
        if !self.values.iter().any(|(k, _)| k == key) {
            self.values.push((key.to_owned(), span));
        }
    }

    /// Records where the items of the list `key` are, in order.
    pub fn set_items(&mut self, key: &str, spans: Vec<Range<usize>>) {
        if !self.items.iter().any(|(k, _)| k == key) {
            self.items.push((key.to_owned(), spans));
        }
    }

    /// Where `key`'s value is, else the entry's head.
    pub fn value(&self, key: &str) -> Range<usize> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map_or_else(|| self.head.clone(), |(_, span)| span.clone())
    }

    /// Where item `i` of the list `key` is, else its value, else the head.
    pub fn item(&self, key: &str, i: usize) -> Range<usize> {
        self.items
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, spans)| spans.get(i).cloned())
            .unwrap_or_else(|| self.value(key))
    }
}
