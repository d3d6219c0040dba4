//! Words the way people type them: split at anything that is not a letter
//! or digit (so slugs split at `-`, `_`, `/`, `.`), folded to lower case
//! without accents, and stemmed with the English Snowball stemmer
//! (`archives`, `archiving` → `archiv`). Han and kana characters, written
//! without spaces, are one word each.
//!
//! The index and the query use the same [`Tokenizer`], so a change here
//! must bump [`crate::segment::FORMAT_VERSION`].

use crate::hash::FastMap;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::UnicodeNormalization as _;
use unicode_normalization::char::is_combining_mark;

/// Longest word kept, in bytes: longer runs (base64, hashes) are noise and
/// would bloat the dictionary.
const MAX_WORD_BYTES: usize = 64;

/// Common English words dropped from a query unless the query has nothing
/// else (a search for `who` or `at` still finds those commands' pages).
/// They stay in the index: slugs such as `at`, `which` or `yes` are words
/// from this list.
const STOP_WORDS: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does",
    "for", "from", "get", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of",
    "on", "or", "show", "so", "some", "that", "the", "their", "them", "then", "there", "these",
    "this", "to", "use", "using", "want", "was", "what", "when", "where", "which", "with", "you",
    "your",
];

/// A tokenizer with a cache of stems: stemming is the costly step, and a
/// corpus repeats the same few hundred thousand words.
pub struct Tokenizer {
    stemmer: Stemmer,
    stems: FastMap<String, String>,
    word: String,
}

impl std::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("cached_stems", &self.stems.len())
            .finish_non_exhaustive()
    }
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

/// Longest mnemonic in brackets inside a word, in characters.
const MAX_MNEMONIC: usize = 4;

/// A character of a word (ideographs are words of their own).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_ideographic(c)
}

/// The byte after `[abc]` when `text[open..]` starts with a bracketed run
/// of one to [`MAX_MNEMONIC`] word characters.
fn mnemonic_end(text: &str, open: usize) -> Option<usize> {
    let rest = text.get(open + 1..)?;
    for (n, (i, c)) in rest.char_indices().enumerate() {
        if c == ']' {
            return (n > 0).then_some(open + 1 + i + 1);
        }
        if n >= MAX_MNEMONIC || !is_word_char(c) {
            return None;
        }
    }
    None
}

/// True for characters of scripts written without spaces between words.
fn is_ideographic(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // hiragana, katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x2FFFF) // CJK extensions B…
}

impl Tokenizer {
    pub fn new() -> Self {
        Self {
            stemmer: Stemmer::create(Algorithm::English),
            stems: FastMap::default(),
            word: String::new(),
        }
    }

    /// Calls `each` with every term of `text`, in order, with the byte range
    /// of the word it came from.
    pub fn terms(&mut self, text: &str, mut each: impl FnMut(&str, std::ops::Range<usize>)) {
        let mut start = None;
        let mut skip_to = 0;
        for (i, c) in text.char_indices() {
            if i < skip_to {
                continue;
            }
            if is_word_char(c) {
                start.get_or_insert(i);
                continue;
            }
            // A mnemonic letter inside a word (`E[x]tract`, `[c]reate`,
            // `Lis[t]`) is part of it.
            if c == '['
                && let Some(end) = mnemonic_end(text, i)
                && (start.is_some()
                    || text
                        .get(end..)
                        .and_then(|r| r.chars().next())
                        .is_some_and(is_word_char))
            {
                start.get_or_insert(i);
                skip_to = end;
                continue;
            }
            if let Some(s) = start.take() {
                self.emit(text, s..i, &mut each);
            }
            if is_ideographic(c) {
                self.emit(text, i..i + c.len_utf8(), &mut each);
            }
        }
        if let Some(s) = start {
            self.emit(text, s..text.len(), &mut each);
        }
    }

    /// The terms of `text` as owned strings.
    pub fn terms_of(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.terms(text, |t, _| out.push(t.to_owned()));
        out
    }

    /// The distinct terms of a query, stop words dropped unless nothing
    /// else is left.
    pub fn query_terms(&mut self, query: &str) -> Vec<String> {
        let mut all = Vec::new();
        let mut kept = Vec::new();
        let mut folded = String::new();
        // Stop words are judged on the folded word, before stemming.
        let mut ranges = Vec::new();
        self.terms(query, |_, range| ranges.push(range));
        for range in ranges {
            let Some(word) = query.get(range) else {
                continue;
            };
            fold_into(word, &mut folded);
            let stop = STOP_WORDS.binary_search(&folded.as_str()).is_ok();
            for term in self.terms_of(word) {
                if !all.contains(&term) {
                    all.push(term.clone());
                }
                if !stop && !kept.contains(&term) {
                    kept.push(term);
                }
            }
        }
        if kept.is_empty() { all } else { kept }
    }

    /// The last word of `query`, folded but not stemmed, when the query
    /// ends inside it (it may still be being typed).
    pub fn last_word(query: &str) -> Option<String> {
        let end = query.trim_end_matches(']');
        let start = end
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_word_char(c) || matches!(c, '[' | ']'))
            .last()
            .map(|(i, _)| i)?;
        let mut folded = String::new();
        fold_into(end.get(start..)?, &mut folded);
        Some(folded).filter(|w| !w.is_empty())
    }

    fn emit(
        &mut self,
        text: &str,
        range: std::ops::Range<usize>,
        each: &mut impl FnMut(&str, std::ops::Range<usize>),
    ) {
        let Some(word) = text.get(range.clone()) else {
            return;
        };
        if word.len() > MAX_WORD_BYTES {
            return;
        }
        let mut folded = std::mem::take(&mut self.word);
        fold_into(word, &mut folded);
        // The plural of an acronym (`CPUs`, `URLs`, `PDFs`) is the acronym:
        // the stemmer keeps the `s` of `cpus`.
        if is_acronym_plural(word) {
            folded.pop();
        }
        if !folded.is_empty() {
            if let Some(stem) = self.stems.get(folded.as_str()) {
                each(stem, range);
            } else {
                let mut stem = self.stemmer.stem(&folded).into_owned();
                // An adverb in `-rily` is its adjective in `-ry`
                // (`temporarily`, `necessarily`, `satisfactorily`): Snowball
                // drops `-li` only after a "valid li-ending", never after
                // the `i` that `-ry` became, so `temporarili` would never
                // meet `temporari`.
                if stem.ends_with("rili") {
                    stem.truncate(stem.len() - 2);
                }
                each(&stem, range);
                self.stems.insert(folded.clone(), stem);
            }
        }
        self.word = folded;
    }
}

/// Two or more ASCII capitals (digits allowed after the first) and a
/// lower-case `s`: `CPUs`, `IDs`, `MP3s`.
fn is_acronym_plural(word: &str) -> bool {
    let Some(stem) = word.strip_suffix('s') else {
        return false;
    };
    stem.len() >= 2
        && stem.starts_with(|c: char| c.is_ascii_uppercase())
        && stem
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// Lower case, accents removed (`Éco` → `eco`), into `out`.
/// Brackets of a mnemonic (`E[x]tract`) are dropped.
pub fn fold_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.extend(
            word.chars()
                .filter(|c| !matches!(c, '[' | ']'))
                .map(|c| c.to_ascii_lowercase()),
        );
        return;
    }
    for c in word.chars().flat_map(char::to_lowercase).nfd() {
        if !is_combining_mark(c) && !matches!(c, '[' | ']') {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn splits_slugs_folds_case_and_accents_and_stems() {
        let mut t = Tokenizer::new();
        assert_eq!(
            t.terms_of("git-commit/Amend_files.v2"),
            ["git", "commit", "amend", "file", "v2"]
        );
        assert_eq!(t.terms_of("Éclair CAFÉ"), ["eclair", "cafe"]);
        assert_eq!(t.terms_of("archives archiving"), ["archiv", "archiv"]);
        assert_eq!(t.terms_of("压缩文件"), ["压", "缩", "文", "件"]);
        assert!(t.terms_of("*.[{}]?^$").is_empty());
    }

    #[test]
    fn the_plural_of_an_acronym_is_the_acronym() {
        let mut t = Tokenizer::new();
        assert_eq!(
            t.terms_of("CPUs PDFs MP3s IDs cpu"),
            ["cpu", "pdf", "mp3", "id", "cpu"]
        );
        // Not an acronym: the stemmer decides.
        assert_eq!(t.terms_of("Bus Ls Status"), ["bus", "ls", "status"]);
    }

    #[test]
    fn an_adverb_in_rily_is_its_adjective() {
        let mut t = Tokenizer::new();
        assert_eq!(
            t.terms_of("temporarily temporary necessarily necessary satisfactorily satisfactory"),
            [
                "temporari",
                "temporari",
                "necessari",
                "necessari",
                "satisfactori",
                "satisfactori"
            ]
        );
        // Other words ending in `ili` keep their stem.
        assert_eq!(t.terms_of("families family"), ["famili", "famili"]);
    }

    #[test]
    fn mnemonic_letters_in_brackets_stay_in_their_word() {
        let mut t = Tokenizer::new();
        assert_eq!(
            t.terms_of("E[x]tract a [f]ile, Lis[t] g[z]ipped"),
            ["extract", "a", "file", "list", "gzip"]
        );
        // Brackets that are not a mnemonic inside a word still split.
        assert_eq!(
            t.terms_of("[x] done [-p|--parents] [link](u) a[toolong]"),
            ["x", "done", "p", "parent", "link", "u", "a", "toolong"]
        );
        let mut ranges = Vec::new();
        t.terms("E[x]tract it", |_, r| ranges.push(r));
        assert_eq!(ranges, [0..9, 10..12]);
    }

    #[test]
    fn query_drops_stop_words_unless_nothing_is_left() {
        let mut t = Tokenizer::new();
        assert_eq!(
            t.query_terms("how to extract the archives"),
            ["extract", "archiv"]
        );
        assert_eq!(t.query_terms("who is at"), ["who"]);
        assert_eq!(t.query_terms("at the"), ["at", "the"]);
        assert_eq!(t.query_terms("tar tar TAR"), ["tar"]);
    }

    #[test]
    fn overlong_words_are_dropped() {
        let mut t = Tokenizer::new();
        let long = "a".repeat(MAX_WORD_BYTES + 1);
        assert_eq!(t.terms_of(&format!("{long} ok")), ["ok"]);
    }
}
