//! Where each screen row of a long byte-exact text comes from, without
//! drawing it: the Prompt, Learn and Tool tabs show megabytes (a 3.9 MB
//! prompt has 55k lines), and drawing every line above the scroll on
//! each key cost 180 ms near the end (`cargo bench --bench tui`,
//! docs/perf.md). A [`RowIndex`] is made once per text and geometry:
//! the byte offset and first row of every [`STRIDE`]th line, so a
//! scroll position becomes a line in a binary search and a walk over at
//! most `STRIDE` lines. [`RowIndexMemo`] keeps the last one, under its text's stamp. Pure: no
//! terminal, no I/O.

use std::rc::Rc;

use ratatui::text::Line;

use jp_kb_core::display::clean_text;

/// Lines between two checkpoints: a lookup walks at most this many.
pub const STRIDE: usize = 64;

/// Rows of a line `cols` columns wide (gutter included), every character
/// one column, under the preview's character wrap
/// (`view::wrap`): the first row takes `width` columns, each
/// continuation row `width - gutter` after its `↪` gutter.
pub fn rows_for_cols(cols: usize, width: usize, gutter: usize, wrap: bool) -> usize {
    let prefix = gutter.max(2);
    if !wrap || cols <= width || width <= prefix + 1 {
        return 1;
    }
    1 + (cols - width).div_ceil(width - prefix)
}

/// Rows of `drawn` (a line as drawn: cleaned, its number gutter
/// included) under the preview's character wrap, exactly as
/// `view::wrap` breaks it: before the character that would pass
/// `width` columns, so a wide character at the edge leaves a column
/// empty and takes the next row.
pub fn char_rows(drawn: &str, width: usize, gutter: usize, wrap: bool) -> usize {
    let prefix = gutter.max(2);
    if drawn.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return rows_for_cols(drawn.len(), width, gutter, wrap);
    }
    if !wrap || width <= prefix + 1 || Line::raw(drawn).width() <= width {
        return 1;
    }
    let mut rows = 1;
    let mut used = 0;
    let mut buf = [0u8; 4];
    for ch in drawn.chars() {
        let w = Line::raw(&*ch.encode_utf8(&mut buf)).width();
        if used + w > width {
            rows += 1;
            used = prefix;
        }
        used += w;
    }
    rows
}

/// The width of the number gutter of a text of `n` lines: digits (at
/// least 4) and a space.
pub fn gutter(n: usize) -> usize {
    n.max(1).to_string().len().max(4) + 1
}

/// The geometry a text is laid out with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub width: usize,
    /// The line-number gutter (0: none).
    pub gutter: usize,
    /// Long lines wrap (else they are cut: one row each).
    pub wrap: bool,
}

impl Geometry {
    /// Rows of text line `line` (raw, without its `\n`) once cleaned
    /// for the screen (`display::clean_text`: tabs as four spaces, `\r`
    /// dropped, control and invisible characters escaped) and drawn after
    /// its gutter.
    pub fn rows(self, line: &str) -> usize {
        // Printable ASCII is its own cleaned form, one column a byte: the
        // common case, counted without building the drawn line.
        if line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return rows_for_cols(line.len() + self.gutter, self.width, self.gutter, self.wrap);
        }
        let drawn = format!("{:w$}{}", "", clean_text(line, true), w = self.gutter);
        char_rows(&drawn, self.width, self.gutter, self.wrap)
    }
}

/// A line found by its row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located {
    /// The line's index (0-based) and where it starts in the text.
    pub line: usize,
    pub byte: usize,
    /// The row the line starts on.
    pub row: usize,
}

/// The checkpoints of one text at one geometry, made as far as a view
/// has reached: a learn output can be 87 MB (`learn bench '**'` at 10k
/// subjects), and laying it all out on every pattern the tester tries
/// cost 200 ms a key; `G` lays out the rest once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowIndex {
    /// The geometry, its gutter following the text's line count.
    pub geometry: Geometry,
    /// Line `k * STRIDE`'s byte offset and first row.
    marks: Vec<(usize, usize)>,
    /// The text's line count (what the gutter numbers up to).
    pub lines: usize,
    /// Where laying out stopped: the next line's index, byte offset and
    /// first row.
    next: Located,
}

/// The text's lines from byte `byte` on (split at `\n`, as the views
/// number them once cleaned), each with its byte offset.
fn lines_from(text: &str, byte: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut at = byte;
    text[byte..].split_inclusive('\n').map(move |piece| {
        let start = at;
        at += piece.len();
        (start, piece.strip_suffix('\n').unwrap_or(piece))
    })
}

/// The number gutter of a numbered text: as wide as its line count
/// needs, none for an empty text.
fn text_gutter(lines: usize) -> usize {
    if lines > 0 { gutter(lines) } else { 0 }
}

/// The number gutter `text` is drawn with when numbered (the same as its
/// [`RowIndex`] lays it out with).
pub fn gutter_of(text: &str) -> usize {
    text_gutter(count_lines(text))
}

/// Lines of `text` as `lines_from` splits them: its `\n`s, and one more
/// when the last line has none.
fn count_lines(text: &str) -> usize {
    // A plain byte count: the compiler vectorises it (a few ms for 87 MB),
    // where a split visits every line.
    let breaks = text.bytes().filter(|&b| b == b'\n').count();
    breaks + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

impl RowIndex {
    /// An index of `text` `width` columns wide, nothing laid out yet;
    /// `numbered`: its lines get a number gutter as wide as their count
    /// needs.
    pub fn new(text: &str, width: usize, wrap: bool, numbered: bool) -> Self {
        let lines = count_lines(text);
        Self {
            geometry: Geometry {
                width,
                gutter: if numbered { text_gutter(lines) } else { 0 },
                wrap,
            },
            marks: Vec::new(),
            lines,
            next: Located {
                line: 0,
                byte: 0,
                row: 0,
            },
        }
    }

    /// Lays `text` out until row `row` is reached, or its end.
    pub fn reach(&mut self, text: &str, row: usize) {
        if self.next.row > row || self.complete() {
            return;
        }
        let mut next = self.next;
        for (start, line) in lines_from(text, next.byte) {
            if next.line.is_multiple_of(STRIDE) {
                self.marks.push((start, next.row));
            }
            next.row += self.geometry.rows(line);
            next.line += 1;
            next.byte = start + line.len() + 1;
            if next.row > row {
                break;
            }
        }
        next.byte = next.byte.min(text.len());
        self.next = next;
    }

    /// Every line is laid out.
    pub fn complete(&self) -> bool {
        self.next.line >= self.lines
    }

    /// The text's rows, once it is all laid out.
    pub fn rows(&self) -> Option<usize> {
        self.complete().then_some(self.next.row)
    }

    /// The rows laid out so far.
    pub fn rows_reached(&self) -> usize {
        self.next.row
    }

    /// The line that row `row` belongs to (within what is laid out: the
    /// last line laid out when `row` is past it).
    pub fn locate(&self, text: &str, row: usize) -> Located {
        let geometry = self.geometry;
        let k = self.marks.partition_point(|&(_, r)| r <= row).max(1) - 1;
        let Some(&(byte, mut at)) = self.marks.get(k) else {
            return Located {
                line: 0,
                byte: 0,
                row: 0,
            };
        };
        let mut found = Located {
            line: k * STRIDE,
            byte,
            row: at,
        };
        for (n, (start, line)) in lines_from(text, byte).enumerate() {
            if k * STRIDE + n >= self.next.line {
                break;
            }
            let rows = geometry.rows(line);
            found = Located {
                line: k * STRIDE + n,
                byte: start,
                row: at,
            };
            if at + rows > row {
                break;
            }
            at += rows;
        }
        found
    }
}

/// The last [`RowIndex`] made, kept by the state and filled by the view
/// (which draws from `&App`), under the stamp of its text and the
/// width, wrap and numbering it was laid out with.
pub type RowIndexMemo<Stamp> = crate::tui::memo::Memo<(Stamp, usize, bool, bool), RowIndex>;

/// The index of `text` at this geometry from `memo` (made again when
/// `stamp`, which names the text's version, or the geometry changed),
/// laid out at least until row `row` (or the text's end).
pub fn row_index<Stamp: PartialEq>(
    memo: &RowIndexMemo<Stamp>,
    stamp: Stamp,
    text: &str,
    (width, wrap, numbered): (usize, bool, bool),
    row: usize,
) -> Rc<RowIndex> {
    memo.get_extended(
        (stamp, width, wrap, numbered),
        || RowIndex::new(text, width, wrap, numbered),
        |index| index.reach(text, row),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row by row, the line each row belongs to, by drawing every line.
    fn naive(text: &str, g: Geometry) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut row = 0;
        for (n, line) in text.lines().enumerate() {
            for _ in 0..g.rows(line) {
                out.push((n, row));
            }
            row += g.rows(line);
        }
        out
    }

    #[test]
    fn every_row_is_located_as_drawing_every_line_would() {
        let mut text = String::new();
        for n in 0..300 {
            text.push_str(&"x".repeat(n % 23));
            text.push_str(if n % 7 == 0 { "\tü\r\n" } else { "\n" });
        }
        text.push_str("last line without a break");
        for (width, wrap, numbered) in [(10, true, true), (10, false, true), (40, true, false)] {
            let mut index = RowIndex::new(&text, width, wrap, numbered);
            let g = index.geometry;
            assert_eq!(g.gutter, if numbered { 5 } else { 0 });
            let rows = naive(&text, g);
            // Laid out only as far as asked (the row's line, whole).
            index.reach(&text, 100);
            assert!(!index.complete() && index.rows().is_none());
            assert!(index.rows_reached() > 100 && index.rows_reached() < 200);
            let at = index.locate(&text, 100);
            assert_eq!((at.line, at.row), (rows[100].0, rows[100].1));
            index.reach(&text, usize::MAX);
            assert_eq!(index.rows(), Some(rows.len()));
            assert_eq!(index.lines, text.lines().count());
            for (row, &(line, first)) in rows.iter().enumerate() {
                let at = index.locate(&text, row);
                assert_eq!((at.line, at.row), (line, first), "row {row} at {g:?}");
                let expected = text.lines().nth(line).unwrap_or_default();
                assert!(text[at.byte..].starts_with(expected), "row {row}");
            }
        }
    }

    #[test]
    fn cleaned_characters_count_as_drawn() {
        let g = Geometry {
            width: 10,
            gutter: 5,
            wrap: true,
        };
        assert_eq!(g.rows("abcde"), 1);
        assert_eq!(g.rows("abcdef"), 2);
        // A tab is four columns; `\r` none.
        assert_eq!(g.rows("a\tb"), 2);
        assert_eq!(g.rows("abcde\r"), 1);
        // `日` would pass the edge at column 10: it starts the next row.
        assert_eq!(g.rows("abcd日"), 2);
        assert!(g.rows("\u{1b}[2J\u{1b}[2J") > 1, "escaped, not zero-width");
    }

    #[test]
    fn the_memo_is_made_again_for_another_text_or_geometry() {
        let memo: RowIndexMemo<u64> = RowIndexMemo::default();
        let a = "one\ntwo\n".to_owned();
        let first = row_index(&memo, 1, &a, (10, true, true), 0);
        assert_eq!(first.rows_reached(), 1);
        let again = row_index(&memo, 1, &a, (10, true, true), 5);
        assert_eq!(again.rows(), Some(2), "the same index, laid out further");
        assert_eq!(first.rows_reached(), 1, "a copy handed out is not changed");
        let wider = row_index(&memo, 1, &a, (20, true, true), 0);
        assert_eq!(wider.geometry.width, 20);
        let b = "one\ntwo\nthree".to_owned();
        assert_eq!(row_index(&memo, 2, &b, (10, true, true), 0).lines, 3);
    }
}
