//! Untrusted text made safe for a terminal. Topic ids, titles, slugs,
//! patterns, paths and file contents come from files anyone may write;
//! shown raw, an ESC or OSC sequence would drive the terminal (clear it,
//! set the clipboard, forge a link), a bidi override would reorder what
//! is read, and a zero-width character would misalign a table. Every
//! human-facing output (CLI tables, warnings, errors, edit messages, the
//! `check` report, the TUI) shows them through this module, escaped:
//! C0 controls in caret notation (`^[`), the rest as `<U+202E>`.
//!
//! Why our own sanitizer rather than a crate such as
//! `strip-ansi-escapes` (not compiled in): those remove escape sequences,
//! so a person would not see that a name holds one; here every unsafe
//! character stays visible, escaped, and bidi and zero-width characters
//! are covered too (they are not escape sequences). One function serves
//! every output (`docs/decisions.md`, "Terminal safety").
//!
//! Assistant-facing texts (`render`, `prompt`, `learn`, `schema`, MCP)
//! never pass through here: they are the bytes the assistant gets.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must never reach a terminal raw: C0 and C1 controls and
/// DEL; bidirectional controls (U+061C, U+200E/F, U+202A–202E,
/// U+2066–2069); zero-width and other invisible format characters
/// (U+00AD, U+180E, U+200B–200D, U+2028/2029, U+2060–2064,
/// U+206A–206F, U+FEFF, U+FFF9–FFFB, tags U+E0000–E007F).
///
/// A zero-width joiner inside an emoji sequence is escaped too: a name
/// shown a little oddly is better than a table misaligned on purpose.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            u32::from(c),
            0x00AD
                | 0x061C
                | 0x180E
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0xE0000..=0xE007F
        )
}

/// Appends the visible form of an unsafe character: `^@`…`^_` for C0
/// controls, `<U+XXXX>` for the others.
fn push_escaped(out: &mut String, c: char) {
    let code = u32::from(c);
    if code < 0x20 {
        out.push('^');
        out.push(char::from(b'@' + u8::try_from(code).unwrap_or(0)));
    } else {
        let _ = write!(out, "<U+{code:04X}>");
    }
}

/// A name (topic id, title, slug, pattern, path) on one line: every
/// unsafe character escaped, newlines and tabs included.
pub fn escape_name(name: &str) -> Cow<'_, str> {
    escape_with(name, |_, _| false)
}

/// Text of several lines for a terminal (a message, a diff, a report):
/// newlines, tabs and the `\r` of a `\r\n` stay; everything else unsafe
/// is escaped.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    escape_with(text, keeps_line_structure)
}

fn keeps_line_structure(c: char, next: Option<char>) -> bool {
    c == '\n' || c == '\t' || (c == '\r' && next == Some('\n'))
}

fn escape_with(text: &str, keep: impl Fn(char, Option<char>) -> bool) -> Cow<'_, str> {
    let mut chars = text.chars().peekable();
    let mut first_bad = None;
    let mut at = 0;
    while let Some(c) = chars.next() {
        if is_unsafe(c) && !keep(c, chars.peek().copied()) {
            first_bad = Some(at);
            break;
        }
        at += c.len_utf8();
    }
    let Some(start) = first_bad else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..start]);
    let mut chars = text[start..].chars().peekable();
    while let Some(c) = chars.next() {
        if is_unsafe(c) && !keep(c, chars.peek().copied()) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape_lines`], with a map from byte offsets in the original text to
/// offsets in the escaped one: a diagnostic that underlines a span of a
/// source file keeps pointing at the same characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EscapedSource {
    pub text: String,
    /// `(original offset just past an escaped character, bytes added so
    /// far)`, ascending.
    shifts: Vec<(usize, usize)>,
}

impl EscapedSource {
    pub fn new(source: &str) -> Self {
        let mut text = String::with_capacity(source.len());
        let mut shifts = Vec::new();
        let mut chars = source.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let next = chars.peek().map(|(_, n)| *n);
            if is_unsafe(c) && !keeps_line_structure(c, next) {
                let before = text.len();
                push_escaped(&mut text, c);
                let added =
                    shifts.last().map_or(0, |(_, a)| *a) + (text.len() - before) - c.len_utf8();
                shifts.push((at + c.len_utf8(), added));
            } else {
                text.push(c);
            }
        }
        Self { text, shifts }
    }

    /// Where byte `offset` of the original text is in [`Self::text`].
    pub fn offset(&self, offset: usize) -> usize {
        let passed = self.shifts.partition_point(|(end, _)| *end <= offset);
        offset
            + passed
                .checked_sub(1)
                .map_or(0, |i| self.shifts.get(i).map_or(0, |(_, added)| *added))
    }
}

/// Serialized JSON made safe for a terminal: the unsafe characters serde
/// leaves raw (bidi and invisible ones) are written as `\uXXXX` escapes.
/// They occur only inside strings, so the result is valid JSON and parses
/// to the same values. C0 controls are left alone: serde escapes them
/// inside strings, so a raw one is layout (pretty-printing's newlines);
/// DEL and C1 controls, which serde leaves raw, are escaped.
pub fn escape_json(json: &str) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) && c >= ' ';
    if !json.chars().any(bad) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if bad(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A `serde_json` formatter that writes what [`escape_json`] would, while
/// streaming: strings' bidi and invisible characters as `\u` escapes,
/// everything else as `PrettyFormatter` does.
#[derive(Debug, Default)]
pub struct SafeJsonFormatter<'a> {
    pretty: serde_json::ser::PrettyFormatter<'a>,
}

impl SafeJsonFormatter<'_> {
    /// Indented as `serde_json`'s pretty printer indents.
    pub fn pretty() -> Self {
        Self::default()
    }
}

impl serde_json::ser::Formatter for SafeJsonFormatter<'_> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        writer.write_all(escape_json(fragment).as_bytes())
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.begin_array(w)
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_array(w)
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.pretty.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_array_value(w)
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.begin_object(w)
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_object(w)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.pretty.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_object_value(w)
    }
}

/// Text for the TUI's cells: unsafe characters escaped, tabs as four
/// spaces (a cell grid has no tab stops); `keep_newlines` keeps `\n` and
/// drops `\r` (the preview shows lines, not line endings).
pub fn clean_text(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) && !(keep_newlines && c == '\n');
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\t' => out.push_str("    "),
            '\r' if keep_newlines => {}
            c if is_unsafe(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A name (slug, path, title) on one line, for the TUI.
pub fn clean_name(name: &str) -> Cow<'_, str> {
    clean_text(name, false)
}

/// The first `n` lines of `text` (all of it when shorter). A view that
/// shows lines from its scroll offset on never shows a line past
/// `scroll + height`, so it draws only this head: a prompt of megabytes
/// costs what its visible part costs.
pub fn head_lines(text: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    text.match_indices('\n')
        .nth(n - 1)
        .map_or(text, |(at, _)| &text[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character this module must escape, in one hostile name.
    const HOSTILE: &str = "a\u{1b}[2J\u{1b}]8;;http://x\u{7}b\u{1b}]52;c;aGk=\u{7}\nc\u{202e}d\u{200b}e\u{2066}f\u{200e}g\u{61c}h\u{feff}i\u{2060}j\u{9b}k\u{7f}";

    #[test]
    fn head_lines_cuts_after_n_lines() {
        assert_eq!(head_lines("a\nb\nc\n", 2), "a\nb");
        assert_eq!(head_lines("a\nb", 5), "a\nb");
        assert_eq!(head_lines("a\nb", 0), "");
    }

    #[test]
    fn escapes_control_characters() {
        assert_eq!(clean_name("a\u{1b}[31mb"), "a^[[31mb");
        assert_eq!(clean_name("x\ny"), "x^Jy");
        assert_eq!(clean_text("x\ny\r\n", true), "x\ny\n");
        assert_eq!(clean_name("t\tb"), "t    b");
        assert_eq!(clean_name("c\u{9b}d\u{7f}"), "c<U+009B>d<U+007F>");
        assert!(matches!(clean_name("日本語.md"), Cow::Borrowed(_)));
    }

    #[test]
    fn escapes_bidi_and_zero_width_characters() {
        assert_eq!(clean_name("a\u{202e}b\u{200b}c"), "a<U+202E>b<U+200B>c");
        assert_eq!(
            escape_name(HOSTILE),
            "a^[[2J^[]8;;http://x^Gb^[]52;c;aGk=^G^Jc<U+202E>d<U+200B>e<U+2066>f<U+200E>g<U+061C>h<U+FEFF>i<U+2060>j<U+009B>k<U+007F>"
        );
        for c in [
            '\u{2067}', '\u{2068}', '\u{2069}', '\u{200f}', '\u{200c}', '\u{200d}',
        ] {
            assert!(is_unsafe(c), "{:04X}", u32::from(c));
        }
        // Letters of every script, emoji and combining marks stay.
        for safe in [
            "日本語",
            "مرحبا",
            "עברית",
            "é",
            "e\u{301}",
            "🦀",
            "❤\u{fe0f}",
        ] {
            assert!(matches!(escape_name(safe), Cow::Borrowed(_)), "{safe}");
        }
    }

    #[test]
    fn lines_keep_their_structure_and_nothing_else() {
        let escaped = escape_lines("x\ty\r\nz\rw\u{1b}[0m\n");
        assert_eq!(escaped, "x\ty\r\nz^Mw^[[0m\n");
        assert!(
            !escape_lines(HOSTILE)
                .chars()
                .any(|c| is_unsafe(c) && c != '\n')
        );
    }

    #[test]
    fn escaped_source_maps_offsets() {
        let source = "a = \"\u{202e}x\"\nb\u{1b} = 1\n";
        let escaped = EscapedSource::new(source);
        assert_eq!(escaped.text, "a = \"<U+202E>x\"\nb^[ = 1\n");
        let x = source.find('x').unwrap_or_default();
        assert_eq!(&escaped.text[escaped.offset(x)..=escaped.offset(x)], "x");
        let one = source.find('1').unwrap_or_default();
        assert_eq!(
            &escaped.text[escaped.offset(one)..=escaped.offset(one)],
            "1"
        );
        assert_eq!(escaped.offset(0), 0);
        assert_eq!(escaped.offset(source.len()), escaped.text.len());
    }

    #[test]
    fn json_stays_json() {
        let value = serde_json::json!({ "id": HOSTILE, "tag": "\u{e0041}" });
        for text in [
            serde_json::to_string(&value).unwrap_or_default(),
            serde_json::to_string_pretty(&value).unwrap_or_default(),
        ] {
            let safe = escape_json(&text);
            assert!(!safe.chars().any(|c| is_unsafe(c) && c != '\n'), "{safe}");
            let back: serde_json::Value = serde_json::from_str(&safe).unwrap_or_default();
            assert_eq!(back, value);
        }
        // Streamed, the same, pretty-printed.
        let mut streamed = Vec::new();
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut streamed, SafeJsonFormatter::pretty());
        serde::Serialize::serialize(&value, &mut serializer).unwrap_or_default();
        let streamed = String::from_utf8(streamed).unwrap_or_default();
        assert!(
            !streamed.chars().any(|c| is_unsafe(c) && c != '\n'),
            "{streamed}"
        );
        assert!(streamed.contains("\n  \""), "{streamed}");
        let back: serde_json::Value = serde_json::from_str(&streamed).unwrap_or_default();
        assert_eq!(back, value);
    }
}
