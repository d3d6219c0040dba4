//! The subjects pane: the selected topic's subjects as a tree, each with
//! glyph+color markers and its size in tokens; or the topic's error (the
//! pattern tester is a popup over it: `tester`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane;
use crate::tui::app::{App, Mode};
use crate::tui::layout::{DrawnList, list_offset};
use crate::tui::listing::state::ListedRows;
use crate::tui::listing::state::Loading;
use crate::tui::matcher::SlugMatcher;
use crate::tui::model::{FileKind, TokenInfo};
use crate::tui::pane::Focus;
use crate::tui::theme::Mark;
use crate::tui::tree::{Row, RowKind};
use jp_kb_core::display::clean_name;
use jp_kb_core::subjects::Resolution;

/// The markers of subject `i`: its state first, then hidden and file kind.
pub fn marks(res: &Resolution, i: usize, tokens: Option<&TokenInfo>) -> Vec<Mark> {
    let hidden = res.subjects()[i].hidden;
    let state = if res.is_disabled(i) {
        Mark::Disabled
    } else if let Some(by) = res.learned_by.get(i) {
        if by.glob {
            Mark::LearnedGlob
        } else {
            Mark::LearnedExact
        }
    } else if hidden {
        Mark::Hidden
    } else {
        Mark::Available
    };
    let mut marks = vec![state];
    if hidden && state != Mark::Hidden {
        marks.push(Mark::Hidden);
    }
    match tokens.map(|t| t.kind) {
        Some(FileKind::Binary) => marks.push(Mark::Binary),
        Some(FileKind::Skipped) => marks.push(Mark::Unreadable),
        _ => {}
    }
    marks
}

fn token_label(info: Option<&TokenInfo>) -> String {
    match info {
        None => "…".to_owned(),
        Some(TokenInfo {
            tokens: Some(n),
            truncated,
            ..
        }) => format!("{}{n} tok", if *truncated { "≥" } else { "" }),
        Some(TokenInfo {
            kind: FileKind::Binary,
            ..
        }) => "binary".to_owned(),
        Some(_) => "skipped".to_owned(),
    }
}

/// A row's name as spans: cut to `room` columns with `…` (the token
/// column is never cut), the characters the filter matched highlighted.
fn name_spans(app: &App, name: &str, room: usize, matched: &[usize]) -> Vec<Span<'static>> {
    let clean = clean_name(name);
    // Cut by characters: a file name has no words to cut at.
    let cut = if Span::raw(clean.as_ref()).width() <= room {
        clean.clone().into_owned()
    } else {
        let keep: String = clean
            .chars()
            .scan(0, |w, ch| {
                *w += Span::raw(ch.to_string()).width();
                (*w < room).then_some(ch)
            })
            .collect();
        format!("{keep}…")
    };
    // Highlights only when escaping left the name as it was.
    if matched.is_empty() || clean != name {
        return vec![Span::raw(cut)];
    }
    cut.chars()
        .enumerate()
        .map(|(k, ch)| {
            if matched.contains(&k) && ch != '…' {
                Span::styled(ch.to_string(), app.screen.theme.matched())
            } else {
                Span::raw(ch.to_string())
            }
        })
        .collect()
}

/// A row of the subjects pane; `sized`: the sizes are known (false for
/// a listing: every token column says it is being counted).
fn row_line(
    app: &App,
    res: &Resolution,
    row: &Row,
    width: usize,
    matcher: Option<&mut SlugMatcher>,
    sized: bool,
) -> Line<'static> {
    let t = app.screen.theme;
    let indent = "  ".repeat(row.depth);
    match &row.kind {
        RowKind::Dir(dir) => Line::from(vec![
            Span::raw(indent),
            Span::raw(if dir.collapsed { "▸ " } else { "▾ " }),
            Span::styled(format!("{}/", clean_name(row.name(res))), t.title()),
        ]),
        RowKind::Subject(i) => {
            let s = &res.subjects()[*i];
            let info = app.loaded.cache.tokens_of(s).filter(|_| sized);
            let marks = marks(res, *i, info);
            let mut spans = vec![Span::raw(indent)];
            for m in &marks {
                spans.push(Span::styled(m.glyph(), t.mark(*m)));
            }
            if let Some(topic) = app.topic_state() {
                let age = app.features.prune.ages.of(topic.id(), s.slug());
                for (on, m) in [(age.stale, Mark::Stale), (age.low, Mark::LowConfidence)] {
                    if on {
                        spans.push(Span::styled(m.glyph(), t.mark(m)));
                    }
                }
            }
            // A marked row (`Space`): `+` in the marks' colour between
            // the state glyphs and the name, and the name in that colour.
            let marked = app
                .topic_state()
                .is_some_and(|topic| app.features.marks.is_marked(topic.id(), s.slug()));
            spans.push(if marked {
                Span::styled("+", t.marked())
            } else {
                Span::raw(" ")
            });
            let mut right = token_label(info);
            // Loads in the usage window beside the tokens, once read.
            if let Some(fig) = app
                .topic_state()
                .and_then(|topic| app.features.usage.figure(topic.id(), s.slug()))
            {
                let fig = if fig == "·" { fig } else { format!("{fig}×") };
                right = format!("{fig:>5} {right}");
            }
            // The name gets what the markers and the token column leave.
            let room =
                width.saturating_sub(Line::from(spans.clone()).width() + right.chars().count() + 1);
            let name = row.name(res);
            let hits = matcher
                .map(|m| crate::tui::matcher::name_highlights(m, s.slug(), s.rel_path(), name))
                .unwrap_or_default();
            let mut name = name_spans(app, name, room, &hits);
            if marked {
                name = name
                    .into_iter()
                    .map(|span| {
                        let style = t.marked().patch(span.style);
                        span.style(style)
                    })
                    .collect();
            }
            let name_width = Line::from(name.clone()).width();
            spans.extend(name);
            if let Some(by) = res.learned_by.get(*i).filter(|b| b.glob) {
                // What the name leaves, cut with `…` like the name.
                let glob = format!(" ← {}", clean_name(&res.learned_patterns[by.pattern]));
                let left = room.saturating_sub(name_width);
                if left >= 4 {
                    let glob = if Span::raw(glob.as_str()).width() <= left {
                        glob
                    } else {
                        let keep: String = glob.chars().take(left - 1).collect();
                        format!("{keep}…")
                    };
                    spans.push(Span::styled(glob, t.mark(Mark::LearnedGlob)));
                }
            }
            let used = Line::from(spans.clone()).width() + right.chars().count();
            spans.push(Span::raw(" ".repeat(width.saturating_sub(used).max(1))));
            spans.push(Span::styled(right, t.muted()));
            let line = Line::from(spans);
            if s.hidden || res.is_disabled(*i) {
                line.style(t.dimmed())
            } else {
                line
            }
        }
    }
}

/// The subjects pane before the first load arrives: which directory is
/// being read.
pub fn render_loading(app: &App, loading: &Loading, frame: &mut Frame, area: Rect) {
    let Some(topic) = loading.topics.get(app.topics.selected) else {
        frame.render_widget(pane(app, Line::from(" Subjects "), Focus::Subjects), area);
        return;
    };
    let title = Span::styled(
        format!(" Subjects of {} ", clean_name(&topic.id)),
        app.screen.theme.title(),
    );
    let block = pane(app, Line::from(title), Focus::Subjects);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (text, style) = match &topic.dir {
        Ok(dir) => (
            format!("reading {}…", clean_name(dir)),
            app.screen.theme.muted(),
        ),
        Err(e) => (clean_name(e).into_owned(), app.screen.theme.error()),
    };
    frame.render_widget(
        Paragraph::new(text).style(style).wrap(Wrap { trim: false }),
        inner,
    );
}

/// The subjects pane before the first load arrives, once the selected
/// topic is listed: its rows, states and names, without a size (every
/// token column says it is being counted). Says nothing of where rows
/// went: a click waits for the loaded rows, like a key.
pub fn render_listing(app: &App, topic: &str, listed: &ListedRows, frame: &mut Frame, area: Rect) {
    let title = Line::from(vec![
        Span::styled(
            format!(" Subjects of {} ", clean_name(topic)),
            app.screen.theme.title(),
        ),
        Span::styled("(reading sizes…) ", app.screen.theme.muted()),
    ]);
    let block = pane(app, title, Focus::Subjects);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let res = listed.resolution();
    if listed.rows.is_empty() {
        frame.render_widget(
            Paragraph::new("(no subjects in this topic's directory)")
                .style(app.screen.theme.muted()),
            inner,
        );
        return;
    }
    let height = usize::from(inner.height);
    let offset = list_offset(app.subjects.row, height, listed.rows.len());
    let width = usize::from(inner.width);
    let lines: Vec<Line> = listed
        .rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(k, row)| {
            let line = row_line(app, res, row, width, None, false);
            if k == app.subjects.row {
                line.patch_style(app.screen.theme.selected(app.focus == Focus::Subjects))
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Draws the subjects; says which rows went where.
pub fn render(app: &App, frame: &mut Frame, area: Rect) -> DrawnList {
    let Some(state) = app.topic_state() else {
        frame.render_widget(pane(app, Line::from(" Subjects "), Focus::Subjects), area);
        return DrawnList::default();
    };
    let block = pane(app, title(app, state), Focus::Subjects);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(res) = app.resolution() else {
        frame.render_widget(topic_error(app, state), inner);
        return DrawnList::default();
    };
    let filtering = matches!(app.mode, Mode::Filter(_)) || !app.subjects.filter.is_empty();
    let [list_area, filter_area] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(u16::from(filtering)),
    ])
    .areas(inner);
    let rows = app.rows();
    if rows.is_empty() {
        let msg = if res.subjects().is_empty() {
            "(no subjects in this topic's directory)"
        } else {
            "(no subject matches)"
        };
        frame.render_widget(
            Paragraph::new(msg).style(app.screen.theme.muted()),
            list_area,
        );
    }
    let height = usize::from(list_area.height);
    let offset = list_offset(app.subjects.row, height, rows.len());
    let width = usize::from(list_area.width);
    let mut matcher =
        (!app.subjects.filter.is_empty()).then(|| SlugMatcher::new(&app.subjects.filter));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(k, row)| {
            let line = row_line(app, res, row, width, matcher.as_mut(), true);
            if k == app.subjects.row {
                line.patch_style(app.screen.theme.selected(app.focus == Focus::Subjects))
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
    if filtering {
        filter_line(app, &rows, frame, filter_area);
    }
    DrawnList {
        rows: list_area,
        offset,
        len: rows.len(),
    }
}

/// The pane's title: the topic, the marks, what the rows leave out.
fn title(app: &App, state: &jp_kb_core::subjects::TopicState) -> Line<'static> {
    let mut title = vec![Span::styled(
        format!(" Subjects of {} ", clean_name(state.id())),
        app.screen.theme.title(),
    )];
    let marked = app.features.marks.count(state.id());
    if marked > 0 {
        title.push(Span::styled(
            format!("· {marked} marked "),
            app.screen.theme.marked(),
        ));
    }
    if !app.subjects.show_hidden {
        title.push(Span::styled(
            "(hidden+disabled not shown) ",
            app.screen.theme.muted(),
        ));
    }
    if let Some(label) = app
        .features
        .usage
        .order
        .title()
        .filter(|_| app.features.usage.is_loaded())
    {
        title.push(Span::styled(
            format!("({label}) "),
            app.screen.theme.muted(),
        ));
    }
    if let Some(label) = app.features.prune.filter.title() {
        title.push(Span::styled(
            format!("({label}) "),
            app.screen.theme.muted(),
        ));
    }
    Line::from(title)
}

/// The filter's line under the rows: what is typed (or set) and how many
/// subjects it keeps.
fn filter_line(app: &App, rows: &[Row], frame: &mut Frame, filter_area: Rect) {
    let (kept, total) = crate::tui::filter::count(app, rows);
    let count = format!(" {kept}/{total}");
    let count_width = u16::try_from(count.len()).unwrap_or(0);
    let [text_area, count_area] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(count_width)])
            .areas(filter_area);
    frame.render_widget(
        Paragraph::new(count).style(app.screen.theme.key()),
        count_area,
    );
    match &app.mode {
        Mode::Filter(input) => {
            let [label, field] =
                Layout::horizontal([Constraint::Length(2), Constraint::Fill(1)]).areas(text_area);
            frame.render_widget(Paragraph::new("/ ").style(app.screen.theme.key()), label);
            frame.render_widget(input, field);
        }
        _ => frame.render_widget(
            Paragraph::new(format!(
                "/ {}  (Esc clears)",
                clean_name(&app.subjects.filter)
            ))
            .style(app.screen.theme.muted()),
            text_area,
        ),
    }
}

/// Why a topic's subjects cannot be shown, and where `subjects` was set.
fn topic_error<'a>(app: &App, state: &jp_kb_core::subjects::TopicState) -> Paragraph<'a> {
    let root = app
        .model()
        .map(|m| m.kb.root().to_path_buf())
        .unwrap_or_default();
    let why = state
        .dir
        .as_ref()
        .err()
        .map(|e| crate::tui::shown_path::topic_error(&root, e))
        .unwrap_or_default();
    let origin = state
        .config
        .subjects
        .as_ref()
        .map_or_else(|| state.config.origin.clone(), |s| s.origin.clone());
    let text = vec![
        Line::styled(
            format!("{} topic error", Mark::TopicError.glyph()),
            app.screen.theme.error(),
        ),
        Line::raw(clean_name(&why).into_owned()),
        Line::styled(
            format!("set at {}", clean_name(&origin.display_relative(&root))),
            app.screen.theme.muted(),
        ),
    ];
    Paragraph::new(text).wrap(Wrap { trim: false })
}
