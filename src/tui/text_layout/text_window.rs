//! The byte-exact tabs (the Prompt tab's `<knowledge>` section, the
//! Learn and Tool tabs) drawn from their scroll position: a few styled
//! lines on top (the `learn(…)` call, a placeholder) and the text, of
//! which only the lines reaching into view are cleaned, numbered and
//! wrapped. Where a scroll position falls in the text comes from a
//! [`RowIndex`] kept across frames, so a key near the end of a
//! megabytes-long prompt costs what the rows on screen cost.

use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};

use crate::tui::app::App;
use crate::tui::model::Model;
use crate::tui::pane::Tab;
use crate::tui::panes::TextStamp;
use crate::tui::text_layout::char_rows::{RowIndexMemo, char_rows, gutter_of, row_index};
use jp_kb_core::display::{clean_name, clean_text, head_lines};

/// A byte-exact tab's parts.
pub struct Body<'a> {
    /// Styled lines above the text (drawn whole, not numbered).
    pub head: Vec<Line<'static>>,
    /// The text, raw (cleaned when drawn).
    pub text: &'a str,
    /// Its lines are numbered (Prompt, Learn).
    pub numbered: bool,
    /// Which version of which text it is: what its row index is kept
    /// under.
    pub stamp: TextStamp,
}

impl Body<'_> {
    /// The first `limit` lines of the text after the head, cleaned and
    /// numbered (what a search reads with `usize::MAX`).
    pub fn whole(&self, app: &App, limit: usize) -> Text<'static> {
        let mut text = Text::from(self.head.clone());
        let shown = clean_text(head_lines(self.text, limit), true);
        text.extend(number(
            &shown,
            1,
            self.numbered.then(|| gutter_of(self.text)),
            app.screen.theme.muted(),
        ));
        text
    }
}

/// `text`'s (cleaned) lines, numbered from `first` in a gutter `gutter`
/// wide when `Some`.
fn number(text: &str, first: usize, gutter: Option<usize>, style: Style) -> Vec<Line<'static>> {
    text.lines()
        .enumerate()
        .map(|(k, line)| match gutter {
            Some(g) => {
                let digits = g.saturating_sub(1);
                Line::from(vec![
                    Span::styled(format!("{:>digits$} ", first + k), style),
                    Span::raw(line.to_owned()),
                ])
            }
            None => Line::raw(line.to_owned()),
        })
        .collect()
}

fn muted(app: &App, text: &str) -> Line<'static> {
    Line::styled(text.to_owned(), app.screen.theme.muted())
}

/// The shown tab's parts when it is a byte-exact tab (the Prompt tab
/// showing the RFD's section, the Learn and Tool tabs).
pub fn body<'a>(app: &'a App, model: &'a Model) -> Option<Body<'a>> {
    let text = |head: Vec<Line<'static>>, text: &'a str, numbered: bool, stamp: TextStamp| {
        Some(Body {
            head,
            text,
            numbered,
            stamp,
        })
    };
    let prompt = TextStamp::Prompt {
        generation: model.generation,
        pieces: model.prompt_head.pieces,
    };
    match app.preview.tab {
        Tab::Prompt if app.preview.prompt_client.is_some() => None,
        Tab::Prompt => match &model.prompt {
            _ if !model.prompt_ready => text(
                vec![muted(app, "(rendering the <knowledge> section…)")],
                "",
                false,
                TextStamp::Empty,
            ),
            Some(_) => text(Vec::new(), &model.prompt_head.text, true, prompt),
            None => text(
                vec![muted(
                    app,
                    "(the <knowledge> section is absent: no enabled topic has an available or learned subject)",
                )],
                "",
                false,
                TextStamp::Empty,
            ),
        },
        Tab::Learn => {
            let Some(key) = app.learn_key() else {
                return text(Vec::new(), "", false, TextStamp::Empty);
            };
            let call = match &key.pattern {
                Some(p) => format!("learn(topic: {:?}, subjects: [{:?}])", key.topic, p),
                None => format!("learn(topic: {:?})", key.topic),
            };
            let mut head = vec![muted(app, &clean_name(&call)), Line::default()];
            if app.tester().is_some_and(|t| t.to_disabled) {
                head.insert(1, muted(app, "(disabled mode: learn never serves these)"));
            }
            let stamp = TextStamp::Learn {
                cache: app.loaded.cache.generation,
                key: key.clone(),
            };
            match app.loaded.cache.learn.get(&key) {
                None => {
                    head.push(muted(app, "(running…)"));
                    text(head, "", false, TextStamp::Empty)
                }
                Some(out) if out.is_error() => {
                    head.push(Line::styled(
                        "error (the assistant sees a failed call):",
                        app.screen.theme.error(),
                    ));
                    text(head, out.text(), true, stamp)
                }
                Some(out) => text(head, out.text(), true, stamp),
            }
        }
        Tab::Tool => match &model.tool {
            Some(t) => text(
                Vec::new(),
                t,
                false,
                TextStamp::Tool {
                    generation: model.generation,
                },
            ),
            None => text(
                vec![muted(
                    app,
                    "(the learn tool is not registered: no enabled topic has a subject available to learn)",
                )],
                "",
                false,
                TextStamp::Empty,
            ),
        },
        Tab::Subject | Tab::Config | Tab::Findings => None,
    }
}

/// The lines of a body a frame draws.
pub struct Window {
    /// The lines (head and text, cleaned and numbered), not wrapped yet.
    pub text: Text<'static>,
    /// The index of `text`'s first line among the body's lines (head
    /// first), as a search numbers them.
    pub first_line: usize,
    /// Rows of `text`'s first line above the view (it starts higher up).
    pub within: usize,
    /// The scroll drawn (the asked one, at most the last page's).
    pub scroll: usize,
    /// The last scroll that still fills the view, once the whole text is
    /// laid out (a long text is laid out only as far as a view reached).
    pub max_scroll: Option<usize>,
    pub gutter: usize,
}

/// The lines of `body` that rows `scroll..scroll + height` come from,
/// `width` columns wide, laid out through `memo`.
pub fn window(
    app: &App,
    body: &Body,
    memo: &RowIndexMemo<TextStamp>,
    (width, height): (usize, usize),
    scroll: usize,
) -> Window {
    let geometry = (width, app.preview.wrap, body.numbered);
    let index = row_index(memo, body.stamp.clone(), body.text, geometry, 0);
    let g = index.geometry;
    let head_rows: usize = body
        .head
        .iter()
        .map(|l| {
            let drawn: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            char_rows(&drawn, g.width, g.gutter, g.wrap)
        })
        .sum();
    // Laid out far enough to fill the view from the scroll asked for (all
    // of it after `G`, which asks for the end).
    let reach = scroll.saturating_sub(head_rows).saturating_add(height);
    let index = row_index(memo, body.stamp.clone(), body.text, geometry, reach);
    let max_scroll = index
        .rows()
        .map(|rows| (head_rows + rows).saturating_sub(height));
    // Past the end, the last page (unless laid out to the end, the text
    // reaches below the view anyway).
    let scroll = scroll.min((head_rows + index.rows_reached()).saturating_sub(height));
    let (mut lines, first_line, within, byte, number_from) = if scroll < head_rows {
        (body.head.clone(), 0, scroll, 0, 1)
    } else {
        let at = index.locate(body.text, scroll - head_rows);
        (
            Vec::new(),
            body.head.len() + at.line,
            scroll - head_rows - at.row,
            at.byte,
            at.line + 1,
        )
    };
    // Enough lines of the text to fill the view below the rows above it.
    let wanted = within + height;
    let mut rows: usize = if scroll < head_rows { head_rows } else { 0 };
    let mut end = byte;
    for piece in body.text[byte..].split_inclusive('\n') {
        if rows >= wanted {
            break;
        }
        let line = piece.strip_suffix('\n').unwrap_or(piece);
        rows += g.rows(line);
        end += piece.len();
    }
    let shown = clean_text(&body.text[byte..end], true);
    lines.extend(number(
        &shown,
        number_from,
        body.numbered.then_some(g.gutter),
        app.screen.theme.muted(),
    ));
    Window {
        text: Text::from(lines),
        first_line,
        within,
        scroll,
        max_scroll,
        gutter: g.gutter,
    }
}
