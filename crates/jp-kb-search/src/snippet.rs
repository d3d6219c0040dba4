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
        Some((_, line, mut marks)) => {
            marks.retain(|m| markable(line, m));
            cut(line, marks)
        }
        None => cut(fallback.unwrap_or_default(), Vec::new()),
    }
}

/// Whether the matched word at `range` of `line` may be wrapped in `**`:
/// not inside text the line already makes bold (`**Local**-first` became
/// `****Local**-first`), nor inside a link's target (the address would
/// break: `[docs](https://x/**providers**)`).
fn markable(line: &str, range: &Range<usize>) -> bool {
    let before = line.get(..range.start).unwrap_or_default();
    if before.matches("**").count() % 2 == 1 {
        return false;
    }
    !link_targets(line)
        .iter()
        .any(|t| t.start <= range.start && range.end <= t.end)
}

/// The byte ranges of a line's link targets: `[text](target)`, `<scheme:…>`
/// and bare `http://`/`https://` addresses.
fn link_targets(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices("](") {
        let start = at + 2;
        let end = line[start..].find(')').map_or(line.len(), |n| start + n);
        out.push(start..end);
    }
    for (at, _) in line.match_indices('<') {
        if let Some(n) = line[at..].find('>') {
            let inner = &line[at + 1..at + n];
            if inner.contains("://") || inner.starts_with("mailto:") {
                out.push(at + 1..at + n);
            }
        }
    }
    for scheme in ["http://", "https://"] {
        for (at, _) in line.match_indices(scheme) {
            let end = line[at..]
                .find(|c: char| c.is_whitespace() || c == ')' || c == '>')
                .map_or(line.len(), |n| at + n);
            out.push(at..end);
        }
    }
    out
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

    /// Issue 37 item 5: bold in the text is not wrapped again, and an
    /// address keeps its letters.
    #[test]
    fn bold_text_and_link_targets_are_not_marked() {
        let mut t = Tokenizer::new();
        let terms = t.query_terms("local first");
        let s = snippet(&mut t, "**Local**-first, and first of all local.", &terms);
        assert_eq!(
            s.marked(),
            "**Local**-**first**, and **first** of all **local**."
        );
        let terms = t.query_terms("providers");
        let line = "See [providers](https://jp.dev/providers) or <https://x.org/providers> and https://y.org/providers now, providers.";
        let s = snippet(&mut t, line, &terms);
        assert_eq!(
            s.marked(),
            "See [**providers**](https://jp.dev/providers) or <https://x.org/providers> and https://y.org/providers now, **providers**."
        );
    }

    #[test]
    fn without_a_match_the_first_body_line() {
        let mut t = Tokenizer::new();
        let terms = t.query_terms("zzz");
        let s = snippet(&mut t, "# T\nFirst line.", &terms);
        assert_eq!(s.marked(), "First line.");
    }
}
