//! The Prompt tab's client view: each channel's header, its text as it
//! arrives, and the client's cut drawn as a marker line in the warning
//! colour (the rows come from [`crate::tui::client_prompt`]).

use ratatui::text::{Line, Text};

use crate::tui::app::App;
use crate::tui::client_prompt::{ClientView, Row};
use crate::tui::model::Model;
use crate::tui::pane::Tab;
use jp_kb_core::display::clean_text;

/// The view of `client` as text: its first `limit` rows (all of them
/// for a search), or the placeholder or error shown instead. A computed
/// view is drawn from its scroll by `client_window`, not from this.
pub fn text(app: &App, model: &Model, client: &str, limit: usize) -> Text<'static> {
    let Some(view) = model.client_prompt(client) else {
        return Text::styled(
            format!("(computing what {client} receives…)"),
            app.screen.theme.muted(),
        );
    };
    let view = match &view.result {
        Ok(view) => view,
        Err(why) => {
            return Text::styled(
                format!("cannot show what {client} receives: {why}"),
                app.screen.theme.error(),
            );
        }
    };
    let lines: Vec<Line<'static>> = view
        .rows()
        .iter()
        .take(limit)
        .map(|row| line(app, row))
        .collect();
    Text::from(lines)
}

/// One row of a view, cleaned and styled by its kind.
pub fn line(app: &App, row: &Row) -> Line<'static> {
    let t = app.screen.theme;
    match row {
        Row::Note(s) => Line::styled(clean(s), t.muted()),
        Row::Header(s) => Line::styled(clean(s), t.title()),
        Row::Text(s) => Line::raw(clean(s)),
        Row::Cut(s) => Line::styled(clean(s), t.warning()),
    }
}

/// The view of the shown client, once computed and readable (else the
/// tab draws its placeholder or error whole).
pub fn shown<'a>(app: &App, model: &'a Model) -> Option<(u64, &'a str, &'a ClientView)> {
    let client = app.preview.prompt_client.as_deref()?;
    if app.preview.tab != Tab::Prompt {
        return None;
    }
    let prompt = model.client_prompt(client)?;
    let view = prompt.result.as_ref().ok()?;
    Some((prompt.generation, prompt.client.as_str(), view))
}

/// The name of the view for the pane title: "Claude Code 2.1.197".
pub fn title(model: &Model, client: &str) -> String {
    model
        .client_prompt(client)
        .and_then(|v| v.result.as_ref().ok())
        .map_or_else(|| client.to_owned(), |v| v.profile.display_name())
}

pub fn clean(s: &str) -> String {
    clean_text(s, true).into_owned()
}
