//! One TOML array as editable text: the items with the exact whitespace
//! and comments around them, so that items can be added, removed or
//! replaced while every other byte of the array stays as it was.
//!
//! Layout rules: a new item copies the placement of the item it follows
//! (its own line with the same indent, or the same line after `, `); a
//! removed item takes its line with it (including a comment on that line),
//! while comment lines above and below stay where they are.

use std::ops::Range;

use crate::text::{after_first_break, break_of, has_break, is_blank, split_first_break, split_ws};

/// An item: the text before it (after the previous comma or `[`), its
/// value's source text, and the text after it up to its comma.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayItem {
    pub prefix: String,
    pub value: String,
    pub suffix: String,
}

/// The array between `[` and `]`. `trailing` is the text after the last
/// comma when there is a trailing comma, the whole inside of an empty
/// array, and empty otherwise (the last item's suffix then runs to `]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayText {
    pub items: Vec<ArrayItem>,
    pub trailing_comma: bool,
    pub trailing: String,
}

impl ArrayText {
    /// Cuts the array at `span` (from `[` through `]`) into pieces, given
    /// the spans of its values in document order.
    pub fn parse(src: &str, span: &Range<usize>, values: &[Range<usize>]) -> Option<Self> {
        let text = src.get(span.clone())?;
        if !text.starts_with('[') || !text.ends_with(']') {
            return None;
        }
        let close = span.end - 1;
        let mut cursor = span.start + 1;
        let mut items = Vec::with_capacity(values.len());
        let mut trailing_comma = false;
        let mut trailing = String::new();
        for (k, v) in values.iter().enumerate() {
            let prefix = src.get(cursor..v.start)?.to_owned();
            let value = src.get(v.clone())?.to_owned();
            let gap_end = values.get(k + 1).map_or(close, |next| next.start);
            let gap = src.get(v.end..gap_end)?;
            let suffix = match find_comma(gap) {
                Some(c) => {
                    cursor = v.end + c + 1;
                    if k + 1 == values.len() {
                        trailing_comma = true;
                        src.get(cursor..close)?.clone_into(&mut trailing);
                    }
                    &gap[..c]
                }
                None if k + 1 == values.len() => gap,
                None => return None,
            };
            items.push(ArrayItem {
                prefix,
                value,
                suffix: suffix.to_owned(),
            });
        }
        if values.is_empty() {
            src.get(cursor..close)?.clone_into(&mut trailing);
        }
        Some(Self {
            items,
            trailing_comma,
            trailing,
        })
    }

    /// The array's source text, `[` through `]`.
    pub fn render(&self) -> String {
        let mut out = String::from("[");
        let n = self.items.len();
        for (k, p) in self.items.iter().enumerate() {
            out.push_str(&p.prefix);
            out.push_str(&p.value);
            out.push_str(&p.suffix);
            if k + 1 < n || self.trailing_comma {
                out.push(',');
            }
        }
        out.push_str(&self.trailing);
        out.push(']');
        out
    }

    /// True when some comment sits inside the brackets.
    pub fn has_comment(&self) -> bool {
        self.trailing.contains('#')
            || self
                .items
                .iter()
                .any(|p| p.prefix.contains('#') || p.suffix.contains('#'))
    }

    /// Appends `value` (source text) after the last item.
    pub fn push(&mut self, value: String, eol: &str) {
        match self.items.len() {
            0 => self.push_into_empty(value, eol),
            n => self.insert_after(n - 1, value, eol),
        }
    }

    fn push_into_empty(&mut self, value: String, eol: &str) {
        let inner = std::mem::take(&mut self.trailing);
        if has_break(&inner) {
            let parts = split_ws(&inner);
            let lb = break_of(&inner, eol);
            let indent = comment_indent(parts.body)
                .map_or_else(|| format!("{}    ", parts.indent), str::to_owned);
            self.items.push(ArrayItem {
                prefix: format!("{}{lb}{indent}", parts.head),
                value,
                suffix: String::new(),
            });
            inner[parts.head.len()..].clone_into(&mut self.trailing);
            self.trailing_comma = true;
        } else {
            self.items.push(ArrayItem {
                prefix: inner.clone(),
                value,
                suffix: inner,
            });
            self.trailing_comma = false;
        }
    }

    /// Inserts `value` right after item `i`, placed the way item `i` is.
    pub fn insert_after(&mut self, i: usize, value: String, eol: &str) {
        let n = self.items.len();
        let anchor_starts_line = has_break(&self.items[i].prefix);
        let next_on_new_line = self.items.get(i + 1).is_none_or(|p| has_break(&p.prefix));
        let pre_comma = blank_suffix(&self.items[i].suffix);
        let mut piece = ArrayItem {
            prefix: String::new(),
            value,
            suffix: pre_comma.clone(),
        };
        if anchor_starts_line && next_on_new_line {
            let parts = split_ws(&self.items[i].prefix);
            let lb = break_of(parts.body, eol).to_owned();
            let indent = parts.indent.to_owned();
            if i + 1 < n {
                // The next item's prefix starts with what follows item i on
                // its line (a comment): it stays on item i's line.
                let next = std::mem::take(&mut self.items[i + 1].prefix);
                let (head, rest) = split_first_break(&next);
                piece.prefix = format!("{head}{lb}{indent}");
                rest.clone_into(&mut self.items[i + 1].prefix);
            } else if self.trailing_comma {
                let t = std::mem::take(&mut self.trailing);
                if has_break(&t) {
                    let (head, rest) = split_first_break(&t);
                    piece.prefix = format!("{head}{lb}{indent}");
                    self.trailing = rest.to_owned();
                } else {
                    piece.prefix = format!("{lb}{indent}");
                    self.trailing = t;
                }
            } else {
                let s = std::mem::take(&mut self.items[i].suffix);
                if has_break(&s) {
                    let (head, rest) = split_first_break(&s);
                    piece.prefix = format!("{head}{lb}{indent}");
                    rest.clone_into(&mut piece.suffix);
                } else {
                    piece.prefix = format!("{lb}{indent}");
                    piece.suffix = s;
                }
            }
        } else {
            piece.prefix = self.same_line_separator(i);
            if i + 1 == n && !self.trailing_comma {
                piece.suffix = std::mem::take(&mut self.items[i].suffix);
                self.items[i].suffix = self.items[..i]
                    .iter()
                    .map(|p| blank_suffix(&p.suffix))
                    .next()
                    .unwrap_or_default();
            }
        }
        self.items.insert(i + 1, piece);
    }

    /// What goes between a comma and an item placed on the same line.
    fn same_line_separator(&self, i: usize) -> String {
        let own = &self.items[i].prefix;
        if i > 0 && !has_break(own) {
            return own.clone();
        }
        self.items
            .iter()
            .skip(1)
            .map(|p| &p.prefix)
            .find(|p| !has_break(p))
            .cloned()
            .unwrap_or_else(|| " ".to_owned())
    }

    /// Removes item `i` together with its line when it has one to itself.
    pub fn remove(&mut self, i: usize) {
        let n = self.items.len();
        let removed = self.items.remove(i);
        let starts_line = has_break(&removed.prefix);
        let parts = split_ws(&removed.prefix);
        if i + 1 < n {
            let next = &mut self.items[i];
            if !starts_line && i > 0 {
                // Shared a line with the previous item: the next item's
                // prefix already separates it from that one.
            } else if !has_break(&next.prefix) {
                next.prefix = removed.prefix;
            } else {
                // The next prefix's head is the removed item's same-line
                // comment: it goes with the removed line.
                let np = split_ws(&next.prefix);
                let head = if starts_line { parts.head } else { "" };
                let body = if parts.body.is_empty() {
                    np.body.to_owned()
                } else {
                    format!("{}{}", parts.body, after_first_break(np.body))
                };
                next.prefix = format!("{head}{body}{}", np.indent);
            }
            return;
        }
        let closing = if self.trailing_comma {
            std::mem::take(&mut self.trailing)
        } else {
            removed.suffix.clone()
        };
        let closing = if !starts_line {
            if n >= 2 {
                closing
            } else if has_break(&closing) || closing.contains('#') {
                format!("{}{closing}", removed.prefix)
            } else {
                removed.prefix
            }
        } else if has_break(&closing) {
            format!(
                "{}{}{}",
                parts.head,
                parts.body,
                after_first_break(&closing)
            )
        } else if !parts.head.contains('#') && is_blank(parts.body) {
            format!("{}{closing}", parts.head)
        } else {
            format!("{}{}{}{closing}", parts.head, parts.body, parts.indent)
        };
        if n >= 2 {
            if self.trailing_comma {
                self.trailing = closing;
            } else {
                self.items[i - 1].suffix = closing;
            }
        } else {
            self.trailing = closing;
            self.trailing_comma = false;
        }
    }
}

/// Offset of the first comma in whitespace-and-comments text.
fn find_comma(gap: &str) -> Option<usize> {
    let mut in_comment = false;
    for (i, b) in gap.bytes().enumerate() {
        match b {
            b'\n' => in_comment = false,
            b'#' => in_comment = true,
            b',' if !in_comment => return Some(i),
            _ => {}
        }
    }
    None
}

/// A suffix worth copying to a new item: blanks only, else nothing.
fn blank_suffix(s: &str) -> String {
    if s.chars().all(|c| c == ' ' || c == '\t') {
        s.to_owned()
    } else {
        String::new()
    }
}

/// Indent of the first comment line in `body`, if any.
fn comment_indent(body: &str) -> Option<&str> {
    body.split('\n').find_map(|line| {
        let rest = line.trim_start_matches([' ', '\t']);
        rest.starts_with('#')
            .then(|| &line[..line.len() - rest.len()])
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn model(src: &str) -> ArrayText {
        let doc = toml_edit::Document::parse(src).unwrap();
        let arr = doc["a"].as_array().unwrap();
        let spans: Vec<_> = arr.iter().map(|v| v.span().unwrap()).collect();
        ArrayText::parse(src, &arr.span().unwrap(), &spans).unwrap()
    }

    fn wrap(array: &str) -> String {
        format!("a = {array}\n")
    }

    const ARRAYS: &[&str] = &[
        "[]",
        "[ ]",
        "[\n]",
        "[\n  # none yet\n]",
        "[\"x\"]",
        "[ \"x\" ]",
        "[\"x\",]",
        "[\"x\", \"y\"]",
        "[ \"x\" , \"y\" , ]",
        "[\n  \"x\",\n  \"y\",\n]",
        "[\n  \"x\",\n  \"y\"\n]",
        "[\n  \"x\", # cx\n  # above y\n  \"y\" # cy\n  # end\n]",
        "[\n  \"x\",\n  \"y\", # cy\n  # end\n]",
        "[ # head\n  \"x\",\r\n  \"y\",\r\n]",
        "[\n  \"x\", \"y\",\n  \"z\",\n]",
        "[\"x\",\n  \"y\"]",
        "[\n  \"x\",\n  \"y\"]",
        "[\n  \"x\",\n  \"y\",]",
        "['x', 'y']",
    ];

    #[test]
    fn parse_then_render_is_identity() {
        for a in ARRAYS {
            assert_eq!(model(&wrap(a)).render(), *a);
        }
    }

    #[test]
    fn push_then_remove_restores_every_layout() {
        for a in ARRAYS {
            let mut m = model(&wrap(a));
            let before = m.clone();
            m.push("\"new\"".into(), "\n");
            let pushed = wrap(&m.render());
            let reparsed = model(&pushed);
            assert_eq!(reparsed, m, "{pushed}");
            let values: Vec<_> = toml_edit::Document::parse(pushed.as_str()).unwrap()["a"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(values.last().map(String::as_str), Some("new"), "{pushed}");
            m.remove(m.items.len() - 1);
            assert_eq!(m.render(), before.render(), "after push: {pushed}");
        }
    }

    #[test]
    fn removing_any_item_keeps_valid_toml() {
        for a in ARRAYS {
            let m = model(&wrap(a));
            for i in 0..m.items.len() {
                let mut r = m.clone();
                r.remove(i);
                let out = wrap(&r.render());
                let doc = toml_edit::Document::parse(out.as_str()).unwrap();
                assert_eq!(
                    doc["a"].as_array().unwrap().len(),
                    m.items.len() - 1,
                    "{out}"
                );
            }
        }
    }

    #[test]
    fn removal_takes_the_line_and_its_comment_but_keeps_comment_lines() {
        let mut m = model(&wrap(ARRAYS[11]));
        m.remove(0);
        assert_eq!(m.render(), "[\n  # above y\n  \"y\" # cy\n  # end\n]");
        let mut m = model(&wrap(ARRAYS[11]));
        m.remove(1);
        assert_eq!(m.render(), "[\n  \"x\" # cx\n  # above y\n  # end\n]");
    }

    #[test]
    fn insertion_copies_neighbour_layout() {
        let mut m = model(&wrap(ARRAYS[11]));
        m.push("\"z\"".into(), "\n");
        assert_eq!(
            m.render(),
            "[\n  \"x\", # cx\n  # above y\n  \"y\", # cy\n  \"z\"\n  # end\n]"
        );
        let mut m = model(&wrap("[ \"x\" , \"y\" ]"));
        m.push("\"z\"".into(), "\n");
        assert_eq!(m.render(), "[ \"x\" , \"y\" , \"z\" ]");
        let mut m = model(&wrap("[\n  # none yet\n]"));
        m.push("\"z\"".into(), "\n");
        assert_eq!(m.render(), "[\n  \"z\",\n  # none yet\n]");
    }
}
