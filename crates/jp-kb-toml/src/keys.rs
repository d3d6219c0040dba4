//! TOML key paths as written: where each dotted segment sits in the text,
//! and how to spell a key or a path when jp-kb has to write one.

use std::ops::Range;

use toml_writer::{ToTomlKey as _, TomlKeyBuilder};

/// Byte ranges of the segments of a (possibly dotted) key written at
/// `start`, e.g. `kb . topic."my.id".learned`. Stops at the first byte that
/// cannot continue the key (`=`, `]`, end of line). `None` when no key
/// starts there.
pub fn segments(src: &str, start: usize) -> Option<Vec<Range<usize>>> {
    let bytes = src.as_bytes();
    let mut pos = start;
    let mut out = Vec::new();
    loop {
        pos = crate::text::skip_blanks(src, pos);
        let seg_start = pos;
        match bytes.get(pos)? {
            b'"' => pos = end_of_basic(bytes, pos + 1)?,
            b'\'' => pos = pos + 1 + src[pos + 1..].find('\'')? + 1,
            _ => {
                while bytes.get(pos).is_some_and(|b| is_bare(*b)) {
                    pos += 1;
                }
                if pos == seg_start {
                    return None;
                }
            }
        }
        out.push(seg_start..pos);
        let after = crate::text::skip_blanks(src, pos);
        if bytes.get(after) == Some(&b'.') {
            pos = after + 1;
        } else {
            return Some(out);
        }
    }
}

/// Offset just past the closing quote of a basic string whose body starts
/// at `pos`.
fn end_of_basic(bytes: &[u8], mut pos: usize) -> Option<usize> {
    loop {
        match bytes.get(pos)? {
            b'\\' => pos += 2,
            b'"' => return Some(pos + 1),
            b'\n' => return None,
            _ => pos += 1,
        }
    }
}

fn is_bare(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// A key as TOML wants it written: bare when it can be, else a basic
/// string (`"my.topic"`), never the literal string `toml_writer` would
/// pick for a key holding `"`, so keys read as jp-kb always wrote them.
pub fn key_repr(key: &str) -> String {
    let key = TomlKeyBuilder::new(key);
    key.as_unquoted()
        .unwrap_or_else(|| key.as_basic())
        .to_toml_key()
}

/// A dotted path for messages and headers: `kb.topic."my.topic".learned`.
pub fn path_repr<S: AsRef<str>>(path: &[S]) -> String {
    path.iter()
        .map(|s| key_repr(s.as_ref()))
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<&str> {
        segments(src, 0)
            .unwrap_or_default()
            .into_iter()
            .map(|r| &src[r])
            .collect()
    }

    #[test]
    fn splits_dotted_keys_with_quotes_and_blanks() {
        assert_eq!(texts("kb.topic.x = 1"), ["kb", "topic", "x"]);
        assert_eq!(
            texts("kb . topic .\"a.b\".'c d' = 1"),
            ["kb", "topic", "\"a.b\"", "'c d'"]
        );
        assert_eq!(texts("\"q\\\"x\".y]"), ["\"q\\\"x\"", "y"]);
        assert!(segments("= 1", 0).is_none());
    }

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(key_repr("project"), "project");
        assert_eq!(key_repr("my.topic"), "\"my.topic\"");
        assert_eq!(key_repr(""), "\"\"");
        assert_eq!(path_repr(&["kb", "topic", "a b"]), "kb.topic.\"a b\"");
    }
}
