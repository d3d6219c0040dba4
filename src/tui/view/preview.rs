//! The preview pane: the Subject, Prompt, Learn, Tool, Config and Findings
//! tabs, all showing texts the engine produced (cached by the driver).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane;
use crate::config::Valued;
use crate::display::{clean_name, clean_text, head_lines};
use crate::edit::diff::changed_lines;
use crate::learn::Outcome;
use crate::topic::TopicState;
use crate::tui::app::{App, Focus};
use crate::tui::layout::tab_labels;
use crate::tui::model::{Model, PREVIEW_LIMIT};
use crate::tui::pane::Tab;
use crate::tui::tree::RowKind;

/// The tab under column `x` of the tab row of a preview at `area`.
fn tabs_line(app: &App, width: u16) -> Line<'static> {
    let mut spans = Vec::new();
    let labels = tab_labels(width);
    for (i, tab) in Tab::ALL.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("│", app.theme.muted()));
        }
        let style = if *tab == app.preview.tab {
            app.theme.selected(true)
        } else {
            app.theme.muted()
        };
        spans.push(Span::styled(labels[i].clone(), style));
    }
    Line::from(spans)
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let Some(model) = &app.model else { return };
    let client = app
        .preview
        .prompt_client
        .as_deref()
        .filter(|_| app.preview.tab == Tab::Prompt);
    // The RFD view keeps the plain title; a client view names itself.
    let title = match client {
        Some(c) => format!(
            " Preview · prompt as {} ",
            super::client_prompt::title(model, c)
        ),
        None => " Preview ".to_owned(),
    };
    let block = pane(
        app,
        Line::styled(clean_name(&title).into_owned(), app.theme.title()),
        Focus::Preview,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [tabs, body] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    frame.render_widget(Paragraph::new(tabs_line(app, tabs.width)), tabs);
    let text = match app.preview.tab {
        Tab::Subject => subject(app),
        Tab::Prompt if let Some(c) = client => super::client_prompt::text(app, model, c),
        Tab::Prompt => match &model.prompt {
            _ if !model.prompt_ready => muted(app, "(rendering the <knowledge> section…)"),
            Some(_) => numbered(app, &model.prompt_head.text),
            None => muted(
                app,
                "(the <knowledge> section is absent: no enabled topic has an available or learned subject)",
            ),
        },
        Tab::Learn => learn(app),
        Tab::Tool => match &model.tool {
            Some(t) => plain(app, t),
            None => muted(
                app,
                "(the learn tool is not registered: no enabled topic has a subject available to learn)",
            ),
        },
        Tab::Config => config(app, model),
        Tab::Findings => super::findings::tab(app),
    };
    // Byte-exact texts wrap with a marker (and their number gutter);
    // the others wrap at words. `w` cuts long lines instead.
    let gutter = match app.preview.tab {
        Tab::Prompt if client.is_none() => Some(text_gutter(&text)),
        Tab::Learn => Some(text_gutter(&text)),
        // A client view is annotated prose around the text: word wrap.
        Tab::Tool => Some(0),
        _ => None,
    };
    let paragraph = match gutter {
        Some(g) if app.wrap => {
            let limit = usize::from(app.preview.scroll) + usize::from(body.height);
            Paragraph::new(super::wrap::wrap(
                text,
                usize::from(body.width),
                g,
                limit,
                app.theme.muted(),
            ))
        }
        None if app.wrap => Paragraph::new(text).wrap(Wrap { trim: false }),
        _ => Paragraph::new(text),
    };
    frame.render_widget(paragraph.scroll((app.preview.scroll, 0)), body);
}

/// The gutter of a numbered text: the width of its last line's number
/// span (0 when not numbered).
fn text_gutter(text: &Text) -> usize {
    text.lines
        .last()
        .and_then(|l| l.spans.first())
        .filter(|s| s.content.ends_with(' ') && s.content.trim().parse::<usize>().is_ok())
        .map_or(0, |s| s.content.chars().count())
}

/// `text` as drawn with line numbers: only the lines a scrolled preview
/// can show.
fn numbered(app: &App, text: &str) -> Text<'static> {
    let shown = clean_text(head_lines(text, app.shown_lines()), true).into_owned();
    Text::from(super::wrap::numbered(&shown, app.theme.muted()))
}

/// `text` as drawn: only the lines a scrolled preview can show.
fn plain(app: &App, text: &str) -> Text<'static> {
    Text::raw(clean_text(head_lines(text, app.shown_lines()), true).into_owned())
}

/// What a directory holds and what a pattern over it would do. A learned
/// glob never selects a hidden subject (only its exact slug does), so a
/// pattern is offered only for what it really learns.
fn directory_summary(n: usize, hidden: usize, slug_prefix: &str) -> String {
    let count = crate::plural::count(n, "subject", "subjects");
    if hidden == 0 {
        format!("{count}; as a pattern: {slug_prefix}/**")
    } else if hidden == n {
        format!("{count}, all hidden: learned only by exact slug (no pattern selects them)")
    } else {
        format!(
            "{count} ({hidden} hidden); as a pattern: {slug_prefix}/** learns the other {}",
            n - hidden
        )
    }
}

fn muted(app: &App, text: &str) -> Text<'static> {
    Text::styled(text.to_owned(), app.theme.muted())
}

fn subject(app: &App) -> Text<'static> {
    let Some(row) = app.selected_row() else {
        return muted(app, "(no subject selected)");
    };
    let Some(res) = app.resolution() else {
        return Text::default();
    };
    let i = match row.kind {
        RowKind::Subject(i) => i,
        RowKind::Dir(dir) => {
            let (rel, slug_prefix) = (dir.rel, dir.slug_prefix);
            let under = crate::tui::tree::subjects_under(res, &rel);
            let hidden = under.iter().filter(|&&i| res.subjects()[i].hidden).count();
            return Text::from(vec![
                Line::styled(format!("{}/", clean_name(&rel)), app.theme.title()),
                Line::raw(directory_summary(
                    under.len(),
                    hidden,
                    &clean_name(&slug_prefix),
                )),
                Line::styled(
                    "l / d: learn or disable the whole directory",
                    app.theme.muted(),
                ),
            ]);
        }
    };
    let s = &res.subjects()[i];
    let mut header = vec![Span::styled(
        clean_name(s.slug()).into_owned(),
        app.theme.title(),
    )];
    header.push(Span::styled(
        format!("  {} · {} bytes", clean_name(s.rel_path()), s.bytes),
        app.theme.muted(),
    ));
    let mut lines = vec![Line::from(header)];
    let cost = app
        .model
        .as_ref()
        .zip(app.topic_state())
        .and_then(|(model, topic)| {
            let tokens = crate::tui::cost::Cached {
                model,
                cache: &app.cache,
            };
            crate::tui::cost::subject_line(&tokens, topic, i)
        });
    if let Some(cost) = cost {
        lines.push(Line::styled(
            clean_name(&cost).into_owned(),
            app.theme.muted(),
        ));
    }
    let Some(preview) = app.cache.subjects.get(s.path()) else {
        lines.push(Line::styled("(reading…)", app.theme.muted()));
        return Text::from(lines);
    };
    if preview.truncated {
        lines.push(Line::styled(
            format!(
                "⚠ truncated: showing the first {} KiB of {} bytes",
                PREVIEW_LIMIT / 1024,
                s.bytes
            ),
            app.theme.warning(),
        ));
    }
    frontmatter_lines(app, preview.frontmatter.as_ref(), &mut lines);
    lines.push(Line::default());
    let mut text = Text::from(lines);
    if preview.markdown {
        text.extend(super::markdown::render(&preview.formatted, app.theme));
    } else {
        text.extend(plain(app, &preview.formatted));
    }
    text
}

/// The subject's front-matter, one `key: value` line per field (the file
/// itself, front-matter included, follows unchanged).
fn frontmatter_lines(
    app: &App,
    frontmatter: Option<&Result<serde_json::Value, String>>,
    lines: &mut Vec<Line<'static>>,
) {
    match frontmatter {
        None => {}
        Some(Ok(value)) => {
            let width = usize::from(app.size.0).saturating_sub(8).max(20);
            for line in crate::frontmatter::summary_lines(value, width) {
                lines.push(Line::styled(
                    format!("  {}", clean_name(&line)),
                    app.theme.muted(),
                ));
            }
        }
        Some(Err(why)) => lines.push(Line::styled(
            format!("⚠ front-matter is not valid YAML: {}", clean_name(why)),
            app.theme.warning(),
        )),
    }
}

fn learn(app: &App) -> Text<'static> {
    let Some(key) = app.learn_key() else {
        return Text::default();
    };
    let call = match &key.pattern {
        Some(p) => format!("learn(topic: {:?}, subjects: [{:?}])", key.topic, p),
        None => format!("learn(topic: {:?})", key.topic),
    };
    let mut text = Text::from(vec![
        Line::styled(clean_name(&call).into_owned(), app.theme.muted()),
        Line::default(),
    ]);
    match app.cache.learn.get(&key) {
        None => text.push_line(Line::styled("(running…)", app.theme.muted())),
        Some(Outcome::Success(out)) => text.extend(numbered(app, out)),
        Some(Outcome::Error(out)) => {
            text.push_line(Line::styled(
                "error (the assistant sees a failed call):",
                app.theme.error(),
            ));
            text.extend(numbered(app, out));
        }
    }
    text
}

fn origin_line(app: &App, model: &Model, key: &str, v: Option<&Valued<String>>) -> Line<'static> {
    match v {
        Some(v) => Line::from(vec![
            Span::raw(format!("  {key} = {:?}", clean_name(&v.value))),
            Span::styled(
                format!(
                    "  ← {}",
                    clean_name(&v.origin.display_relative(model.kb.root()))
                ),
                app.theme.muted(),
            ),
        ]),
        None => Line::styled(format!("  {key}: (not set)"), app.theme.muted()),
    }
}

fn origins(app: &App, model: &Model, state: &TopicState) -> Vec<Line<'static>> {
    let c = &state.config;
    let root = model.kb.root();
    let mut lines = vec![
        Line::styled(
            format!("Effective values of topic `{}`:", clean_name(state.id())),
            app.theme.title(),
        ),
        Line::from(vec![
            Span::raw("  declared"),
            Span::styled(
                format!("  ← {}", clean_name(&c.origin.display_relative(root))),
                app.theme.muted(),
            ),
        ]),
    ];
    match &c.enable {
        Some(v) => lines.push(Line::from(vec![
            Span::raw(format!("  enable = {}", v.value)),
            Span::styled(
                format!("  ← {}", clean_name(&v.origin.display_relative(root))),
                app.theme.muted(),
            ),
        ])),
        None => lines.push(Line::styled("  enable = true (default)", app.theme.muted())),
    }
    for (key, v) in [
        ("subjects", &c.subjects),
        ("title", &c.title),
        ("introduction", &c.introduction),
        ("description", &c.description),
    ] {
        lines.push(origin_line(app, model, key, v.as_ref()));
    }
    for (key, list) in [("learned", &c.learned), ("disabled", &c.disabled)] {
        if list.is_empty() {
            lines.push(Line::styled(format!("  {key}: (none)"), app.theme.muted()));
        }
        for v in list {
            lines.push(origin_line(app, model, key, Some(v)));
        }
    }
    lines
}

fn config(app: &App, model: &Model) -> Text<'static> {
    let Some(file) = app.shown_target() else {
        return Text::default();
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(model.show(&file), app.theme.title()),
        Span::styled("  (the file edits go to; f switches)", app.theme.muted()),
    ])];
    let text = model.config_texts.get(&file);
    let highlight = app
        .config
        .last_change
        .as_ref()
        .filter(|c| c.path == file)
        .map(|c| changed_lines(&c.before, &c.after));
    match text {
        None => lines.push(Line::styled(
            "(does not exist yet; the first edit creates it)",
            app.theme.muted(),
        )),
        Some(text) => {
            for (n, line) in text.lines().enumerate() {
                let changed = highlight
                    .as_ref()
                    .and_then(|h| h.get(n))
                    .copied()
                    .unwrap_or(false);
                let number = Span::styled(format!("{:>4} ", n + 1), app.theme.muted());
                let body = Span::raw(clean_name(line).into_owned());
                let mut l = Line::from(vec![number, body]);
                if changed {
                    l = l.style(app.theme.changed_line());
                }
                lines.push(l);
            }
        }
    }
    lines.push(Line::default());
    if let Some(state) = app.topic_state() {
        lines.extend(origins(app, model, state));
    }
    Text::from(lines)
}

#[cfg(test)]
mod tests {
    use super::directory_summary;

    #[test]
    fn a_directory_offers_a_pattern_only_for_what_it_learns() {
        assert_eq!(
            directory_summary(3, 0, "docs"),
            "3 subjects; as a pattern: docs/**"
        );
        assert_eq!(
            directory_summary(2, 2, "hidden-dir"),
            "2 subjects, all hidden: learned only by exact slug (no pattern selects them)"
        );
        assert_eq!(
            directory_summary(3, 1, "rules"),
            "3 subjects (1 hidden); as a pattern: rules/** learns the other 2"
        );
    }
}
