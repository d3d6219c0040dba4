//! Positions in configuration texts: the one mapping between byte offsets
//! and 1-based lines and *character* columns, used by parse errors, spans,
//! `check`'s findings and the editor's errors alike (TOML, and the JSON
//! and YAML layers too).
//!
//! A leading UTF-8 byte order mark is not a column. A position is the one
//! a person's editor shows, and editors hide the mark: in
//! `"\u{feff}a = !"` the `a` is line 1, column 1 and the `!` column 5.
//! So the first line starts after the mark ([`bom_len`]); an offset inside
//! the mark counts as column 1. The splicer keeps the mark where it is for
//! the same reason ([`line_start`](crate::text::line_start)).

use std::ops::Range;

use crate::text::{bom_len, floor_char_boundary};

/// Where the lines of a text start: the one mapping between byte offsets
/// and 1-based line / *character* column used for configuration files
/// (parse errors, spans, diagnostics). Columns count characters, never
/// bytes, so a column from one parser can never split a multi-byte
/// character when it is turned back into an offset.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        // Line 1 starts after a byte order mark (see the module docs).
        let mut starts = vec![bom_len(text)];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { starts }
    }

    /// The 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        to_u32(self.line_index(offset) + 1)
    }

    fn line_index(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The 1-based line and character column of byte `offset` of `text`
    /// (the text the index was built from). An offset inside a character
    /// counts as that character; one past the end is clamped.
    pub fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_index(offset);
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        let column = text.get(start..offset).map_or(0, |s| s.chars().count());
        (to_u32(line + 1), to_u32(column + 1))
    }

    /// The byte offset of a 1-based line and character column of `text`,
    /// clamped to the end of that line (and of the text): always a
    /// character boundary.
    pub fn offset(&self, text: &str, line: u32, column: u32) -> usize {
        let line = usize::try_from(line).unwrap_or(usize::MAX).max(1) - 1;
        let Some(&start) = self.starts.get(line) else {
            return text.len();
        };
        let end = self.starts.get(line + 1).map_or(text.len(), |&s| s - 1);
        let Some(line_text) = text.get(start..end) else {
            return text.len();
        };
        let skip = usize::try_from(column).unwrap_or(usize::MAX).max(1) - 1;
        line_text
            .char_indices()
            .nth(skip)
            .map_or(end, |(i, _)| start + i)
    }

    /// The byte range of `line` (1-based) of `text` without its leading and
    /// trailing blanks; `None` past the end.
    pub fn line_span(&self, text: &str, line: u32) -> Option<Range<usize>> {
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        let start = *self.starts.get(index)?;
        let end = self
            .starts
            .get(index + 1)
            .map_or(text.len(), |&s| s.saturating_sub(1));
        let l = text.get(start..end)?;
        let trimmed_start = l.len() - l.trim_start().len();
        Some(start + trimmed_start..start + trimmed_start + l.trim().len())
    }

    /// The character column of a 1-based line and *byte* column (as JSON
    /// and TOML parsers count).
    pub fn char_column(&self, text: &str, line: u32, byte_column: u32) -> u32 {
        let index = usize::try_from(line).unwrap_or(usize::MAX).max(1) - 1;
        let Some(&start) = self.starts.get(index) else {
            return byte_column;
        };
        let skip = usize::try_from(byte_column).unwrap_or(usize::MAX).max(1) - 1;
        self.position(text, start.saturating_add(skip)).1
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The 1-based line and character column of `offset` in `src`, as `usize`
/// (the editor's errors count so).
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let (line, column) = LineIndex::new(src).position(src, offset);
    let wide = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    (wide(line), wide(column))
}

/// The 1-based line and character column of `offset` in `text`.
pub fn position_of(text: &str, offset: usize) -> (u32, u32) {
    LineIndex::new(text).position(text, offset)
}

/// The byte range of `line` (1-based) of `text` without its leading and
/// trailing blanks; `None` past the end.
pub fn line_span_in(text: &str, line: u32) -> Option<Range<usize>> {
    LineIndex::new(text).line_span(text, line)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn columns_never_split_a_character() {
        let text = "kb: {topic: \"ééé\" x}\nb\r\n";
        let index = LineIndex::new(text);
        // Byte 16 is inside the second `é`.
        assert_eq!(index.position(text, 16), (1, 15));
        assert_eq!(index.position(text, 18), (1, 16));
        assert_eq!(index.position(text, 999), (3, 1));
        for column in 0..40 {
            let offset = index.offset(text, 1, column);
            assert!(text.is_char_boundary(offset), "{column}");
        }
        assert_eq!(index.offset(text, 1, 19), "kb: {topic: \"ééé\" ".len());
        assert_eq!(index.offset(text, 1, 99), text.find('\n').unwrap_or(0));
        assert_eq!(index.offset(text, 9, 1), text.len());
        assert_eq!(index.char_column(text, 1, 23), 20);
        assert_eq!(index.char_column(text, 1, 16), 15);
        assert_eq!(index.line_span(text, 2), Some(24..25));
        assert_eq!(index.line_span(text, 3), Some(27..27));
        assert_eq!(index.line_span(text, 4), None);
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let text = "\u{feff}a = !\nb";
        let index = LineIndex::new(text);
        // Offsets inside the mark (0, 1), its end (3), `!` (7), `b` (9).
        let positions: Vec<_> = [0, 1, 3, 7, 9]
            .into_iter()
            .map(|offset| index.position(text, offset))
            .collect();
        assert_eq!(positions, [(1, 1), (1, 1), (1, 1), (1, 5), (2, 1)]);
        assert_eq!(
            (index.offset(text, 1, 1), index.line_span(text, 1)),
            (3, Some(3..8))
        );
        assert_eq!(
            (line_col(text, 7), line_col("a = 1\nb\u{e9} = 1", 10)),
            ((1, 5), (2, 4))
        );
        assert_eq!(
            (
                position_of("\u{feff}", 3),
                line_span_in("\u{feff}  x  \n", 1)
            ),
            ((1, 1), Some(5..6))
        );
    }
}
