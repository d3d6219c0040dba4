//! `o200k_base`'s pre-split: the regular expression that cuts text into
//! pieces before byte-pair merges, which never cross a piece.
//!
//! tiktoken's expression has one negative look-ahead, `\s+(?!\S)`, which
//! the `regex` engines do not support. As in the `bpe-openai` crate, it is
//! matched as `\s+\s` (a separate pattern) with the last character given
//! back, and `\s+$` covers the end of the text. The split is anchored at
//! the end of the previous piece, so every character lands in a piece.

use std::sync::LazyLock;

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

/// The alternatives of tiktoken's `o200k_base` pattern, in its order.
const WORDS_AND_SPACES: &[&str] = &[
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"\p{N}{1,3}",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"\s*[\r\n]+",
    r"\s+$",
];
/// `\s+(?!\S)`: whitespace not followed by a non-space, matched with the
/// following (space) character, which is then given back.
const SPACES_BEFORE_SPACE: &str = r"\s+\s";
const SPACES: &str = r"\s+";

/// Pattern indices whose match ends with one look-ahead character.
const LOOKAHEAD: [bool; 3] = [false, true, false];

static PRE_SPLIT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let words = WORDS_AND_SPACES.join("|");
    Regex::new_many(&[words.as_str(), SPACES_BEFORE_SPACE, SPACES]).ok()
});

/// The pieces of `text`, in order; concatenated they are `text`.
pub fn pieces(text: &str) -> Pieces<'_> {
    Pieces {
        regex: PRE_SPLIT.as_ref(),
        text,
        at: 0,
    }
}

/// See [`pieces`].
pub struct Pieces<'a> {
    regex: Option<&'a Regex>,
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.text.get(self.at..).filter(|r| !r.is_empty())?;
        let start = self.at;
        // Every character matches one alternative; should the pattern
        // ever fail to build or match, the rest is one piece (a count
        // that is still close, never a panic).
        let found = self
            .regex
            .and_then(|re| re.find(Input::new(rest).anchored(Anchored::Yes)));
        let mut end = found.map_or(rest.len(), |m| m.end());
        if let Some(m) = found
            && LOOKAHEAD.get(m.pattern().as_usize()).copied() == Some(true)
            && let Some(last) = rest[..end].chars().next_back()
            && end > last.len_utf8()
        {
            end -= last.len_utf8();
        }
        if end == 0 {
            end = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        self.at = start + end;
        Some(&rest[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        pieces(text).collect()
    }

    #[test]
    fn splits_as_tiktoken_does() {
        assert_eq!(split("Hello, world!"), ["Hello", ",", " world", "!"]);
        // Spaces before a word go with it; the rest stand alone.
        assert_eq!(split("a   b"), ["a", "  ", " b"]);
        assert_eq!(split("x  \n\ny"), ["x", "  \n\n", "y"]);
        assert_eq!(split("end   "), ["end", "   "]);
        assert_eq!(split("12345"), ["123", "45"]);
        assert_eq!(split("don't"), ["don't"]);
        assert_eq!(split("```\n/x"), ["```\n/", "x"]);
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("日本語 テキスト"), ["日本語", " テキスト"]);
    }
}
