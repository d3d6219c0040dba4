//! Making untrusted text safe for the terminal: file names and file
//! contents may hold control characters and escape sequences, which must
//! be shown, never sent raw.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Replaces C0/C1 control characters and DEL by their caret/`<U+..>`
/// notation and tabs by spaces; `keep_newlines` keeps `\n`.
pub fn clean_text(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && !(keep_newlines && c == '\n');
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\t' => out.push_str("    "),
            '\r' if keep_newlines => {}
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from(b'@' + u8::try_from(c as u32).unwrap_or(0)));
            }
            c if c.is_control() => {
                let _ = write!(out, "<U+{:04X}>", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A name (slug, path, title) on one line.
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
}
