//! Long one-line arrays are written one item per line.
//!
//! Learning a directory slug by slug used to leave `learned = ["a", "b",
//! …]` on one 300-column line. After an edit that adds items, an array
//! still on one line whose closing `]` lands past [`MAX_COLUMNS`] is
//! rewritten with each item on its own line, indented the way the file's
//! other multi-line arrays are (else four spaces), with a trailing comma
//! and the closing `]` back at the indent of the line that opens it.
//! Only whitespace changes: a one-line array holds no comment.

use crate::array::{ArrayItem, ArrayText};
use crate::text::{has_break, leading_blanks, line_start};
use crate::tree::Index;

/// The widest a one-line array may run, in characters from the start of
/// its line through its closing `]`.
pub const MAX_COLUMNS: usize = 100;

/// The indent unit used when no multi-line array in the file shows one.
const DEFAULT_UNIT: &str = "    ";

/// Rewrites `text` (the array at byte `start` of `index.src`, as it will
/// read after the edit) one item per line when it is on one line and
/// would end past [`MAX_COLUMNS`]. Returns whether it did.
pub fn wrap_if_long(index: &Index<'_>, start: usize, text: &mut ArrayText, eol: &str) -> bool {
    let rendered = text.render();
    if has_break(&rendered) || text.items.is_empty() {
        return false;
    }
    let src = index.src;
    let line = line_start(src, start);
    let column = src[line..start].chars().count() + rendered.chars().count();
    if column <= MAX_COLUMNS {
        return false;
    }
    let base = leading_blanks(&src[line..start]);
    let item_indent = format!("{base}{}", indent_unit(index));
    for item in &mut text.items {
        *item = ArrayItem {
            prefix: format!("{eol}{item_indent}"),
            value: std::mem::take(&mut item.value),
            suffix: String::new(),
        };
    }
    text.trailing_comma = true;
    text.trailing = format!("{eol}{base}");
    true
}

/// How much deeper than the line opening it the file's first multi-line
/// array indents its first item; [`DEFAULT_UNIT`] when no array shows it.
fn indent_unit(index: &Index<'_>) -> String {
    let src = index.src;
    index
        .leaves
        .iter()
        .find_map(|leaf| {
            let first = leaf.item.as_array()?.iter().next()?.span()?;
            let open = line_start(src, leaf.value.start);
            let item_line = line_start(src, first.start);
            if item_line == open {
                return None;
            }
            let item_indent = &src[item_line..first.start];
            let base = leading_blanks(&src[open..leaf.value.start]);
            // The item must start its line, below the opening line's indent.
            let unit = item_indent.strip_prefix(base)?;
            (!unit.is_empty() && unit.chars().all(|c| c == ' ' || c == '\t'))
                .then(|| unit.to_owned())
        })
        .unwrap_or_else(|| DEFAULT_UNIT.to_owned())
}
