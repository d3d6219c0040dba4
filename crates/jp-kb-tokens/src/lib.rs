//! Token counts with a real tokenizer: `OpenAI`'s `o200k_base`, offline
//! and exact.
//!
//! The counter is tiktoken's algorithm on a compact copy of its
//! vocabulary ([`vocab`]): the pre-split of [`pretokenize`], then
//! byte-pair merges by rank ([`merge`]). It holds ~4 MB where the
//! `bpe-openai` crate held ~70 MB (search automata, and serialized tables
//! in the binary that stay resident once read), which is most of what the
//! TUI can spend at 100k subjects. The tests check it token for token
//! against `bpe-openai` (itself checked against tiktoken) on generated
//! and real texts.
//!
//! Why we keep our own counter rather than depend on `bpe-openai` or
//! `tiktoken-rs` at run time: measured ~64 MB resident for `bpe-openai`
//! against ~4 MB here, two thirds of the TUI's memory budget at 100k
//! subjects (`docs/perf.md`, "Tokens"); counts are equal token for token
//! on 2,000 random texts and all 38,406 tldr pages.

mod index_hash;
mod merge;
pub mod pretokenize;
pub mod vocab;

/// The tokenizer's name, for reports.
pub const TOKENIZER: &str = "o200k_base";

/// The number of tokens of `text`. Always `Some`: the vocabulary is
/// compiled into the binary (the `Option` keeps callers honest should a
/// tokenizer ever fail to load).
pub fn count_tokens(text: &str) -> Option<usize> {
    let vocab = vocab::o200k_base();
    Some(
        pretokenize::pieces(text)
            .map(|piece| merge::count(vocab, piece.as_bytes()))
            .sum(),
    )
}

/// Counts the tokens of a text handed over in parts, without holding it
/// whole: the count of the `<knowledge>` section of a large knowledge
/// base, read one pre-loaded subject at a time.
///
/// The parts are joined and counted as one text, except that a part
/// starting with `<` that follows text ending in a newline starts a new
/// count: `o200k_base` pre-splits text by a regular expression before
/// its byte-pair merges, and no piece of that split can hold a newline
/// followed by `<` (a run of whitespace ends at its last newline, a run
/// of punctuation may take newlines and `/` after it but nothing else,
/// and a word never starts with a newline). Counting each side apart
/// therefore gives the count of the whole; the tests check it on real
/// texts.
#[derive(Debug, Default)]
pub struct TokenTally {
    pending: String,
    counted: usize,
}

impl TokenTally {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next part of the text.
    pub fn push(&mut self, part: &str) {
        if part.starts_with('<') && self.pending.ends_with('\n') {
            self.counted += count_tokens(&self.pending).unwrap_or(0);
            self.pending.clear();
        }
        self.pending.push_str(part);
    }

    /// The tokens of everything pushed.
    pub fn total(self) -> usize {
        self.counted + count_tokens(&self.pending).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(parts: &[&str]) -> usize {
        let mut t = TokenTally::new();
        for p in parts {
            t.push(p);
        }
        t.total()
    }

    #[test]
    fn a_tally_in_parts_counts_what_the_whole_counts() {
        let cases: &[&[&str]] = &[
            &[
                "<knowledge>\nintro\n\n",
                "<subject \"a\">\nx\n</subject>",
                "\n\n",
                "<subject \"b\">\n  y  \n</subject>\n</topic>",
            ],
            // Whitespace, punctuation and slashes right before the split.
            &["a  \n", "<b>"],
            &["```\n", "<x>"],
            &["*/\n\n  \n", "</y>"],
            &["'s\n", "<'s>"],
            &["日本語\n", "<日本>"],
            &["\n", "<", "\n", "<"],
            // Not a split: no newline before, or no `<` after.
            &["a ", "<b"],
            &["a\n", " <b"],
            &["a\n", "/b"],
        ];
        for parts in cases {
            assert_eq!(
                tally(parts),
                count_tokens(&parts.concat()).unwrap_or(0),
                "{parts:?}"
            );
        }
    }

    #[test]
    fn counts_o200k_tokens() {
        assert_eq!(count_tokens(""), Some(0));
        // "Hello" "," " world" "!" in o200k_base.
        assert_eq!(count_tokens("Hello, world!"), Some(4));
        // Non-ASCII and code count too, never panic.
        assert!(count_tokens("café — 日本語 `fn main() {}`\n").unwrap_or(0) > 5);
    }
}
