//! The status line: workspace root, the file edits go to, the last
//! action, the knowledge section's size (warning color above
//! [`TOKEN_WARNING`]) and the `jp-kb check` totals.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::App;
use jp_kb_core::display::clean_name;

/// Above this many tokens the prompt size is shown as a warning.
pub const TOKEN_WARNING: usize = 8000;

/// `path` when it fits in `room` cells, else `…/name`.
fn fit_root(path: &std::path::Path, room: usize) -> String {
    let full = clean_name(&path.display().to_string()).into_owned();
    if full.chars().count() <= room {
        return full;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let short = format!("…/{}", clean_name(&name));
    if short.chars().count() <= room {
        short
    } else {
        "…".to_owned()
    }
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let t = app.screen.theme;
    let mut first = Vec::new();
    if let Some(model) = &app.loaded.model {
        let tokens = model.prompt_tokens.unwrap_or(0);
        let style = if tokens > TOKEN_WARNING {
            t.warning()
        } else {
            t.ok()
        };
        // The count comes before the layout (see `tui::prompt`).
        let label = match model.prompt_tokens {
            _ if !model.prompt_counted => "prompt: … tok".to_owned(),
            None => "prompt: absent".to_owned(),
            Some(n) => format!(
                "prompt: {n} tok{}",
                if n > TOKEN_WARNING { " ⚠" } else { "" }
            ),
        };
        first.push(Span::styled(label, style));
        // `--read-only` makes no edit: no file to name for them.
        if let Some(target) = app.shown_target().filter(|_| !app.screen.read_only) {
            first.push(Span::styled("  edits→ ", t.muted()));
            first.push(Span::styled(
                clean_name(&model.show(&target)).into_owned(),
                t.key(),
            ));
        }
        if app.config_broken() || app.screen.read_only {
            first.push(Span::styled("  READ-ONLY", t.error()));
        }
        // What is left after the check count (and `  ws …`).
        let room = usize::from(area.width).saturating_sub(Line::from(first.clone()).width() + 8);
        if let Some(check) = crate::tui::findings::text::status_span(app, room) {
            first.push(Span::raw("  "));
            first.push(check);
        }
        first.push(Span::styled("  ws ", t.muted()));
        // The root gets what is left of the line.
        let room = usize::from(area.width).saturating_sub(Line::from(first.clone()).width());
        first.push(Span::raw(fit_root(model.kb.root(), room)));
    } else if let (Some(loading), false) = (&app.loaded.loading, app.config_broken()) {
        first.push(Span::styled("prompt: … tok", t.ok()));
        let doing = if loading.listed.is_some() {
            "  reading sizes…"
        } else {
            "  walking the subjects…"
        };
        first.push(Span::styled(doing, t.muted()));
        first.push(Span::styled("  ws ", t.muted()));
        let room = usize::from(area.width).saturating_sub(Line::from(first.clone()).width());
        first.push(Span::raw(fit_root(&loading.root, room)));
    } else if app.config_broken() {
        first.push(Span::styled("cannot load the workspace", t.error()));
    }
    let hints = super::footer::hints(app);
    let second = if app.status.line().is_empty() {
        Line::styled(hints, t.muted())
    } else {
        // The message first, cut at a word when it and the hints do not
        // fit (whole in the message log); the hints get what is left.
        let width = usize::from(area.width);
        let message = clean_name(app.status.line()).into_owned();
        let hints_width = Line::raw(hints.as_str()).width() + 3;
        let log = " (M: whole message)";
        // Cut, the message keeps the width but `   ? help` (the rest of
        // the hints shows again with the next message).
        let message = if Line::raw(message.as_str()).width() + hints_width <= width {
            message
        } else {
            let room = width.saturating_sub(log.len() + 10);
            let cut = super::footer::cut_at_word(&message, room);
            if cut == message {
                message
            } else {
                format!("{cut}{log}")
            }
        };
        Line::from(vec![
            Span::styled(
                message,
                if app.status.is_error() {
                    t.error()
                } else {
                    t.ok()
                },
            ),
            Span::styled(format!("   {hints}"), t.muted()),
        ])
    };
    frame.render_widget(Paragraph::new(vec![Line::from(first), second]), area);
}
