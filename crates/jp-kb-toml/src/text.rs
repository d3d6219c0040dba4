//! Byte-offset helpers over TOML source text: line starts and ends, line
//! breaks, blanks (lines and columns as people count them: [`lines`](crate::lines)).
//!
//! Everything here works on raw slices so that `\r\n` survives untouched:
//! a "line break" is `\n` or `\r\n`, and helpers never normalise one into
//! the other.

/// The largest character boundary of `src` at or before `offset` (clamped
/// to its length): where a text may be cut without splitting a character.
/// The one home of this rule for the workspace (`str::floor_char_boundary`
/// needs Rust 1.91; the crates support 1.88).
pub fn floor_char_boundary(src: &str, offset: usize) -> usize {
    let mut offset = offset.min(src.len());
    while offset > 0 && !src.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Offset of the first byte of the line holding `pos`. A byte order mark
/// opening the file is not part of its first line: it stays put (and is
/// no column either: [`lines`](crate::lines)).
pub fn line_start(src: &str, pos: usize) -> usize {
    src[..pos]
        .rfind('\n')
        .map_or_else(|| bom_len(src).min(pos), |i| i + 1)
}

/// Length of a UTF-8 byte order mark opening the text (0 or 3).
pub fn bom_len(src: &str) -> usize {
    if src.starts_with('\u{feff}') { 3 } else { 0 }
}

/// Offset just past the line break ending the line holding `pos`
/// (or the end of the text when that line has no break).
pub fn line_end_incl(src: &str, pos: usize) -> usize {
    src[pos..].find('\n').map_or(src.len(), |i| pos + i + 1)
}

/// The line break the document uses: `\r\n` when its first line ends so.
pub fn doc_eol(src: &str) -> &'static str {
    match src.find('\n') {
        Some(i) if i > 0 && src.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The first line break in `s` and its byte range, if any.
pub fn first_break(s: &str) -> Option<(usize, usize)> {
    let nl = s.find('\n')?;
    if nl > 0 && s.as_bytes()[nl - 1] == b'\r' {
        Some((nl - 1, nl + 1))
    } else {
        Some((nl, nl + 1))
    }
}

/// The text of the first line break in `s`, or `fallback`.
pub fn break_of<'a>(s: &'a str, fallback: &'a str) -> &'a str {
    first_break(s).map_or(fallback, |(a, b)| &s[a..b])
}

/// Splits `s` before its first line break: `("same-line part", "rest")`.
/// Without a break the rest is empty.
pub fn split_first_break(s: &str) -> (&str, &str) {
    match first_break(s) {
        Some((a, _)) => (&s[..a], &s[a..]),
        None => (s, ""),
    }
}

/// `s` without its first line break and what precedes it.
pub fn after_first_break(s: &str) -> &str {
    match first_break(s) {
        Some((_, b)) => &s[b..],
        None => "",
    }
}

/// Whitespace-and-comment text between two tokens, cut in three:
/// `head` (up to the first line break: the rest of the previous line),
/// `body` (from that break through the last `\n`: whole lines) and
/// `indent` (what precedes the next token on its own line).
/// Without any break, `head` is everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WsParts<'a> {
    pub head: &'a str,
    pub body: &'a str,
    pub indent: &'a str,
}

pub fn split_ws(s: &str) -> WsParts<'_> {
    match (first_break(s), s.rfind('\n')) {
        (Some((a, _)), Some(last)) => WsParts {
            head: &s[..a],
            body: &s[a..=last],
            indent: &s[last + 1..],
        },
        _ => WsParts {
            head: s,
            body: "",
            indent: "",
        },
    }
}

/// True when the text holds a line break.
pub fn has_break(s: &str) -> bool {
    s.contains('\n')
}

/// True when `s` is nothing but blanks (spaces, tabs) and line breaks.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// Leading spaces and tabs of `s`.
pub fn leading_blanks(s: &str) -> &str {
    let end = s.find(|c| c != ' ' && c != '\t').unwrap_or(s.len());
    &s[..end]
}

/// Offset of the first byte at or after `pos` that is not a space or tab.
pub fn skip_blanks(src: &str, pos: usize) -> usize {
    pos + leading_blanks(&src[pos..]).len()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn split_ws_keeps_crlf() {
        let p = split_ws(" # c\r\n  # d\r\n    ");
        assert_eq!(p.head, " # c");
        assert_eq!(p.body, "\r\n  # d\r\n");
        assert_eq!(p.indent, "    ");
        let p = split_ws("  ");
        assert_eq!((p.head, p.body, p.indent), ("  ", "", ""));
    }

    #[test]
    fn breaks() {
        assert_eq!(split_first_break("x\r\ny"), ("x", "\r\ny"));
        assert_eq!(after_first_break("x\r\ny"), "y");
        assert_eq!(doc_eol("a\r\nb\n"), "\r\n");
        assert_eq!(doc_eol("a\nb\r\n"), "\n");
        assert_eq!(line_end_incl("ab\ncd", 1), 3);
        assert_eq!(line_end_incl("ab\ncd", 4), 5);
        assert_eq!(line_start("ab\ncd", 4), 3);
        assert_eq!(line_start("\u{feff}ab", 4), 3);
    }
}
