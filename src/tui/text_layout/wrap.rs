//! The preview's own soft wrap for byte-exact texts (the Prompt, Learn
//! and Tool tabs): a continuation line starts with `↪` (in the line
//! number gutter when there is one), so the text's real line breaks can
//! be told from wrapped ones (the line numbers of the Prompt and Learn
//! tabs are `text_window`'s).

use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};

/// The continuation marker.
pub const MARK: &str = "↪";

/// Wraps `text` to `width` columns by characters (whitespace is part of
/// a byte-exact text), keeping rows `skip..limit` (what a scrolled
/// preview shows: the rows above it are counted, not built, so a view
/// deep inside one long line costs what its rows cost). The first
/// `gutter` columns of a line are its number; a continuation line gets
/// the marker there, or, without a gutter, in front.
pub fn wrap(
    text: Text<'static>,
    width: usize,
    gutter: usize,
    (skip, limit): (usize, usize),
    mark: Style,
) -> Text<'static> {
    let mut out: Vec<Line<'static>> = Vec::new();
    // Rows made so far, kept or not.
    let mut made = 0;
    let prefix = if gutter >= 2 {
        format!("{:>w$} ", MARK, w = gutter - 1)
    } else {
        format!("{MARK} ")
    };
    let prefix_width = Span::raw(prefix.as_str()).width();
    let mut buf = [0u8; 4];
    for line in text.lines {
        if made >= limit {
            break;
        }
        if line.width() <= width || width <= prefix_width + 1 {
            if made >= skip {
                out.push(line);
            }
            made += 1;
            continue;
        }
        let style = line.style;
        let mut row: Vec<Span<'static>> = Vec::new();
        let mut used = 0;
        let mut piece = String::new();
        let mut piece_style = Style::default();
        for span in line.spans {
            for ch in span.content.chars() {
                let w = Span::raw(&*ch.encode_utf8(&mut buf)).width();
                if used + w > width {
                    if made >= skip {
                        if !piece.is_empty() {
                            row.push(Span::styled(std::mem::take(&mut piece), piece_style));
                        }
                        out.push(Line::from(std::mem::take(&mut row)).style(style));
                    }
                    made += 1;
                    if made >= limit {
                        return Text::from(out);
                    }
                    if made >= skip {
                        row.push(Span::styled(prefix.clone(), mark));
                    }
                    used = prefix_width;
                }
                if made < skip {
                    used += w;
                    continue;
                }
                if span.style != piece_style && !piece.is_empty() {
                    row.push(Span::styled(std::mem::take(&mut piece), piece_style));
                }
                piece_style = span.style;
                piece.push(ch);
                used += w;
            }
        }
        if made >= skip {
            if !piece.is_empty() {
                row.push(Span::styled(piece, piece_style));
            }
            out.push(Line::from(row).style(style));
        }
        made += 1;
    }
    Text::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &Text) -> Vec<String> {
        text.lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn continuation_lines_carry_the_marker_real_breaks_do_not() {
        let text = Text::from(vec![Line::raw("   1 abcdefghij"), Line::raw("   2 xy")]);
        let wrapped = wrap(text, 10, 5, (0, 100), Style::default());
        assert_eq!(rows(&wrapped), ["   1 abcde", "   ↪ fghij", "   2 xy"]);
        let plain = wrap(Text::raw("abcdefgh"), 5, 0, (0, 100), Style::default());
        assert_eq!(rows(&plain), ["abcde", "↪ fgh"]);
        // Stops at the limit.
        let long = wrap(Text::raw("a".repeat(100)), 10, 0, (0, 3), Style::default());
        assert_eq!(long.lines.len(), 3);
        // Rows above `skip` are counted, not kept.
        let text = Text::from(vec![
            Line::raw("0123456789abcdefghijklmnop"),
            Line::raw("x"),
        ]);
        let all = rows(&wrap(text.clone(), 10, 0, (0, 10), Style::default()));
        assert_eq!(all, ["0123456789", "↪ abcdefgh", "↪ ijklmnop", "x"]);
        for skip in 0..4 {
            let kept = rows(&wrap(text.clone(), 10, 0, (skip, 10), Style::default()));
            assert_eq!(kept, all[skip..], "skip {skip}");
        }
        let some = rows(&wrap(text, 10, 0, (1, 3), Style::default()));
        assert_eq!(some, all[1..3]);
    }
}
