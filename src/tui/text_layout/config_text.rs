//! The Config tab: the file edits go to (or a finding's place, its line
//! marked), each line numbered, the last edit's lines highlighted, then
//! the selected topic's effective values with the file each comes from.

use ratatui::text::{Line, Span, Text};

use crate::tui::app::App;
use crate::tui::model::Model;
use jp_kb_core::display::clean_name;
use jp_kb_core::edit::changed_lines;
use jp_kb_core::edit::plan::TopicField;
use jp_kb_core::internal::config::Valued;
use jp_kb_core::subjects::TopicState;

fn origin_line(app: &App, model: &Model, key: &str, v: Option<&Valued<String>>) -> Line<'static> {
    match v {
        Some(v) => Line::from(vec![
            Span::raw(format!("  {key} = {:?}", clean_name(&v.value))),
            Span::styled(
                format!(
                    "  ← {}",
                    clean_name(&v.origin.display_relative(model.kb.root()))
                ),
                app.screen.theme.muted(),
            ),
        ]),
        None => Line::styled(format!("  {key}: (not set)"), app.screen.theme.muted()),
    }
}

fn origins(app: &App, model: &Model, state: &TopicState) -> Vec<Line<'static>> {
    let c = &state.config;
    let root = model.kb.root();
    let mut lines = vec![
        Line::styled(
            format!("Effective values of topic `{}`:", clean_name(state.id())),
            app.screen.theme.title(),
        ),
        Line::from(vec![
            Span::raw("  declared"),
            Span::styled(
                format!("  ← {}", clean_name(&c.origin.display_relative(root))),
                app.screen.theme.muted(),
            ),
        ]),
    ];
    match &c.enable {
        Some(v) => lines.push(Line::from(vec![
            Span::raw(format!("  enable = {}", v.value)),
            Span::styled(
                format!("  ← {}", clean_name(&v.origin.display_relative(root))),
                app.screen.theme.muted(),
            ),
        ])),
        None => lines.push(Line::styled(
            "  enable = true (default)",
            app.screen.theme.muted(),
        )),
    }
    // `subjects` first: it is what the topic is made of.
    for field in [
        TopicField::Subjects,
        TopicField::Title,
        TopicField::Introduction,
        TopicField::Description,
    ] {
        lines.push(origin_line(app, model, field.key(), c.text(field)));
    }
    for field in TopicField::LISTS {
        let (key, list) = (field.key(), c.list(field));
        if list.is_empty() {
            lines.push(Line::styled(
                format!("  {key}: (none)"),
                app.screen.theme.muted(),
            ));
        }
        for v in list {
            lines.push(origin_line(app, model, key, Some(v)));
        }
    }
    lines
}

/// The tab's text.
pub fn text(app: &App, model: &Model) -> Text<'static> {
    // A finding's place (Enter on the Findings tab), else the edit file.
    let jump = app.preview.config.jump.as_ref();
    let Some(file) = jump.map(|(f, _)| f.clone()).or_else(|| app.shown_target()) else {
        return Text::default();
    };
    let about = if jump.is_some() {
        "  (a finding's place; o opens it, a tab key goes back)"
    } else {
        "  (the file edits go to; f switches)"
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(model.show(&file), app.screen.theme.title()),
        Span::styled(about, app.screen.theme.muted()),
    ])];
    let pointed = jump.and_then(|(_, line)| usize::try_from(*line).ok());
    let text = model.config_texts.get(&file);
    let highlight = app
        .preview
        .config
        .last_change
        .as_ref()
        .filter(|c| c.path == file)
        .map(|c| changed_lines(&c.before, &c.after));
    match text {
        // The TUI holds only the TOML files it may edit: another layer
        // (JSON, YAML) is left to the editor.
        None if jump.is_some() => lines.push(Line::styled(
            "(not a file jp-kb edits; o opens it at the line)",
            app.screen.theme.muted(),
        )),
        None => lines.push(Line::styled(
            "(does not exist yet; the first edit creates it)",
            app.screen.theme.muted(),
        )),
        Some(text) => {
            for (n, line) in text.lines().enumerate() {
                let changed = highlight
                    .as_ref()
                    .and_then(|h| h.get(n))
                    .copied()
                    .unwrap_or(false);
                let number = Span::styled(format!("{:>4} ", n + 1), app.screen.theme.muted());
                let body = Span::raw(clean_name(line).into_owned());
                let mut l = Line::from(vec![number, body]);
                if changed {
                    l = l.style(app.screen.theme.changed_line());
                }
                if pointed == Some(n + 1) {
                    // The finding's line: a marker in the number gutter
                    // and the selection's colours, never colour alone.
                    l.spans[0] = Span::styled(format!("▶{:>3} ", n + 1), app.screen.theme.key());
                    l = l.style(app.screen.theme.selected(false));
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
