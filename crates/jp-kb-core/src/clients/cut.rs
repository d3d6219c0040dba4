//! How a client counts when it cuts a text: characters, or UTF-16 code
//! units (a JavaScript client: `text.slice(0, n)`). A profile names the
//! unit (`unit = "utf-16"`), so `prompt --client` and `check --client`
//! count as the client does: a character outside the Basic Multilingual
//! Plane is one character but two units.

use std::fmt;

/// What a client's length limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unit {
    /// Unicode scalar values (`str::chars`).
    Chars,
    /// UTF-16 code units (JavaScript's `length` and `slice`).
    Utf16,
}

/// What `Unit::cut` keeps of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Kept {
    /// The text as it arrives, without the client's marker.
    pub text: String,
    /// Whether the cut fell inside a surrogate pair: JavaScript keeps the
    /// pair's first half alone, which no `String` can hold, so `text`
    /// ends with U+FFFD where it was (docs/decisions.md, "UTF-16 cuts").
    pub split_pair: bool,
}

impl Unit {
    /// The profile's name for the unit.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "characters" => Some(Self::Chars),
            "utf-16" => Some(Self::Utf16),
            _ => None,
        }
    }

    /// The length of `text` in this unit.
    pub fn count(self, text: &str) -> usize {
        match self {
            Self::Chars => text.chars().count(),
            Self::Utf16 => text.encode_utf16().count(),
        }
    }

    /// The first `max` units of `text`, as the client keeps them.
    pub fn cut(self, text: &str, max: usize) -> Kept {
        let whole = |end: usize| Kept {
            text: text[..end].to_owned(),
            split_pair: false,
        };
        match self {
            Self::Chars => whole(text.char_indices().nth(max).map_or(text.len(), |(i, _)| i)),
            Self::Utf16 => {
                let mut units = 0;
                for (at, c) in text.char_indices() {
                    let width = c.len_utf16();
                    if units + width > max {
                        // A pair straddling the cut: its high half is kept
                        // alone when exactly one unit is left.
                        if units < max {
                            return Kept {
                                text: format!("{}\u{fffd}", &text[..at]),
                                split_pair: true,
                            };
                        }
                        return whole(at);
                    }
                    units += width;
                }
                whole(text.len())
            }
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Chars => "characters",
            Self::Utf16 => "UTF-16 units",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_characters_or_utf16_units() {
        assert_eq!(Unit::Chars.count("a😀é"), 3);
        assert_eq!(Unit::Utf16.count("a😀é"), 4);
    }

    #[test]
    fn cuts_like_javascript_slice() {
        let cut = |unit: Unit, max| unit.cut("ab😀c", max);
        assert_eq!(cut(Unit::Utf16, 2).text, "ab");
        assert_eq!(cut(Unit::Utf16, 4).text, "ab😀");
        assert_eq!(cut(Unit::Utf16, 9).text, "ab😀c");
        assert_eq!(cut(Unit::Chars, 3).text, "ab😀");
        // `"ab😀c".slice(0, 3)` is "ab\uD83D": a lone high surrogate,
        // shown as U+FFFD (one unit, so the count stays 3).
        let straddling = cut(Unit::Utf16, 3);
        assert_eq!(straddling.text, "ab\u{fffd}");
        assert!(straddling.split_pair);
        assert_eq!(Unit::Utf16.count(&straddling.text), 3);
    }
}
