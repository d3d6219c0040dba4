//! Draws the first-run screen: what was found, per file its state, topic,
//! slug, tokens and path; the selected file's origin and what JP does
//! instead; what is not adopted; what the assistant would see; the keys.
//! Names come from the repository: escaped. No I/O.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use jp_kb_core::adopt::{Entry, State, words};
use jp_kb_core::display::escape_name;

use super::keys::hints;
use super::state::AdoptScreen;

fn marker(state: State) -> &'static str {
    match state {
        State::Learned => "L",
        State::Learnable => "-",
        State::Skipped => "x",
    }
}

/// Draws `screen`; returns how many files the list shows (a page).
pub fn render(screen: &AdoptScreen, frame: &mut Frame) -> usize {
    let [title, list, detail, summary, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(3),
        Constraint::Length(4),
        Constraint::Length(2),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let found = screen.plan.entries.len();
    frame.render_widget(
        Paragraph::new(vec![
            Line::styled(
                format!(
                    "No JP workspace in {}: adopt what other assistants read here?",
                    escape_name(&screen.root.display().to_string())
                ),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Line::raw(format!(
                "{found} file{} found; each becomes a subject in place (a link in .jp/kb/ to \
                 the file; nothing copied, nothing written outside .jp/).",
                if found == 1 { "" } else { "s" }
            )),
        ]),
        title,
    );
    let page = render_list(screen, frame, list);
    render_detail(screen, frame, detail);
    frame.render_widget(
        Paragraph::new(summary_text(screen)).wrap(Wrap { trim: true }),
        summary,
    );
    let gated = match screen.gated() {
        State::Learned => "pre-loaded",
        _ => "learnable",
    };
    frame.render_widget(
        Paragraph::new(format!("{}  (gated files: {gated})", hints()))
            .style(Style::new().add_modifier(Modifier::DIM)),
        footer,
    );
    page
}

fn render_list(screen: &AdoptScreen, frame: &mut Frame, area: Rect) -> usize {
    let block = Block::default()
        .borders(Borders::TOP | Borders::BOTTOM)
        .title(" L pre-loaded  - learnable  x skipped ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let rows = usize::from(inner.height).max(1);
    let start = screen.cursor.saturating_sub(rows - 1);
    let width = |f: fn(&Entry) -> String| {
        screen
            .plan
            .entries
            .iter()
            .map(|e| f(e).chars().count())
            .max()
            .unwrap_or(0)
    };
    let slug_w = width(|e| escape_name(&e.slug).into_owned());
    let topic_w = width(|e| e.topic.id().to_owned());
    let lines: Vec<Line> = screen
        .plan
        .entries
        .iter()
        .enumerate()
        .skip(start)
        .take(rows)
        .map(|(i, e)| {
            let text = format!(
                "{}  {:topic_w$}  {:slug_w$}  {:>6}  {}",
                marker(e.state),
                e.topic.id(),
                escape_name(&e.slug),
                e.tokens,
                escape_name(&e.rel),
            );
            if i == screen.cursor {
                Line::from(Span::styled(
                    text,
                    Style::new().add_modifier(Modifier::REVERSED),
                ))
            } else {
                Line::raw(text)
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
    rows
}

fn render_detail(screen: &AdoptScreen, frame: &mut Frame, area: Rect) {
    let mut lines = Vec::new();
    if let Some(e) = screen.plan.entries.get(screen.cursor) {
        let mut text = words::source(e);
        if let Some(instead) = words::instead(e) {
            text.push_str(" -> ");
            text.push_str(instead);
        }
        lines.push(Line::raw(escape_name(&text).into_owned()));
    }
    if !screen.plan.not_adopted.is_empty() {
        let said: Vec<String> = screen
            .plan
            .not_adopted
            .iter()
            .map(|n| {
                format!(
                    "{} ({})",
                    escape_name(&n.rel),
                    escape_name(&words::not_adopted(&n.why))
                )
            })
            .collect();
        lines.push(Line::raw(format!("Not adopted: {}", said.join("; "))));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

fn summary_text(screen: &AdoptScreen) -> String {
    let seen = &screen.preview;
    let text = match &seen.section {
        Some(_) => format!(
            "The assistant would see a <knowledge> section of {} tokens ({} pre-loaded: {} tokens)",
            seen.section_tokens, seen.preloaded, seen.preloaded_tokens
        ),
        None => "The assistant would see no <knowledge> section".to_owned(),
    };
    let tool = match seen.tool {
        Some(_) => format!(" and the `learn` tool ({} tokens)", seen.tool_tokens),
        None => String::new(),
    };
    format!(
        "{text}{tool}. Enter writes .jp/kb.toml and {} links.",
        screen.plan.adopted().count()
    )
}
