//! Names that abbreviate the words of a query: `mkdir` for "make a
//! directory", `pwd` for "print working directory", `chown` for "change
//! owner". Command, tool and file names are very often such contractions
//! of what they do, and no word of the name appears in the query, so
//! neither the words nor their prefixes find them.
//!
//! A name abbreviates a query when it splits into pieces, each taken in
//! order from a different query word: a piece starts with its word's
//! first letter and its other letters appear in the word in order (`mk`
//! in "make", `dir` in "directori"); between two words used, at most one
//! word is skipped ("make a *new* directory"). Only two shapes count (see
//! [`contraction`]): an acronym of three words or more, or pieces of two
//! letters or more ending with the start of a word. A name made of whole
//! query words, or their starts, in any order is one too (`useradd` for
//! "add a user"). Names shorter than [`MIN_NAME`] letters are too easy to
//! meet by chance.

/// Shortest name considered, and the longest (longer names are not
/// contractions).
pub const MIN_NAME: usize = 3;
pub const MAX_NAME: usize = 12;
/// Most query words skipped between two pieces.
const MAX_GAP: usize = 1;

/// True for a name that could abbreviate a query: [`MIN_NAME`] to
/// [`MAX_NAME`] ASCII letters and digits.
pub fn candidate(name: &str) -> bool {
    (MIN_NAME..=MAX_NAME).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The query terms (bit `i` for `terms[i]`, the first 64 only) whose
/// pieces make up `name`, when `name` abbreviates them.
pub fn covers(name: &str, terms: &[String]) -> Option<u64> {
    if !candidate(name) || terms.len() < 2 {
        return None;
    }
    let name = name.as_bytes();
    let words: Vec<&[u8]> = terms.iter().take(64).map(String::as_bytes).collect();
    // Quick refusal: most names start with no query word's letter.
    let first = name[0].to_ascii_lowercase();
    if !words.iter().any(|w| w.first() == Some(&first)) {
        return None;
    }
    let name = name.to_ascii_lowercase();
    contraction(&name, &words, 0, None, Pieces::default()).or_else(|| compound(&name, &words, 0, 0))
}

/// What the pieces placed so far look like.
#[derive(Debug, Clone, Copy, Default)]
struct Pieces {
    used: u64,
    count: u32,
    shortest: usize,
    longest: usize,
}

/// Covers `name[at..]` with pieces of `words` after `last` (the word the
/// previous piece came from), in query order. Accepted: an acronym (three
/// or more one-letter pieces, `pwd`) or pieces of two letters or more
/// whose last is the start of its word (`mk`+`dir`, `ch`+`own`); mixed
/// shapes (`te`+`e` for "text editor" → `tee`) and a last piece taken
/// from inside its word (`fi`+`le` for "first line" → `file`) are chance.
fn contraction(
    name: &[u8],
    words: &[&[u8]],
    at: usize,
    last: Option<usize>,
    pieces: Pieces,
) -> Option<u64> {
    let from = last.map_or(0, |l| l + 1);
    let to = last.map_or(words.len(), |l| (l + 2 + MAX_GAP).min(words.len()));
    for (w, word) in words.iter().enumerate().take(to).skip(from) {
        let longest = piece_len(&name[at..], word);
        for len in (1..=longest).rev() {
            let placed = Pieces {
                used: pieces.used | (1 << w),
                count: pieces.count + 1,
                shortest: if pieces.count == 0 {
                    len
                } else {
                    pieces.shortest.min(len)
                },
                longest: pieces.longest.max(len),
            };
            if at + len == name.len() {
                let acronym = placed.longest == 1 && placed.count >= 3;
                let words_start =
                    placed.shortest >= 2 && placed.count >= 2 && word.starts_with(&name[at..]);
                if acronym || words_start {
                    return Some(placed.used);
                }
                continue;
            }
            if let Some(found) = contraction(name, words, at + len, Some(w), placed) {
                return Some(found);
            }
        }
    }
    None
}

/// Covers `name[at..]` with whole query words or their starts of three
/// letters or more, in any order, each word once (`useradd` for "add a
/// user", `adduser`).
fn compound(name: &[u8], words: &[&[u8]], at: usize, used: u64) -> Option<u64> {
    if at == name.len() {
        return (used.count_ones() >= 2).then_some(used);
    }
    for (w, word) in words.iter().enumerate() {
        if used & (1 << w) != 0 {
            continue;
        }
        let rest = &name[at..];
        let mut len = word.len().min(rest.len());
        while len >= 3.min(word.len()) && len > 0 {
            if rest[..len] == word[..len]
                && let Some(found) = compound(name, words, at + len, used | (1 << w))
            {
                return Some(found);
            }
            len -= 1;
        }
    }
    None
}

/// The longest start of `name` that is a piece of `word`: the same first
/// letter, the others in order.
fn piece_len(name: &[u8], word: &[u8]) -> usize {
    let (Some(n), Some(w)) = (name.first(), word.first()) else {
        return 0;
    };
    if n != w {
        return 0;
    }
    let mut len = 1;
    let mut rest = word[1..].iter();
    for c in &name[1..] {
        if rest.any(|w| w == c) {
            len += 1;
        } else {
            break;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::Tokenizer;

    fn covered(name: &str, query: &str) -> Vec<String> {
        let terms = Tokenizer::new().query_terms(query);
        let Some(mask) = covers(name, &terms) else {
            return Vec::new();
        };
        terms
            .into_iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, t)| t)
            .collect()
    }

    #[test]
    fn contractions_of_the_query_words_are_found() {
        assert_eq!(
            covered("mkdir", "make a new directory"),
            ["make", "directori"]
        );
        assert_eq!(
            covered("pwd", "print the current working directory"),
            ["print", "work", "directori"]
        );
        assert_eq!(
            covered("chown", "change the owner of a file"),
            ["chang", "owner"]
        );
        assert_eq!(
            covered("useradd", "add a new user account"),
            ["add", "user"]
        );
        assert_eq!(
            covered("adduser", "add a new user account"),
            ["add", "user"]
        );
    }

    #[test]
    fn other_names_are_not() {
        // One word is not an abbreviation of a query (the word itself
        // finds it); out of order, too far apart, too short, not letters.
        assert!(covered("make", "make a new directory").is_empty());
        assert!(covered("dirmk", "make a new directory").is_empty());
        assert!(covered("mkdir", "make one new big directory").is_empty());
        assert!(covered("md", "make directory").is_empty());
        assert!(covered("mk-dir", "make directory").is_empty());
        assert!(covered("xyz", "make directory").is_empty());
        // Shapes met by chance: mixed piece lengths, a last piece from
        // inside its word.
        assert!(covered("tee", "text editor in the terminal").is_empty());
        assert!(covered("file", "show the first lines of a file").is_empty());
    }
}
