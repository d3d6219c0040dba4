//! The preview's texts, tab by tab, as drawn: the subject (its
//! front-matter summarised, Markdown rendered), the `<knowledge>` section
//! and the learn output numbered, the tool definition, the Config tab's
//! file; long texts cut after as many lines as the caller asks for (a
//! frame what its scroll can show, a search the whole text).

use ratatui::text::{Line, Span, Text};

use crate::tui::app::App;
use crate::tui::model::{Model, PREVIEW_LIMIT};
use crate::tui::pane::Tab;
use crate::tui::tree::RowKind;
use jp_kb_core::display::{clean_name, clean_text, head_lines};

/// The shown tab's text (not the Findings tab's), its long texts cut
/// after `limit` lines: a frame draws what its scroll can show, a search
/// reads the whole text.
pub fn tab_text(app: &App, model: &Model, limit: usize) -> Text<'static> {
    if let Some(body) = crate::tui::text_layout::text_window::body(app, model) {
        return body.whole(app, limit);
    }
    match app.preview.tab {
        Tab::Subject => subject(app, limit),
        Tab::Prompt => match app.preview.prompt_client.as_deref() {
            Some(c) => crate::tui::text_layout::client_text::text(app, model, c, limit),
            None => Text::default(),
        },
        Tab::Config => crate::tui::text_layout::config_text::text(app, model),
        Tab::Findings => crate::tui::findings::text::tab(app).0,
        // Byte-exact tabs: drawn from `text_window::body` above.
        Tab::Learn | Tab::Tool => Text::default(),
    }
}

/// How the shown tab wraps: byte-exact texts by characters with a
/// marker (and their number gutter, `Some(width)`); the others at words
/// (`None`). `w` cuts long lines instead.
pub fn char_gutter(app: &App, text: &Text) -> Option<usize> {
    match app.preview.tab {
        // A client view is annotated prose around the text: word wrap.
        Tab::Prompt if app.preview.prompt_client.is_none() => Some(text_gutter(text)),
        Tab::Learn => Some(text_gutter(text)),
        Tab::Tool => Some(0),
        _ => None,
    }
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

/// `text` as drawn: only the lines a scrolled preview can show.
fn plain(text: &str, limit: usize) -> Text<'static> {
    Text::raw(clean_text(head_lines(text, limit), true).into_owned())
}

/// What a directory holds and what a pattern over it would do. A learned
/// glob never selects a hidden subject (only its exact slug does), so a
/// pattern is offered only for what it really learns.
fn directory_summary(n: usize, hidden: usize, slug_prefix: &str) -> String {
    let count = jp_kb_core::internal::plural::count(n, "subject", "subjects");
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
    Text::styled(text.to_owned(), app.screen.theme.muted())
}

fn subject(app: &App, limit: usize) -> Text<'static> {
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
                Line::styled(format!("{}/", clean_name(&rel)), app.screen.theme.title()),
                Line::raw(directory_summary(
                    under.len(),
                    hidden,
                    &clean_name(&slug_prefix),
                )),
                Line::styled(
                    "l / d: learn or disable the whole directory",
                    app.screen.theme.muted(),
                ),
            ]);
        }
    };
    let s = &res.subjects()[i];
    let mut header = vec![Span::styled(
        clean_name(s.slug()).into_owned(),
        app.screen.theme.title(),
    )];
    header.push(Span::styled(
        format!("  {} · {} bytes", clean_name(s.rel_path()), s.bytes),
        app.screen.theme.muted(),
    ));
    let mut lines = vec![Line::from(header)];
    let cost = crate::tui::plan_costs::header_line(app);
    if let Some(cost) = cost {
        lines.push(Line::styled(
            clean_name(&cost).into_owned(),
            app.screen.theme.muted(),
        ));
    }
    // What the assistant did with it (the usage ledger), once read.
    if let Some(line) = app
        .topic_state()
        .and_then(|topic| app.features.usage.subject_line(topic.id(), s.slug()))
    {
        lines.push(Line::styled(
            clean_name(&line).into_owned(),
            app.screen.theme.muted(),
        ));
    }
    let Some(preview) = app.loaded.cache.subjects.get(s.path()) else {
        lines.push(Line::styled("(reading…)", app.screen.theme.muted()));
        return Text::from(lines);
    };
    if preview.truncated {
        lines.push(Line::styled(
            format!(
                "⚠ truncated: showing the first {} KiB of {} bytes",
                PREVIEW_LIMIT / 1024,
                s.bytes
            ),
            app.screen.theme.warning(),
        ));
    }
    frontmatter_lines(app, preview.frontmatter.as_ref(), &mut lines);
    lines.push(Line::default());
    let mut text = Text::from(lines);
    if preview.markdown {
        text.extend(crate::tui::text_layout::markdown::render(
            &preview.formatted,
            app.screen.theme,
        ));
    } else {
        text.extend(plain(&preview.formatted, limit));
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
            let width = usize::from(app.screen.size.0).saturating_sub(8).max(20);
            for line in jp_kb_core::internal::frontmatter::summary_lines(value, width) {
                lines.push(Line::styled(
                    format!("  {}", clean_name(&line)),
                    app.screen.theme.muted(),
                ));
            }
        }
        Some(Err(why)) => lines.push(Line::styled(
            format!("⚠ front-matter is not valid YAML: {}", clean_name(why)),
            app.screen.theme.warning(),
        )),
    }
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
