//! The one line of a hit shown under it: the line holding the most query
//! terms, cut to a readable width around the first match, with the matched
//! words marked.

use std::ops::Range;

use crate::tokenize::Tokenizer;

/// Widest snippet, in characters.
const WIDTH: usize = 160;

/// A line of text and the byte ranges of its matched words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snippet {
    /// The line, cut to a readable width (`…` where it was cut).
    pub text: String,
    /// The byte ranges of the matched words in `text`, in order.
    pub marks: Vec<Range<usize>>,
}

impl Snippet {
    /// The text with each matched word wrapped in `**`.
    pub fn marked(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + 4 * self.marks.len());
        let mut at = 0;
        for m in &self.marks {
            out.push_str(self.text.get(at..m.start).unwrap_or_default());
            out.push_str("**");
            out.push_str(self.text.get(m.clone()).unwrap_or_default());
            out.push_str("**");
            at = m.end;
        }
        out.push_str(self.text.get(at..).unwrap_or_default());
        out
    }
}

/// The snippet of `body` (a file's text after any front matter) for the
/// query terms `terms`: its line holding the most of them, else its first
/// line that is not a heading.
pub fn snippet(tokenizer: &mut Tokenizer, body: &str, terms: &[String]) -> Snippet {
    let mut best: Option<(usize, &str, Vec<Range<usize>>)> = None;
    let mut fallback = None;
    for line in body.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if fallback.is_none() && !line.starts_with('#') {
            fallback = Some(line);
        }
        let mut found: Vec<&String> = Vec::new();
        let mut marks = Vec::new();
        tokenizer.terms(line, |t, range| {
            if let Some(q) = terms.iter().find(|q| q.as_str() == t) {
                marks.push(range);
                if !found.contains(&q) {
                    found.push(q);
                }
            }
        });
        if found.len() > best.as_ref().map_or(0, |b| b.0) {
            best = Some((found.len(), line, marks));
        }
    }
    match best {
        Some((_, line, marks)) => cut(line, marks),
        None => cut(fallback.unwrap_or_default(), Vec::new()),
    }
}

/// Cuts `line` to [`WIDTH`] characters, keeping the first mark in view.
fn cut(line: &str, marks: Vec<Range<usize>>) -> Snippet {
    let chars = line.chars().count();
    if chars <= WIDTH {
        return Snippet {
            text: line.to_owned(),
            marks,
        };
    }
    let first = marks.first().map_or(0, |m| m.start);
    let first_char = line[..first].chars().count();
    let start_char = first_char.saturating_sub(WIDTH / 4).min(chars - WIDTH);
    let byte_at = |n: usize| line.char_indices().nth(n).map_or(line.len(), |(i, _)| i);
    let (start, end) = (byte_at(start_char), byte_at(start_char + WIDTH));
    let prefix = if start > 0 { "…" } else { "" };
    let suffix = if end < line.len() { "…" } else { "" };
    let shift = prefix.len();
    let marks = marks
        .into_iter()
        .filter(|m| m.start >= start && m.end <= end)
        .map(|m| m.start - start + shift..m.end - start + shift)
        .collect();
    Snippet {
        text: format!("{prefix}{}{suffix}", &line[start..end]),
        marks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_line_with_most_terms_and_marks_them() {
        let mut t = Tokenizer::new();
        let terms = t.query_terms("extract archive");
        let text = "# tar\n\n> Archiving utility.\n\n- Extract an archive:\n\n`tar xf x`";
        let s = snippet(&mut t, text, &terms);
        assert_eq!(s.marked(), "- **Extract** an **archive**:");
    }

    #[test]
    fn long_lines_are_cut_around_the_match() {
        let mut t = Tokenizer::new();
        let terms = t.query_terms("needle");
        let text = format!("{} needle {}", "word ".repeat(100), "tail ".repeat(100));
        let s = snippet(&mut t, &text, &terms);
        assert!(s.text.starts_with('…') && s.text.ends_with('…'));
        assert!(s.marked().contains("**needle**"));
        assert!(s.text.chars().count() <= WIDTH + 2);
    }

    #[test]
    fn without_a_match_the_first_body_line() {
        let mut t = Tokenizer::new();
        let terms = t.query_terms("zzz");
        let s = snippet(&mut t, "# T\nFirst line.", &terms);
        assert_eq!(s.marked(), "First line.");
    }
}
