//! Markdown subjects rendered for reading (tui-markdown over
//! pulldown-cmark). Control characters are escaped first; without color
//! only the modifiers (bold, italic…) remain.

use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};

use crate::tui::theme::Theme;
use jp_kb_core::display::clean_text;

/// Renders markdown into owned lines.
pub fn render(source: &str, theme: Theme) -> Text<'static> {
    let clean = plain_autolinks(&clean_text(source, true));
    let parsed = tui_markdown::from_str(&clean);
    let strip = |style: Style| -> Style {
        if theme.color {
            style
        } else {
            Style {
                fg: None,
                bg: None,
                underline_color: None,
                ..style
            }
        }
    };
    let lines: Vec<Line<'static>> = parsed
        .lines
        .into_iter()
        .map(|line| {
            let spans: Vec<Span<'static>> = line
                .spans
                .into_iter()
                .map(|s| Span::styled(s.content.into_owned(), strip(s.style)))
                .collect();
            Line::from(spans)
                .style(strip(line.style))
                .alignment(line.alignment.unwrap_or(ratatui::layout::Alignment::Left))
        })
        .collect();
    Text::from(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &Text) -> Vec<String> {
        text.lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn renders_headings_lists_code_and_strips_color() {
        let md = "# Title\n\n- one\n- two\n\n```rust\nfn x() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let text = render(md, Theme { color: false });
        let lines = plain(&text);
        assert!(lines.iter().any(|l| l.contains("Title")), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("one")), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("fn x() {}")), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.contains('1') && l.contains('2')),
            "{lines:?}"
        );
        for line in &text.lines {
            for span in &line.spans {
                assert_eq!(span.style.fg, None);
            }
        }
        let escaped = plain(&render("bad \u{1b}[2J escape", Theme { color: true }));
        assert!(escaped.iter().all(|l| !l.contains('\u{1b}')), "{escaped:?}");
    }
}

/// `<https://x>` autolinks as their bare address: tui-markdown draws a link
/// as `text (address)`, and an autolink's text is its address, so every
/// one came out twice (`https://x (https://x)`, on every tldr page). Only
/// what the parser calls an autolink changes, never code.
fn plain_autolinks(source: &str) -> String {
    use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};
    let mut out = String::with_capacity(source.len());
    let mut last = 0;
    for (event, range) in Parser::new_ext(source, Options::empty()).into_offset_iter() {
        let Event::Start(Tag::Link {
            link_type: LinkType::Autolink,
            ..
        }) = event
        else {
            continue;
        };
        let written = &source[range.clone()];
        let (Some(inner), true) = (
            written.strip_prefix('<').and_then(|w| w.strip_suffix('>')),
            range.start >= last,
        ) else {
            continue;
        };
        out.push_str(&source[last..range.start]);
        out.push_str(inner);
        last = range.end;
    }
    out.push_str(&source[last..]);
    out
}

#[cfg(test)]
mod autolink_tests {
    use super::plain_autolinks;

    #[test]
    fn autolinks_lose_their_brackets_and_code_keeps_them() {
        assert_eq!(
            plain_autolinks("More: <https://x.org/a>.\n\n`<https://y>`\n"),
            "More: https://x.org/a.\n\n`<https://y>`\n"
        );
    }
}
