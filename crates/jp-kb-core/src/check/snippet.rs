//! The part of a source text a diagnostic quotes: the lines around one
//! finding's span, answering miette in the coordinates of the whole text.
//!
//! Quoting through a window costs the window, not the file: 100k findings
//! in one large file render in linear time (miette scans a plain source
//! from its start). A line too long to read (a one-line `learned` array, a
//! minified configuration) is quoted as a bounded piece around the span,
//! marked `…` where it is cut: each finding then costs a constant, so a
//! one-line array of N patterns prints O(N), not O(N²), and no caret is
//! padded past the `u16::MAX` width Rust's `format!` accepts (miette pads
//! with a width argument, and panics past column 65,535).

use std::ops::Range;

use jp_kb_toml::text::floor_char_boundary;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::config::spans::LineIndex;

/// Lines of the source shown around a span: more than the handler's one
/// line of context, so that the window always holds what it asks for.
const WINDOW_LINES: u32 = 3;
/// A window holding a line longer than this (in bytes), or longer than
/// [`MAX_WINDOW`] in all, is quoted as a piece of the span's lines.
const LONG_LINE: usize = 240;
const MAX_WINDOW: usize = 4 * 1024;
/// Bytes of a long line quoted on each side of the span.
const SIDE: usize = 48;
/// Most bytes of a span underlined in a long line.
const MAX_SPAN: usize = 120;
/// Where a long line is cut.
const MARK: &str = "…";

/// The quoted piece of a source text and where it is in the text.
pub(super) struct Snippet {
    name: String,
    window: String,
    /// Byte offset in the text of the window's first byte after
    /// [`Self::prefix`], and that byte's 0-based line.
    offset: usize,
    line: usize,
    /// Bytes of the `…` opening a cut line (0 when not cut).
    prefix: usize,
    /// Bytes of the first line cut off before the window (its column
    /// shift).
    skipped: usize,
}

impl Snippet {
    /// The window around `span` of `text` (indexed by `index`), and the
    /// span it underlines: `span` itself, or its first [`MAX_SPAN`] bytes
    /// on a long line.
    pub(super) fn new(
        name: String,
        text: &str,
        index: &LineIndex,
        span: &Range<usize>,
    ) -> (Self, Range<usize>) {
        let first = index.line(span.start).saturating_sub(WINDOW_LINES).max(1);
        let last = index.line(span.end).saturating_add(WINDOW_LINES + 1);
        let start = index.offset(text, first, 1);
        let end = index.offset(text, last, 1).max(start);
        let window = text.get(start..end).unwrap_or_default();
        if window.len() <= MAX_WINDOW && window.lines().all(|l| l.len() <= LONG_LINE) {
            let snippet = Self {
                name,
                window: window.to_owned(),
                offset: start,
                line: usize::try_from(first - 1).unwrap_or(0),
                prefix: 0,
                skipped: 0,
            };
            return (snippet, span.clone());
        }
        Self::cut(name, text, index, span)
    }

    /// A piece of the span's line(s): at most [`SIDE`] bytes before it,
    /// [`MAX_SPAN`] of it and [`SIDE`] after it, with no context line.
    fn cut(
        name: String,
        text: &str,
        index: &LineIndex,
        span: &Range<usize>,
    ) -> (Self, Range<usize>) {
        let line = index.line(span.start);
        let line_start = index.offset(text, line, 1).min(span.start);
        // Cut before the span only when the `…` fits in what is cut, so
        // that the window's coordinates stay inside the text.
        let (from, prefix) = if span.start - line_start > SIDE + 2 * MARK.len() {
            (floor_char_boundary(text, span.start - SIDE), MARK.len())
        } else {
            (line_start, 0)
        };
        let span_end = span
            .end
            .min(floor_char_boundary(
                text,
                span.start.saturating_add(MAX_SPAN),
            ))
            .max(span.start);
        let end_line = index.line(span_end);
        let line_end = line_end(text, index, end_line).max(span_end);
        let to = floor_char_boundary(text, span_end.saturating_add(SIDE)).min(line_end);
        let mut window = String::with_capacity(to - from + 2 * MARK.len());
        if prefix > 0 {
            window.push_str(MARK);
        }
        window.push_str(text.get(from..to).unwrap_or_default());
        if to < line_end {
            window.push_str(MARK);
        }
        let snippet = Self {
            name,
            window,
            offset: from,
            line: usize::try_from(line - 1).unwrap_or(0),
            prefix,
            skipped: from - line_start,
        };
        (snippet, span.start..span_end)
    }
}

/// Where 1-based `line` of `text` ends, before its `\n` or `\r\n`: found
/// from the next line's start, not by scanning the line.
fn line_end(text: &str, index: &LineIndex, line: u32) -> usize {
    let next = index.offset(text, line.saturating_add(1), 1);
    if index.line(next) == line {
        return text.len();
    }
    let end = next.saturating_sub(1);
    if end > 0 && text.as_bytes().get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let local = span
            .offset()
            .checked_sub(self.offset)
            .ok_or(MietteError::OutOfBounds)?
            + self.prefix;
        let inner = self.window.as_str().read_span(
            &SourceSpan::new(local.into(), span.len()),
            context_lines_before,
            context_lines_after,
        )?;
        // The window's first line starts `skipped` bytes into the text's
        // line, and its `…` is no column of the text.
        let column = if inner.line() == 0 {
            (inner.column() + self.skipped).saturating_sub(self.prefix)
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new(
                (inner.span().offset() + self.offset - self.prefix).into(),
                inner.span().len(),
            ),
            inner.line() + self.line,
            column,
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, span: Range<usize>) -> (String, Range<usize>) {
        let index = LineIndex::new(text);
        let (snippet, span) = Snippet::new("f".to_owned(), text, &index, &span);
        (snippet.window, span)
    }

    #[test]
    fn short_lines_are_quoted_whole_with_context() {
        let text = "a\nb = 1\nc\n";
        assert_eq!(cut(text, 2..3), (text.to_owned(), 2..3));
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let text = format!(
            "k = [{}\"x\"{}]\nnext\n",
            "1,".repeat(500),
            ",2".repeat(500)
        );
        let at = text.find("\"x\"").unwrap_or(0);
        let (window, span) = cut(&text, at..at + 3);
        assert_eq!(span, at..at + 3);
        assert!(
            window.starts_with(MARK) && window.ends_with(MARK),
            "{window}"
        );
        assert!(
            window.contains("\"x\"") && window.len() < 2 * SIDE + 20,
            "{window}"
        );
    }

    #[test]
    fn a_long_span_is_underlined_in_part_and_never_split() {
        let text = format!("k = \"{}\"\n", "é".repeat(400));
        let (window, span) = cut(&text, 4..text.len() - 1);
        assert!(span.len() <= MAX_SPAN && text.is_char_boundary(span.end));
        assert!(
            window.starts_with("k = \"é") && window.ends_with(MARK),
            "{window}"
        );
    }
}
