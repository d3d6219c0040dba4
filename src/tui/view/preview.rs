//! The preview pane: its tab row, the shown tab's text (see
//! [`crate::tui::text_layout::tab_text`]) scrolled, wrapped and searched, and the search line
//! under it; the Findings tab kept scrolled to its cursor.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane;
use crate::tui::app::App;
use crate::tui::layout::tab_labels;
use crate::tui::pane::Focus;
use crate::tui::pane::Tab;
use jp_kb_core::display::clean_name;

/// The tab under column `x` of the tab row of a preview at `area`.
fn tabs_line(app: &App, width: u16) -> Line<'static> {
    let mut spans = Vec::new();
    let labels = tab_labels(width);
    for (i, tab) in Tab::ALL.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("│", app.screen.theme.muted()));
        }
        let style = if *tab == app.preview.tab {
            app.screen.theme.selected(true)
        } else {
            app.screen.theme.muted()
        };
        spans.push(Span::styled(labels[i].clone(), style));
    }
    Line::from(spans)
}

/// Draws the preview; returns the last scroll that still fills the view
/// when the tab knows it (the byte-exact tabs and a client view, once
/// laid out to their end).
pub fn render(app: &App, frame: &mut Frame, area: Rect) -> Option<usize> {
    let Some(model) = &app.loaded.model else {
        return None;
    };
    let client = app
        .preview
        .prompt_client
        .as_deref()
        .filter(|_| app.preview.tab == Tab::Prompt);
    // The RFD view keeps the plain title; a client view names itself.
    let title = match client {
        Some(c) => format!(
            " Preview · prompt as {} ",
            crate::tui::text_layout::client_text::title(model, c)
        ),
        None => " Preview ".to_owned(),
    };
    let block = pane(
        app,
        Line::styled(clean_name(&title).into_owned(), app.screen.theme.title()),
        Focus::Preview,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [tabs, body] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    frame.render_widget(Paragraph::new(tabs_line(app, tabs.width)), tabs);
    // The search line (typing `/`, or a search's count) under the text.
    let body_area = match crate::tui::preview_search::view::line(app) {
        Some(line) => {
            let [body, bottom] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(body);
            frame.render_widget(Paragraph::new(line), bottom);
            body
        }
        None => body,
    };
    if let Some(body) = crate::tui::text_layout::text_window::body(app, model) {
        return render_window(app, &body, frame, body_area);
    }
    if let Some(view) = crate::tui::text_layout::client_text::shown(app, model) {
        return super::client_window::render(app, view, frame, body_area);
    }
    // The Findings tab scrolls to its cursor, not by the preview's scroll.
    let mut scroll = app.preview.scroll;
    let mut text = if app.preview.tab == Tab::Findings {
        let (text, at) = crate::tui::findings::text::tab(app);
        scroll = cursor_scroll(&text, at, body_area, app.preview.wrap);
        text
    } else {
        crate::tui::text_layout::tab_text::tab_text(app, model, app.shown_lines())
    };
    let findings = app.preview.tab == Tab::Findings;
    let height = usize::from(body_area.height);
    let paragraph = |text| {
        if app.preview.wrap {
            Paragraph::new(text).wrap(Wrap { trim: false })
        } else {
            Paragraph::new(text)
        }
    };
    // Past the end (`G`), the last page: the text holds the lines up to
    // the scroll and a screen more, so its rows say how far it can go
    // (counted only once scrolled: at the top nothing is past the end).
    let max_scroll = (!findings && scroll > 0).then(|| {
        paragraph(text.clone())
            .line_count(body_area.width)
            .saturating_sub(height)
    });
    let scroll = max_scroll.map_or(scroll, |max| scroll.min(max));
    crate::tui::preview_search::view::highlight(app, &mut text, 0, scroll, height);
    let scroll = u16::try_from(scroll).unwrap_or(u16::MAX);
    frame.render_widget(paragraph(text).scroll((scroll, 0)), body_area);
    max_scroll
}

/// A byte-exact tab (Prompt, Learn, Tool): only the lines reaching into
/// view are drawn, wrapped by characters with the `↪` marker. Returns the
/// last scroll that still fills the view, once the text is all laid out.
fn render_window(
    app: &App,
    body: &crate::tui::text_layout::text_window::Body,
    frame: &mut Frame,
    area: Rect,
) -> Option<usize> {
    let width = usize::from(area.width);
    let height = usize::from(area.height);
    let mut window = crate::tui::text_layout::text_window::window(
        app,
        body,
        &app.preview.text_rows,
        (width, height),
        app.preview.scroll,
    );
    crate::tui::preview_search::view::highlight(
        app,
        &mut window.text,
        window.first_line,
        window.scroll,
        height,
    );
    // `w` cuts long lines instead (one row each).
    let text = if app.preview.wrap {
        crate::tui::text_layout::wrap::wrap(
            window.text,
            width,
            window.gutter,
            (window.within, window.within + height),
            app.screen.theme.muted(),
        )
    } else {
        // Cut lines: one row each, so the rows above are lines.
        let mut text = window.text;
        text.lines.drain(..window.within.min(text.lines.len()));
        text
    };
    frame.render_widget(Paragraph::new(text), area);
    window.max_scroll
}

/// The scroll keeping the Findings tab's cursor (line `at`, with the two
/// lines of its place and hint) in view: 0 while it fits on the first
/// screen, else the cursor near the bottom.
fn cursor_scroll(text: &Text, at: usize, body: Rect, wrap: bool) -> usize {
    let width = usize::from(body.width);
    let rows = |lines: &[Line]| -> usize {
        lines
            .iter()
            .map(|l| {
                let s: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
                crate::tui::text_layout::word_rows::word_rows(&s, width, wrap)
            })
            .sum()
    };
    let end = (at + 3).min(text.lines.len());
    let bottom = rows(&text.lines[..end]);
    bottom.saturating_sub(usize::from(body.height))
}
