//! How many screen rows a preview line takes, so a place in a text (a
//! finding's config line, a search match) becomes a scroll position
//! without drawing the text: ratatui's word wrap (the Subject and Config
//! tabs), or one row each when `w` cuts long lines; the preview's own
//! character wrap is counted by `text_rows`. Pure geometry.

use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::App;

/// The preview body's width in columns (inside the borders).
pub fn body_width(app: &App) -> usize {
    usize::from(app.areas().preview.width.saturating_sub(2))
}

/// The preview body's height in rows: inside the borders, below the tab
/// row, above the search line when one shows.
pub fn body_height(app: &App) -> usize {
    usize::from(app.areas().preview.height.saturating_sub(3))
}

/// Rows of `line` (as drawn, gutter included) under ratatui's word wrap
/// at `width` columns (the Subject and Config tabs).
pub fn word_rows(line: &str, width: usize, wrap: bool) -> usize {
    if !wrap || width == 0 {
        return 1;
    }
    let cols = Line::raw(line).width();
    if cols <= width {
        return 1;
    }
    let width = u16::try_from(width).unwrap_or(u16::MAX);
    Paragraph::new(Line::raw(line))
        .wrap(Wrap { trim: false })
        .line_count(width)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::text_layout::char_rows::{char_rows, rows_for_cols};

    #[test]
    fn rows_follow_the_wrap_of_each_kind() {
        // `   1 abcde` / `   ↪ fghij`: 15 columns in a 10-column body.
        assert_eq!(char_rows("   1 abcdefghij", 10, 5, true), 2);
        assert_eq!(char_rows("   1 abcde", 10, 5, true), 1);
        assert_eq!(rows_for_cols(21, 10, 5, true), 4);
        assert_eq!(rows_for_cols(21, 10, 5, false), 1);
        // Without a gutter the marker takes `↪ `.
        assert_eq!(rows_for_cols(8, 5, 0, true), 2);
        // A wide character that would pass the edge goes to the next row
        // (`   1 abcd` + `日` is 11 columns: `日` starts row 2).
        assert_eq!(char_rows("   1 abcd日", 10, 5, true), 2);
        assert_eq!(char_rows("   1 abc日", 10, 5, true), 1);
        assert_eq!(char_rows("   1 abcd日日日", 10, 5, true), 3);
        assert_eq!(word_rows("one two three four", 9, true), 3);
        assert_eq!(word_rows("one two three four", 9, false), 1);
        assert_eq!(word_rows("short", 9, true), 1);
    }
}
