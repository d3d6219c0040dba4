//! The search mode's screen (`S`): over the panes, a query line, then the
//! hits best first, two lines each: the markers (glyph and color, as on a
//! subject row: learned, hidden…), `topic/slug`, score and tokens; then
//! the snippet with the matched words highlighted (color, bold and
//! underlined: still marked without color).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::layout::list_offset;
use crate::tui::theme::Mark;
use crate::tui::view::subjects::marks;
use jp_kb_core::display::{clean_name, clean_text};
use jp_kb_core::search::{Hit, Snippet};

/// Draws the mode over the panes between the banner and the status line.
pub fn render(app: &App, hits_focused: bool, frame: &mut Frame) {
    let a = app.areas();
    let full = frame.area();
    let area = Rect {
        x: full.x,
        y: a.topics.y,
        width: full.width,
        height: a.status.y.saturating_sub(a.topics.y),
    };
    let s = &app.features.search;
    let t = app.screen.theme;
    let count = if s.pending() {
        "searching…".to_owned()
    } else if s.error.is_some() || s.query().trim().is_empty() {
        "every enabled topic".to_owned()
    } else {
        match s.hits.len() {
            1 => "1 hit".to_owned(),
            n => format!("{n} hits"),
        }
    };
    let block = Block::bordered()
        .border_style(t.border(true))
        .title(Line::styled(
            match app.features.search.mode {
                "hybrid" => format!(" Search · {count} · words and meaning "),
                _ => format!(" Search · {count} "),
            },
            t.title(),
        ));
    let inner = block.inner(area);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    let query = clean_name(&s.query()).into_owned();
    let mut line = vec![Span::styled("Search: ", t.key()), Span::raw(query)];
    if !hits_focused {
        // The cursor: the query line has the keys.
        line.push(Span::styled(" ", t.selected(true)));
    }
    frame.render_widget(
        Paragraph::new(Line::from(line)),
        Rect { height: 1, ..inner },
    );
    let list = Rect {
        y: inner.y + 2,
        height: inner.height.saturating_sub(2),
        ..inner
    };
    if let Some(error) = &s.error {
        frame.render_widget(
            Paragraph::new(clean_name(error).into_owned()).style(t.error()),
            list,
        );
        return;
    }
    if s.hits.is_empty() {
        let text = if s.query().trim().is_empty() {
            "Type words to search every enabled topic's subjects (slugs, headings, front-matter, text)."
        } else if s.pending() {
            ""
        } else {
            "No subject matches."
        };
        frame.render_widget(Paragraph::new(text).style(t.muted()), list);
        return;
    }
    let per_page = usize::from(list.height / 2).max(1);
    let offset = list_offset(s.selected, per_page, s.hits.len());
    let width = usize::from(list.width);
    let mut lines = Vec::new();
    for (i, hit) in s.hits.iter().enumerate().skip(offset).take(per_page) {
        let mut head = hit_line(app, hit, width);
        if i == s.selected {
            head = head.style(t.selected(hits_focused));
        }
        lines.push(head);
        lines.push(snippet_line(app, &hit.snippet, width));
    }
    frame.render_widget(Paragraph::new(lines), list);
}

/// The hit's markers: as its subject row shows them when the topic is
/// loaded, else from the hit.
fn hit_marks(app: &App, hit: &Hit) -> Vec<Mark> {
    let found = app.loaded.model.as_ref().and_then(|m| {
        let res =
            m.kb.topics
                .iter()
                .find(|t| t.id() == hit.topic)?
                .resolution()?;
        let i = res.subjects().iter().position(|s| s.slug() == hit.slug)?;
        Some(marks(res, i, None))
    });
    found.unwrap_or_else(|| {
        let mut v = vec![if hit.learned {
            Mark::LearnedExact
        } else if hit.hidden {
            Mark::Hidden
        } else {
            Mark::Available
        }];
        if hit.hidden && hit.learned {
            v.push(Mark::Hidden);
        }
        v
    })
}

fn hit_line(app: &App, hit: &Hit, width: usize) -> Line<'static> {
    let t = app.screen.theme;
    let mut spans: Vec<Span<'static>> = hit_marks(app, hit)
        .into_iter()
        .map(|m| Span::styled(m.glyph(), t.mark(m)))
        .collect();
    // A marked subject (`Space`): `+` in the marks' colour, as on its row.
    spans.push(if app.features.marks.is_marked(&hit.topic, &hit.slug) {
        Span::styled("+", t.marked())
    } else {
        Span::raw(" ")
    });
    spans.push(Span::styled(
        format!("{}/", clean_name(&hit.topic)),
        t.muted(),
    ));
    spans.push(Span::styled(clean_name(&hit.slug).into_owned(), t.title()));
    if hit.hidden {
        spans.push(Span::styled(" (hidden)", t.mark(Mark::Hidden)));
    }
    let right = match hit.tokens {
        // Labelled: a bare `11.58 · 1982` said neither (issue 26 item 8).
        Some(n) => format!(
            "score {:.2} · {} tok",
            hit.score,
            jp_kb_core::internal::plural::thousands(n)
        ),
        None => format!("score {:.2} · not shown", hit.score),
    };
    let used = Line::from(spans.clone()).width() + right.chars().count();
    spans.push(Span::raw(" ".repeat(width.saturating_sub(used).max(1))));
    spans.push(Span::styled(right, t.muted()));
    Line::from(spans)
}

/// The snippet, indented, its matched words highlighted, cut to `width`.
fn snippet_line(app: &App, snippet: &Snippet, width: usize) -> Line<'static> {
    let mut spans = vec![Span::raw("    ")];
    let mut at = 0;
    let text = &snippet.text;
    for m in &snippet.marks {
        if let Some(plain) = text.get(at..m.start) {
            spans.push(Span::raw(clean_text(plain, false).into_owned()));
        }
        if let Some(word) = text.get(m.clone()) {
            spans.push(Span::styled(
                clean_text(word, false).into_owned(),
                app.screen.theme.matched(),
            ));
        }
        at = m.end;
    }
    if let Some(rest) = text.get(at..) {
        spans.push(Span::raw(clean_text(rest, false).into_owned()));
    }
    cut(spans, width)
}

/// `spans` cut to `width` columns, with `…` when something was left out.
fn cut(spans: Vec<Span<'static>>, width: usize) -> Line<'static> {
    if Line::from(spans.clone()).width() <= width {
        return Line::from(spans);
    }
    let mut out = Vec::new();
    let mut used = 0;
    let room = width.saturating_sub(1);
    for span in spans {
        let w = span.width();
        if used + w <= room {
            used += w;
            out.push(span);
            continue;
        }
        let keep: String = span
            .content
            .chars()
            .scan(used, |u, ch| {
                *u += Span::raw(ch.to_string()).width();
                (*u <= room).then_some(ch)
            })
            .collect();
        out.push(Span::styled(keep, span.style));
        break;
    }
    out.push(Span::raw("…"));
    Line::from(out)
}
