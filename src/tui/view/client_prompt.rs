//! The Prompt tab's client view: each channel's header, its text as it
//! arrives, and the client's cut drawn as a marker line in the warning
//! colour (the rows come from [`crate::tui::client_prompt`]).

use ratatui::text::{Line, Text};

use crate::display::clean_text;
use crate::tui::app::App;
use crate::tui::client_prompt::Row;
use crate::tui::model::Model;

/// The view of `client` as drawn: its first `limit` rows (what a
/// scrolled preview can show, or all of them for a search).
pub fn text(app: &App, model: &Model, client: &str, limit: usize) -> Text<'static> {
    let Some(view) = model.client_prompt(client) else {
        return Text::styled(
            format!("(computing what {client} receives…)"),
            app.theme.muted(),
        );
    };
    let view = match &view.result {
        Ok(view) => view,
        Err(why) => {
            return Text::styled(
                format!("cannot show what {client} receives: {why}"),
                app.theme.error(),
            );
        }
    };
    let t = app.theme;
    let lines: Vec<Line<'static>> = view
        .rows(limit)
        .into_iter()
        .map(|row| match row {
            Row::Note(s) => Line::styled(clean(&s), t.muted()),
            Row::Header(s) => Line::styled(clean(&s), t.title()),
            Row::Text(s) => Line::raw(clean(&s)),
            Row::Cut(s) => Line::styled(clean(&s), t.warning()),
        })
        .collect();
    Text::from(lines)
}

/// The name of the view for the pane title: "Claude Code 2.1.197".
pub fn title(model: &Model, client: &str) -> String {
    model
        .client_prompt(client)
        .and_then(|v| v.result.as_ref().ok())
        .map_or_else(|| client.to_owned(), |v| v.profile.display_name())
}

fn clean(s: &str) -> String {
    clean_text(s, true).into_owned()
}
