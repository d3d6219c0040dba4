//! Where a scroll position falls in a client view of the Prompt tab
//! (`c`): the first screen row of each of the view's lines under the
//! preview's word wrap, laid out only as far as a view reached and kept
//! across frames, so a key near the end of a megabytes-long view costs
//! what the rows on screen cost. Measured at 10,000 subjects (3.9 MB):
//! wrapping the whole view on every frame took 320 ms a key (`cargo
//! bench --bench tui`, "Codex's view"). Pure geometry, like
//! [`crate::tui::text_layout::char_rows`] for the character-wrapped texts.

use std::rc::Rc;

use crate::tui::client_prompt::Row;

/// What the layout depends on: the view (its load, its client, its
/// length) and the geometry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub generation: u64,
    pub client: String,
    pub lines: usize,
    pub width: usize,
    pub wrap: bool,
}

/// The rows of a client view's first lines.
#[derive(Debug, Clone)]
pub struct LineRows {
    /// `starts[k]`: the first screen row of line `k`; one more entry
    /// than the lines laid out (the rows of all of them).
    starts: Vec<usize>,
    lines: usize,
}

impl LineRows {
    fn new(lines: usize) -> Self {
        Self {
            starts: vec![0],
            lines,
        }
    }

    /// Lays the lines out until the rows reach past `row` (or the view
    /// ends), each taking `rows_of(line)` rows.
    fn reach(&mut self, rows: &[Row], rows_of: impl Fn(&Row) -> usize, row: usize) {
        while self.rows_reached() <= row {
            let Some(line) = rows.get(self.starts.len() - 1) else {
                break;
            };
            let next = self.rows_reached() + rows_of(line);
            self.starts.push(next);
        }
    }

    /// The rows of the lines laid out so far.
    pub fn rows_reached(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// All the view's rows, once it is laid out to its end.
    pub fn rows(&self) -> Option<usize> {
        (self.starts.len() > self.lines).then(|| self.rows_reached())
    }

    /// The line screen row `row` belongs to, and how many of that line's
    /// rows are above it (`row` within what is laid out).
    pub fn locate(&self, row: usize) -> (usize, usize) {
        let laid = self.starts.len() - 1;
        if laid == 0 {
            return (0, 0);
        }
        let line = self
            .starts
            .partition_point(|&s| s <= row)
            .saturating_sub(1)
            .min(laid - 1);
        (line, row.saturating_sub(self.starts[line]))
    }
}

/// The last [`LineRows`] made, kept by the state and filled by the view
/// (which draws from `&App`), under its [`Key`] (the load's generation,
/// the client and the geometry).
pub type LineRowsMemo = crate::tui::memo::Memo<Key, LineRows>;

/// The layout of `rows` for `key` from `memo`, laid out at least until
/// screen row `row` (or the view's end), a line taking `rows_of(line)`
/// rows (the view's wrap at `key`'s geometry).
pub fn line_rows(
    memo: &LineRowsMemo,
    key: Key,
    rows: &[Row],
    rows_of: impl Fn(&Row) -> usize,
    row: usize,
) -> Rc<LineRows> {
    memo.get_extended(
        key,
        || LineRows::new(rows.len()),
        |index| index.reach(rows, rows_of, row),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::text_layout::word_rows::word_rows;
    use jp_kb_core::display::clean_text;

    fn key(width: usize, wrap: bool, lines: usize) -> Key {
        Key {
            generation: 1,
            client: "codex".into(),
            lines,
            width,
            wrap,
        }
    }

    #[test]
    fn every_row_is_located_as_wrapping_every_line_would() {
        let rows: Vec<Row> = (0..200)
            .map(|n| {
                let words = "word ".repeat(n % 17);
                match n % 5 {
                    0 => Row::Header(format!("==> {words}<==")),
                    1 => Row::Cut(format!("✂── {words}")),
                    _ => Row::Text(format!("{words}\tü\u{1b}[31m")),
                }
            })
            .collect();
        for (width, wrap) in [(12, true), (12, false), (40, true)] {
            // Row by row, the line each row belongs to, by wrapping every
            // line as drawn.
            let mut naive = Vec::new();
            for (k, r) in rows.iter().enumerate() {
                let n = word_rows(&clean_text(r.text(), true), width, wrap);
                naive.extend((0..n).map(|within| (k, within)));
            }
            let memo = LineRowsMemo::default();
            let rows_of = |r: &Row| word_rows(&clean_text(r.text(), true), width, wrap);
            let early = line_rows(&memo, key(width, wrap, rows.len()), &rows, rows_of, 30);
            assert!(early.rows().is_none(), "laid out only as far as asked");
            assert!(early.rows_reached() > 30 && early.rows_reached() < naive.len());
            let all = line_rows(
                &memo,
                key(width, wrap, rows.len()),
                &rows,
                rows_of,
                usize::MAX,
            );
            assert_eq!(all.rows(), Some(naive.len()));
            for (row, want) in naive.iter().enumerate() {
                assert_eq!(all.locate(row), *want, "row {row} at {width}, wrap {wrap}");
            }
        }
    }

    #[test]
    fn an_empty_view_has_no_rows() {
        let memo = LineRowsMemo::default();
        let index = line_rows(&memo, key(10, true, 0), &[], |_| 1, usize::MAX);
        assert_eq!(index.rows(), Some(0));
        assert_eq!(index.locate(5), (0, 0));
    }
}
