//! How hits are ranked: BM25F over the fields of a document, a share for
//! the query's words a document holds, and a small prior for subjects
//! that other subjects mention.
//!
//! - **BM25F** (Robertson, Zaragoza): each field's term count is
//!   normalised by that field's length against its average, weighted, and
//!   summed before one saturation, so a word in a short name counts more
//!   than the same word once in a long body, and a long page of examples
//!   is not punished for its examples.
//! - **Coordination**: a document holding all the query's words ranks
//!   above one that holds a single rare word many times.
//! - **Mentions**: how many other documents name a subject in code (the
//!   first word of an inline code span, `` `tar` ``, `` `sort file | uniq` ``,
//!   counting the commands after pipes too, and `` `git log` `` as a
//!   mention of `git-log` as well as of `git`): a main page that others refer
//!   to beats a rarely used one with the same words. It multiplies the
//!   score by `1 + prior × ln(1 + mentions)`, a tie-breaker more than a
//!   ranking of its own.
//!
//! - **Named by the query**: what a name holds of the query is scored
//!   apart from the fields' BM25F, where it saturated with the body: a
//!   long page using a word a hundred times scored as high as the short
//!   page named by it (`provider` found `README/providers` 13th on JP's
//!   documentation). It adds `named × (query's IDF) × (q × n)^named_b`,
//!   `q` the share of the query's IDF the name holds and `n` the share of
//!   the name's words that are the query's: a name made of the query's
//!   words gets it whole, a long title that mentions one of them little.
//! - **Names**: a name that begins with a query word (`useradd` for
//!   "user"), a short one that ends with one (`lscpu` for "cpu": 3–12
//!   ASCII letters and digits, see [`crate::abbrev::candidate`]) or one
//!   that abbreviates query words (`mkdir` for "make a directory", see
//!   [`crate::abbrev`]) counts as a weaker match in the name. A
//!   subject's name is the last part of its slug: the directories above
//!   it are summary words (see [`crate::segment::SUMMARY`]).
//!
//! The defaults were chosen on the labelled tldr queries
//! (`benches/search_queries.tsv`; `docs/perf.md`, "Search, second pass"
//! to "Search, fourth pass") and, for the name, on queries naming pages
//! of JP's documentation (`benches/tuning/`), and checked on held-out ones
//! (`cargo bench --bench search -- sweep`; `docs/perf.md`, "Search").

use crate::segment::FIELDS;

/// The ranking's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scoring {
    /// What a name made of the query's words adds, on top of the fields'
    /// BM25F, as a share of the query's IDF (see "Named by the query"
    /// above); 0 turns it off.
    pub named: f32,
    /// How steeply it falls as the name holds less of the query, or the
    /// query less of the name (an exponent).
    pub named_b: f32,
    /// Saturation of the (weighted, normalised) term frequency.
    pub k1: f32,
    /// Per field ([`crate::segment::NAME`], `SUMMARY`, `BODY`): weight.
    pub weights: [f32; FIELDS],
    /// Per field: length normalisation (0 none, 1 full).
    pub b: [f32; FIELDS],
    /// What a word that merely begins with the last word typed counts, as
    /// a share of a whole-word match.
    pub prefix_boost: f32,
    /// Exponent of the share of the query's words a document holds.
    pub coord: f32,
    /// How the share is counted: 0 by words, 1 by the words' IDF (a
    /// page holding the query's one rare word holds most of what it
    /// asks), in between a blend.
    pub coord_idf: f32,
    /// Weight of the mentions prior.
    pub prior: f32,
    /// What a name that begins with a query word (`useradd` for "user")
    /// or, if short, ends with one (`lscpu` for "cpu") counts, as a share
    /// of a whole-word match in the name; 0 turns it off.
    pub name_prefix: f32,
    /// What a name that abbreviates query words (`mkdir` for "make a
    /// directory", see [`crate::abbrev`]) counts for each word it takes a
    /// piece of, as a share of that word in the name; 0 turns it off.
    pub abbrev: f32,
}

impl Default for Scoring {
    fn default() -> Self {
        Self {
            k1: 2.0,
            weights: [10.0, 1.5, 1.0],
            b: [0.6, 0.5, 0.3],
            named: 2.0,
            named_b: 3.0,
            prefix_boost: 0.3,
            coord: 1.0,
            coord_idf: 0.5,
            prior: 0.3,
            name_prefix: 0.5,
            abbrev: 0.3,
        }
    }
}

/// The first byte of a mention term: never the start of a word term
/// (words are letters and digits), so mentions and words cannot meet.
pub const MENTION_MARK: char = '`';

/// The mention term for a subject called `name` (folded: lower case).
pub fn mention_term(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    out.push(MENTION_MARK);
    out.extend(name.chars().flat_map(char::to_lowercase));
    out
}

/// The name other documents would mention a subject by: the last part of
/// its slug.
pub fn subject_name(slug: &str) -> &str {
    slug.rsplit('/').next().unwrap_or(slug)
}

/// Calls `each` with the names `line` mentions in code: the first word of
/// each inline code span and the first word after each `|` in it, and
/// for a command followed by a subcommand (`git log`) the two joined by
/// `-` (`git-log`, the name a subcommand's page goes by).
pub fn mentions(line: &str, mut each: impl FnMut(&str)) {
    let mut parts = line.split('`');
    // Odd parts are inside backticks.
    parts.next();
    let mut subcommand = String::new();
    while let Some(code) = parts.next() {
        for command in code.split('|') {
            let mut words = command.split_whitespace();
            let word = words.next().unwrap_or_default();
            let word = word.trim_matches(|c: char| !c.is_alphanumeric());
            if !word.is_empty() && word.len() <= 64 {
                each(word);
                // `git log` mentions `git`, and the page of its
                // subcommand, named `git-log` by convention.
                if let Some(sub) = words.next().filter(|w| is_subcommand(w)) {
                    subcommand.clear();
                    subcommand.extend([word, "-", sub]);
                    each(&subcommand);
                }
            }
        }
        parts.next();
    }
}

/// A word that can name a subcommand: lower-case letters, then letters,
/// digits or `-` (not an option, a placeholder or a path).
fn is_subcommand(word: &str) -> bool {
    word.len() <= 32
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_first_words_of_code_and_after_pipes() {
        let mut found = Vec::new();
        mentions(
            "See also: `tar`, `sort {{file}} | uniq -c`, `git log -p`, text `` and `{{x}}`",
            |w| found.push(w.to_owned()),
        );
        assert_eq!(found, ["tar", "sort", "uniq", "git", "git-log", "x"]);
        assert_eq!(mention_term("Tar"), "`tar");
        assert_eq!(subject_name("common/git-log"), "git-log");
    }
}
