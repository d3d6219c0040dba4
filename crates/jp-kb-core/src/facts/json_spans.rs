//! Where each value of a JSON document is, as byte ranges: `serde_json`
//! parses values without positions, and a finding about
//! `facts[3].confidence` of an `index.json` must point at that `1.5`.
//! The text is scanned only after `serde_json` accepted it, so the scanner
//! can assume valid JSON (and its depth limit of 128).

use std::ops::Range;

/// A value's place, and the places of what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spanned {
    /// An object: its members' keys with their key's and value's places.
    Object {
        /// The whole object.
        span: Range<usize>,
        /// `(key, key's range, value)`, in order.
        members: Vec<(String, Range<usize>, Spanned)>,
    },
    /// An array and its items.
    Array {
        /// The whole array.
        span: Range<usize>,
        /// Its items, in order.
        items: Vec<Spanned>,
    },
    /// A string, number, `true`, `false` or `null`.
    Scalar(Range<usize>),
}

impl Spanned {
    /// The places in `text`, a document `serde_json` accepted; `None` when
    /// it is not one after all.
    pub fn scan(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        let start = skip_ws(bytes, 0);
        let (value, _) = value(text, start, 0)?;
        Some(value)
    }

    /// The whole value's range.
    pub fn span(&self) -> Range<usize> {
        match self {
            Spanned::Object { span, .. } | Spanned::Array { span, .. } | Spanned::Scalar(span) => {
                span.clone()
            }
        }
    }

    /// The member `key` of an object (the last one, as `serde_json` keeps).
    pub fn get(&self, key: &str) -> Option<&Spanned> {
        match self {
            Spanned::Object { members, .. } => members
                .iter()
                .rev()
                .find(|(k, _, _)| k == key)
                .map(|(_, _, v)| v),
            _ => None,
        }
    }

    /// The item `i` of an array.
    pub fn item(&self, i: usize) -> Option<&Spanned> {
        match self {
            Spanned::Array { items, .. } => items.get(i),
            _ => None,
        }
    }
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    at
}

/// Deeper than `serde_json` accepts: not a document it parsed.
const MAX_DEPTH: usize = 256;

/// The value starting at `at`, and where it ends.
fn value(text: &str, at: usize, depth: usize) -> Option<(Spanned, usize)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let bytes = text.as_bytes();
    match bytes.get(at)? {
        b'{' => {
            let mut members = Vec::new();
            let mut i = skip_ws(bytes, at + 1);
            if bytes.get(i) == Some(&b'}') {
                return Some((object(at..i + 1, members), i + 1));
            }
            loop {
                let key_end = string_end(bytes, i)?;
                let key: String = serde_json::from_str(&text[i..key_end]).ok()?;
                let colon = skip_ws(bytes, key_end);
                if bytes.get(colon) != Some(&b':') {
                    return None;
                }
                let start = skip_ws(bytes, colon + 1);
                let (v, end) = value(text, start, depth + 1)?;
                members.push((key, i..key_end, v));
                i = skip_ws(bytes, end);
                match bytes.get(i)? {
                    b',' => i = skip_ws(bytes, i + 1),
                    b'}' => return Some((object(at..i + 1, members), i + 1)),
                    _ => return None,
                }
            }
        }
        b'[' => {
            let mut items = Vec::new();
            let mut i = skip_ws(bytes, at + 1);
            if bytes.get(i) == Some(&b']') {
                return Some((
                    Spanned::Array {
                        span: at..i + 1,
                        items,
                    },
                    i + 1,
                ));
            }
            loop {
                let (v, end) = value(text, i, depth + 1)?;
                items.push(v);
                i = skip_ws(bytes, end);
                match bytes.get(i)? {
                    b',' => i = skip_ws(bytes, i + 1),
                    b']' => {
                        return Some((
                            Spanned::Array {
                                span: at..i + 1,
                                items,
                            },
                            i + 1,
                        ));
                    }
                    _ => return None,
                }
            }
        }
        b'"' => {
            let end = string_end(bytes, at)?;
            Some((Spanned::Scalar(at..end), end))
        }
        _ => {
            let mut end = at;
            while end < bytes.len()
                && !matches!(
                    bytes[end],
                    b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                )
            {
                end += 1;
            }
            (end > at).then_some((Spanned::Scalar(at..end), end))
        }
    }
}

fn object(span: Range<usize>, members: Vec<(String, Range<usize>, Spanned)>) -> Spanned {
    Spanned::Object { span, members }
}

/// The end (one past the closing quote) of the string starting at `at`.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_items_and_scalars() {
        let text = "{\n  \"total_facts\": 2,\n  \"facts\": [\n    {\"id\": \"a:fact:1\", \"related\": [\"x\", \"y\\\"z\"]},\n    {}\n  ],\n  \"e\": []\n}\n";
        let doc = Spanned::scan(text).unwrap();
        let total = doc.get("total_facts").unwrap().span();
        assert_eq!(&text[total], "2");
        let first = doc.get("facts").unwrap().item(0).unwrap();
        assert_eq!(&text[first.get("id").unwrap().span()], "\"a:fact:1\"");
        let related = first.get("related").unwrap();
        assert_eq!(&text[related.item(1).unwrap().span()], "\"y\\\"z\"");
        assert_eq!(
            &text[doc.get("facts").unwrap().item(1).unwrap().span()],
            "{}"
        );
        assert_eq!(&text[doc.get("e").unwrap().span()], "[]");
        assert!(doc.get("nothing").is_none());
        assert!(Spanned::scan("{\"a\" 1}").is_none());
        assert!(Spanned::scan("[1, 2").is_none());
        assert!(Spanned::scan(&"[".repeat(1000)).is_none());
    }

    #[test]
    fn the_last_of_repeated_keys_wins_as_in_serde_json() {
        let text = r#"{"a": 1, "a": 22}"#;
        let doc = Spanned::scan(text).unwrap();
        assert_eq!(&text[doc.get("a").unwrap().span()], "22");
    }
}
