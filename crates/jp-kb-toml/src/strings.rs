//! Writing TOML strings: pick the quoting the file already uses for a
//! value (basic, literal, multi-line) when the new text can be written
//! that way, else a basic string with escapes.
//!
//! One-line strings are `toml_writer`'s (the encoder `toml_edit` itself
//! uses): its basic and literal strings are byte for byte what jp-kb wrote
//! before (the test `toml_writer_matches_the_old_encoder` compares them on
//! every short string over an alphabet of awkward characters), and so are
//! its bare-or-basic keys ([`crate::keys::key_repr`]).
//!
//! Multi-line strings stay ours: `toml_writer` cannot keep a file's
//! layout. It always puts LF after the opening `"""` or `'''` (in a CRLF
//! file, a bare LF; and a value the file wrote without that break gains
//! one), and it escapes every CR: the value `a` CR LF `b` comes out as
//! `"""` LF `a\r` LF `b"""` where a CRLF file needs `"""` CR LF `a` CR LF
//! `b"""`; its multi-line literal string refuses a CRLF value altogether.
//! The test `toml_writer_breaks_crlf_multi_line` pins these differences.

use std::fmt::Write as _;

use toml_writer::{ToTomlValue as _, TomlStringBuilder};

/// The four TOML string spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Basic,
    Literal,
    MlBasic,
    MlLiteral,
}

/// The style of an existing string's source text (`"x"`, `'x'`, `"""…`).
pub fn style_of(repr: &str) -> Style {
    if repr.starts_with("\"\"\"") {
        Style::MlBasic
    } else if repr.starts_with("'''") {
        Style::MlLiteral
    } else if repr.starts_with('\'') {
        Style::Literal
    } else {
        Style::Basic
    }
}

/// Writes `value` in `preferred` style when possible. A multi-line style
/// keeps the line break that followed the old opening quotes (`lead`),
/// which TOML drops from the value. It is used only when every line break
/// of the value is the file's (`eol`): the value is kept exactly, and
/// line endings are never mixed; otherwise the breaks are escaped.
pub fn encode(value: &str, preferred: Style, lead: &str, eol: &str) -> String {
    let preferred = match preferred {
        Style::MlBasic | Style::MlLiteral if !breaks_are(value, eol) => Style::Basic,
        other => other,
    };
    match preferred {
        Style::Literal => TomlStringBuilder::new(value)
            .as_literal()
            .map_or_else(|| basic(value), |s| s.to_toml_value()),
        Style::MlLiteral if ml_literal_ok(value) => {
            format!("'''{}{value}'''", ml_lead(value, lead))
        }
        Style::MlBasic | Style::MlLiteral => {
            format!(
                "\"\"\"{}{}\"\"\"",
                ml_lead(value, lead),
                ml_basic_body(value)
            )
        }
        Style::Basic => basic(value),
    }
}

/// True when every `\n` in `value` is part of an `eol` line break.
fn breaks_are(value: &str, eol: &str) -> bool {
    value.char_indices().all(|(i, c)| match c {
        '\n' => {
            let crlf = i > 0 && value.as_bytes()[i - 1] == b'\r';
            crlf == (eol == "\r\n")
        }
        _ => true,
    })
}

/// The line break to put after opening quotes: the old one, or one that
/// TOML will drop when the value itself starts with a line break.
fn ml_lead<'a>(value: &str, lead: &'a str) -> &'a str {
    if !lead.is_empty() {
        lead
    } else if value.starts_with('\n') || value.starts_with("\r\n") {
        "\n"
    } else {
        ""
    }
}

/// The leading line break right after `"""`/`'''` in a multi-line repr.
pub fn ml_lead_of(repr: &str) -> &str {
    let body = repr.get(3..).unwrap_or("");
    if body.starts_with("\r\n") {
        "\r\n"
    } else if body.starts_with('\n') {
        "\n"
    } else {
        ""
    }
}

/// A basic string (`"…"`) with every character TOML requires escaped:
/// `\"`, `\\`, `\b \t \n \f \r`, other ASCII controls as `\uXXXX`;
/// everything else as is.
pub fn basic(value: &str) -> String {
    TomlStringBuilder::new(value).as_basic().to_toml_value()
}

/// One character of a multi-line basic string's body: the escape
/// [`basic`] writes for a control character, else the character.
fn push_escaped_control(out: &mut String, c: char) {
    match c {
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        c if is_control(c) => {
            let _ = write!(out, "\\u{:04X}", u32::from(c));
        }
        c => out.push(c),
    }
}

fn is_control(c: char) -> bool {
    (c < ' ' && c != '\t') || c == '\u{7f}'
}

fn ml_literal_ok(value: &str) -> bool {
    let bare_cr = value
        .char_indices()
        .any(|(i, c)| c == '\r' && !value[i..].starts_with("\r\n"));
    !value.contains("'''")
        && !value.ends_with('\'')
        && !bare_cr
        && !value
            .chars()
            .any(|c| is_control(c) && c != '\n' && c != '\r')
}

/// Body of a multi-line basic string: raw line breaks, escaped
/// backslashes, controls, and any quote that would close the string.
fn ml_basic_body(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut quotes = 0;
    let mut chars = value.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let last = chars.peek().is_none();
        match c {
            '"' if quotes == 2 || last => {
                out.push_str("\\\"");
                quotes = 0;
            }
            '"' => {
                out.push('"');
                quotes += 1;
            }
            '\\' => {
                out.push_str("\\\\");
                quotes = 0;
            }
            '\n' => {
                out.push('\n');
                quotes = 0;
            }
            '\r' if value[i..].starts_with("\r\n") => {
                out.push('\r');
                quotes = 0;
            }
            c => {
                push_escaped_control(&mut out, c);
                quotes = 0;
            }
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn parses_back(repr: &str, value: &str) {
        let src = format!("k = {repr}\n");
        let doc = toml_edit::Document::parse(src.as_str()).unwrap();
        assert_eq!(doc["k"].as_str(), Some(value), "{repr}");
    }

    #[test]
    fn every_style_round_trips_awkward_values() {
        let values = [
            "plain",
            "it's",
            "say \"hi\"",
            "back\\slash",
            "two\nlines",
            "crlf\r\nline",
            "bare\rcr",
            "tab\there",
            "\u{1}ctl\u{7f}",
            "ends with quote\"",
            "quotes \"\"\" inside",
            "''' literal",
            "ends'",
            "\nleading break",
            "",
        ];
        for v in values {
            for style in [
                Style::Basic,
                Style::Literal,
                Style::MlBasic,
                Style::MlLiteral,
            ] {
                for lead in ["", "\n"] {
                    parses_back(&encode(v, style, lead, "\n"), v);
                    parses_back(&encode(v, style, lead, "\r\n"), v);
                }
            }
        }
    }

    #[test]
    fn keeps_the_preferred_style_when_possible() {
        assert_eq!(encode("a/*", Style::Literal, "", "\n"), "'a/*'");
        assert_eq!(encode("it's", Style::Literal, "", "\n"), "\"it's\"");
        assert_eq!(encode("x\ny", Style::MlLiteral, "\n", "\n"), "'''\nx\ny'''");
        assert_eq!(encode("x\ny", Style::MlBasic, "\r\n", "\r\n"), "\"x\\ny\"");
        assert_eq!(
            encode("x\r\ny", Style::MlBasic, "\r\n", "\r\n"),
            "\"\"\"\r\nx\r\ny\"\"\""
        );
        assert_eq!(style_of("'''x'''"), Style::MlLiteral);
        assert_eq!(ml_lead_of("\"\"\"\r\nx\"\"\""), "\r\n");
    }

    /// jp-kb's encoder before `toml_writer`, kept as the reference the
    /// switch must match byte for byte.
    fn old_basic(value: &str) -> String {
        let mut out = String::from('"');
        for c in value.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c => push_escaped_control(&mut out, c),
            }
        }
        out.push('"');
        out
    }

    fn old_literal(value: &str) -> String {
        if !value.contains('\'') && !value.chars().any(is_control) {
            format!("'{value}'")
        } else {
            old_basic(value)
        }
    }

    fn old_key(key: &str) -> String {
        let bare = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
        if !key.is_empty() && key.bytes().all(bare) {
            key.to_owned()
        } else {
            old_basic(key)
        }
    }

    /// Every string of up to three characters over an alphabet of what
    /// makes quoting hard: quotes, backslash, each escaped control, other
    /// controls, DEL, C1 and format characters, non-ASCII, and the
    /// characters of bare keys.
    fn awkward_strings() -> Vec<String> {
        let alphabet = [
            'a', 'Z', '0', '-', '_', '.', '/', ':', ' ', '#', '=', '[', '{', '$', '"', '\'', '\\',
            '\t', '\n', '\r', '\u{8}', '\u{c}', '\u{0}', '\u{1b}', '\u{1f}', '\u{7f}', '\u{85}',
            '\u{9b}', '\u{feff}', '\u{202e}', 'é', '€', '😀',
        ];
        let mut out = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            out.extend(last.iter().cloned());
        }
        out
    }

    #[test]
    fn toml_writer_matches_the_old_encoder() {
        let strings = awkward_strings();
        assert!(strings.len() > 35_000, "{}", strings.len());
        for v in &strings {
            assert_eq!(basic(v), old_basic(v), "basic {v:?}");
            let literal = encode(v, Style::Literal, "", "\n");
            assert_eq!(literal, old_literal(v), "literal {v:?}");
            assert_eq!(crate::keys::key_repr(v), old_key(v), "key {v:?}");
        }
        // And what is written reads back (every pair of characters).
        for v in strings.iter().filter(|v| v.chars().count() <= 2) {
            parses_back(&basic(v), v);
            parses_back(&encode(v, Style::Literal, "", "\n"), v);
            let key = crate::keys::key_repr(v);
            let doc = toml_edit::Document::parse(format!("{key} = 1\n")).unwrap();
            assert!(doc.contains_key(v), "key {v:?} as {key}");
        }
    }

    #[test]
    fn toml_writer_breaks_crlf_multi_line() {
        use toml_writer::{ToTomlValue as _, TomlStringBuilder};
        let value = "a\r\nb";
        let theirs = TomlStringBuilder::new(value).as_ml_basic().to_toml_value();
        assert_eq!(theirs, "\"\"\"\na\\r\nb\"\"\"");
        assert_eq!(
            encode(value, Style::MlBasic, "\r\n", "\r\n"),
            "\"\"\"\r\na\r\nb\"\"\""
        );
        assert!(TomlStringBuilder::new(value).as_ml_literal().is_none());
        assert_eq!(
            encode(value, Style::MlLiteral, "\r\n", "\r\n"),
            "'''\r\na\r\nb'''"
        );
        // A value the file wrote right after the quotes gains a break.
        let theirs = TomlStringBuilder::new("x\ny").as_ml_literal();
        assert_eq!(
            theirs.map(|s| s.to_toml_value()).as_deref(),
            Some("'''\nx\ny'''")
        );
        assert_eq!(encode("x\ny", Style::MlLiteral, "", "\n"), "'''x\ny'''");
    }
}
