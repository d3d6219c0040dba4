//! The search inside a preview as drawn: the matches on screen
//! highlighted, and the search line under the tab (`/query  3/17`).

use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};

use super::matches::{active, hits};
use super::state::find_in;
use crate::tui::app::{App, Mode};

/// Highlights the matches on rows `first..first + rows` (the current one
/// reversed, the others underlined: both read without colour) in `text`,
/// which holds the tab's lines from line `line_offset` on.
pub fn highlight(
    app: &App,
    text: &mut Text<'static>,
    line_offset: usize,
    first: usize,
    rows: usize,
) {
    let (Some(search), Some(hits)) = (active(app), hits(app)) else {
        return;
    };
    let current = search.current.min(hits.hits.len().saturating_sub(1));
    let from = hits.hits.partition_point(|h| h.row < first);
    for (i, hit) in hits.hits.iter().enumerate().skip(from) {
        if hit.row >= first + rows {
            break;
        }
        let style = if i == current {
            app.screen.theme.selected(true)
        } else {
            app.screen.theme.matched()
        };
        let Some(line) = hit
            .line
            .checked_sub(line_offset)
            .and_then(|k| text.lines.get_mut(k))
        else {
            continue;
        };
        let joined: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        if let Some(&(start, end)) = find_in(&joined, &search.query).get(hit.nth) {
            let col = joined[..start].chars().count();
            mark(line, col, joined[start..end].chars().count(), style);
        }
    }
}

/// Restyles characters `col..col + len` of `line` (patching each span's
/// own style).
fn mark(line: &mut Line<'static>, col: usize, len: usize, style: Style) {
    let (from, to) = (col, col + len);
    let mut at = 0;
    let mut out = Vec::with_capacity(line.spans.len() + 2);
    for span in line.spans.drain(..) {
        let n = span.content.chars().count();
        let (s, e) = (from.clamp(at, at + n) - at, to.clamp(at, at + n) - at);
        at += n;
        if s >= e {
            out.push(span);
            continue;
        }
        let byte = |k: usize| {
            span.content
                .char_indices()
                .nth(k)
                .map_or(span.content.len(), |(b, _)| b)
        };
        let (bs, be) = (byte(s), byte(e));
        let content = span.content.as_ref();
        for (piece, st) in [
            (&content[..bs], span.style),
            (&content[bs..be], span.style.patch(style)),
            (&content[be..], span.style),
        ] {
            if !piece.is_empty() {
                out.push(Span::styled(piece.to_owned(), st));
            }
        }
    }
    line.spans = out;
}

/// The search line under the tab: the query being typed, or the search
/// with `k/N` (or why there is none).
pub fn line(app: &App) -> Option<Line<'static>> {
    let t = app.screen.theme;
    if let Mode::PreviewSearch(input) = &app.mode {
        return Some(Line::from(vec![
            Span::styled("/", t.key()),
            Span::raw(input.lines().join("")),
            Span::styled("▏", t.key()),
            Span::styled("  Enter find · Esc cancel", t.muted()),
        ]));
    }
    let search = active(app)?;
    let hits = hits(app)?;
    let count = match (hits.hits.len(), hits.complete) {
        (0, true) => Span::styled("no match", t.error()),
        (0, false) => Span::styled("searching…", t.muted()),
        (n, _) => Span::styled(format!("{}/{n}", search.current.min(n - 1) + 1), t.title()),
    };
    Some(Line::from(vec![
        Span::styled("/", t.key()),
        Span::raw(jp_kb_core::display::clean_name(&search.query).into_owned()),
        Span::raw("  "),
        count,
        Span::styled("  n/N next/previous · Esc clear", t.muted()),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(line: &Line) -> Vec<(String, bool)> {
        line.spans
            .iter()
            .map(|s| {
                (
                    s.content.to_string(),
                    s.style
                        .add_modifier
                        .contains(ratatui::style::Modifier::REVERSED),
                )
            })
            .collect()
    }

    #[test]
    fn a_match_is_restyled_across_spans() {
        let mut line = Line::from(vec![Span::raw("ab"), Span::raw("cdef")]);
        mark(
            &mut line,
            1,
            3,
            Style::new().add_modifier(ratatui::style::Modifier::REVERSED),
        );
        assert_eq!(
            spans(&line),
            [
                ("a".into(), false),
                ("b".into(), true),
                ("cd".into(), true),
                ("ef".into(), false)
            ]
        );
    }
}
