//! The topics pane: every topic of the effective configuration, enabled
//! or not, with its counts, an error marker and its `jp-kb check` counts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::pane;
use crate::tui::app::App;
use crate::tui::layout::{DrawnList, list_offset};
use crate::tui::listing::state::Loading;
use crate::tui::pane::Focus;
use crate::tui::theme::Mark;
use jp_kb_core::display::clean_name;
use jp_kb_core::subjects::TopicState;

/// One topic's row: marker, id, counts (available/learned/hidden/disabled)
/// and title.
pub fn topic_line(app: &App, state: &TopicState) -> Line<'static> {
    let (mark, counts) = match (&state.dir, state.resolution()) {
        (Err(_), _) | (_, None) => (Mark::TopicError, "error".to_owned()),
        (Ok(_), Some(r)) => {
            let c = r.counts();
            let mark = if state.enabled() {
                Mark::TopicOn
            } else {
                Mark::TopicOff
            };
            (
                mark,
                format!("{}/{}/{}/{}", c.available, c.learned, c.hidden, c.disabled),
            )
        }
    };
    let findings = crate::tui::findings::text::topic_marker(app, state.id());
    topic_row(
        app,
        mark,
        state.id(),
        counts,
        findings,
        state.enabled(),
        state.config.title(),
    )
}

/// The row shared by the loaded and the loading pane: marker, id, counts,
/// findings marker, `(disabled)`, title; dimmed when disabled.
fn topic_row(
    app: &App,
    mark: Mark,
    id: &str,
    counts: String,
    findings: Vec<Span<'static>>,
    enabled: bool,
    title: Option<&str>,
) -> Line<'static> {
    let t = app.screen.theme;
    let counts_style = if mark == Mark::TopicError {
        t.error()
    } else {
        t.muted()
    };
    let mut spans = vec![
        Span::styled(mark.glyph(), t.mark(mark)),
        Span::raw(" "),
        Span::styled(clean_name(id).into_owned(), t.title()),
        Span::raw(" "),
        Span::styled(counts, counts_style),
    ];
    spans.extend(findings);
    if !enabled {
        spans.push(Span::styled(" (disabled)", t.muted()));
    }
    if let Some(title) = title {
        spans.push(Span::raw(" "));
        spans.push(Span::raw(clean_name(title).into_owned()));
    }
    let line = Line::from(spans);
    if enabled {
        line
    } else {
        line.style(t.dimmed())
    }
}

/// The topics pane before the first load arrives: ids and titles from
/// the configuration, the counts still being walked.
pub fn render_loading(app: &App, loading: &Loading, frame: &mut Frame, area: Rect) {
    let t = app.screen.theme;
    let title = Line::from(vec![
        Span::styled(" Topics ", t.title()),
        Span::styled("avail/learned/hidden/disabled ", t.muted()),
    ]);
    let block = pane(app, title, Focus::Topics);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if loading.topics.is_empty() {
        frame.render_widget(
            Paragraph::new("(no topics; n creates one)")
                .style(t.muted())
                .wrap(ratatui::widgets::Wrap { trim: false }),
            inner,
        );
        return;
    }
    let offset = list_offset(
        app.topics.selected,
        usize::from(inner.height),
        loading.topics.len(),
    );
    let lines: Vec<Line> = loading
        .topics
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(inner.height))
        .map(|(i, topic)| {
            let (mark, counts) = match (&topic.dir, topic.enabled) {
                (Err(_), _) => (Mark::TopicError, "error"),
                (Ok(_), true) => (Mark::TopicOn, "walking…"),
                (Ok(_), false) => (Mark::TopicOff, "walking…"),
            };
            let line = topic_row(
                app,
                mark,
                &topic.id,
                counts.to_owned(),
                Vec::new(),
                topic.enabled,
                topic.title.as_deref(),
            );
            if i == app.topics.selected {
                line.patch_style(t.selected(app.focus == Focus::Topics))
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Draws the topics; says which rows went where.
pub fn render(app: &App, frame: &mut Frame, area: Rect) -> DrawnList {
    let Some(model) = &app.loaded.model else {
        return DrawnList::default();
    };
    let title = Line::from(vec![
        Span::styled(" Topics ", app.screen.theme.title()),
        Span::styled("avail/learned/hidden/disabled ", app.screen.theme.muted()),
    ]);
    let block = pane(app, title, Focus::Topics);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let topics = &model.kb.topics;
    if topics.is_empty() {
        frame.render_widget(
            Paragraph::new("(no topics; n creates one)")
                .style(app.screen.theme.muted())
                .wrap(ratatui::widgets::Wrap { trim: false }),
            inner,
        );
        return DrawnList::default();
    }
    let offset = list_offset(app.topics.selected, usize::from(inner.height), topics.len());
    let lines: Vec<Line> = topics
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(inner.height))
        .map(|(i, state)| {
            let line = topic_line(app, state);
            if i == app.topics.selected {
                line.patch_style(app.screen.theme.selected(app.focus == Focus::Topics))
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
    DrawnList {
        rows: inner,
        offset,
        len: topics.len(),
    }
}
