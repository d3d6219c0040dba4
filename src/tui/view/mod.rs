//! Drawing: state in, frame out, no I/O. One module per pane; this one
//! lays the screen out and stacks overlays.

mod client_window;
mod dialogs;
mod footer;
mod help;
pub mod preview;
mod status;
pub(crate) mod subjects;
mod topics;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::app::{App, Mode};
use super::layout::{Drawn, DrawnList, areas};
use super::pane::Focus;
use super::{picker, search, tester};
use jp_kb_core::internal::display::clean_text;

/// A bordered block whose border shows focus.
fn pane<'a>(app: &App, title: Line<'a>, focus: Focus) -> Block<'a> {
    let focused = app.focus == focus && matches!(app.mode, Mode::Normal | Mode::Filter(_));
    Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.border(focused))
        .title(title)
}

/// Draws the whole screen and says where everything went (the state
/// keeps it, so mouse events map through what was on screen).
pub fn render(app: &App, frame: &mut Frame) -> Drawn {
    let topic_count = app.model.as_ref().map_or_else(
        || app.loading.as_ref().map_or(0, |l| l.topics.len()),
        |m| m.kb.topics.len(),
    );
    let a = areas(
        frame.area(),
        app.banner.is_some() || app.load_error.is_some(),
        topic_count,
    );
    let mut drawn = Drawn {
        areas: a,
        topics: DrawnList::default(),
        subjects: DrawnList::default(),
        preview_max_scroll: None,
    };
    if let Some(area) = a.banner {
        let line = match (&app.load_error, &app.banner) {
            (Some(_), _) if app.model.is_none() => Line::styled(
                "✗ the configuration cannot be loaded; fix it (the screen updates by itself)",
                app.theme.error(),
            ),
            (Some(err), _) => Line::from(vec![
                Span::styled("✗ READ-ONLY ", app.theme.error()),
                Span::styled(
                    format!(
                        "config error, showing the last good state: {}",
                        clean_text(err, false)
                    ),
                    app.theme.error(),
                ),
            ]),
            (None, Some(note)) => Line::styled(
                format!("ⓘ {}", clean_text(note, false)),
                app.theme.warning(),
            ),
            (None, None) => Line::default(),
        };
        frame.render_widget(Paragraph::new(line), area);
    }
    if let (None, None, Some(loading)) = (&app.model, &app.load_error, &app.loading) {
        topics::render_loading(app, loading, frame, a.topics);
        let listed = loading
            .listed
            .as_ref()
            .filter(|l| l.topic == app.topics.selected)
            .zip(loading.topics.get(app.topics.selected));
        match listed {
            Some((listed, topic)) => {
                subjects::render_listing(app, &topic.id, listed, frame, a.subjects);
            }
            None => subjects::render_loading(app, loading, frame, a.subjects),
        }
        let preview = Block::bordered()
            .border_style(app.theme.border(false))
            .title(Line::styled(" Preview ", app.theme.title()));
        // Nothing here is known before the walk: no size, count or cost.
        let note = if listed.is_some() {
            "sizes, token counts and the prompt are being read; keys pressed meanwhile act once they are"
        } else {
            ""
        };
        frame.render_widget(
            Paragraph::new(note)
                .style(app.theme.muted())
                .wrap(Wrap { trim: false })
                .block(preview),
            a.preview,
        );
    } else if app.model.is_none() {
        let main = Rect {
            y: a.topics.y,
            height: a.status.y.saturating_sub(a.topics.y),
            ..frame.area()
        };
        let text = app.load_error.as_deref().unwrap_or("loading…");
        frame.render_widget(
            Paragraph::new(clean_text(text, true).into_owned())
                .style(app.theme.error())
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" The workspace cannot be loaded ")),
            main,
        );
    } else {
        drawn.topics = topics::render(app, frame, a.topics);
        drawn.subjects = subjects::render(app, frame, a.subjects);
        drawn.preview_max_scroll = preview::render(app, frame, a.preview);
    }
    status::render(app, frame, a.status);
    match &app.mode {
        Mode::Help | Mode::HelpSearch(_, false) => help::render(app, frame),
        Mode::Messages | Mode::HelpSearch(_, true) => help::render_messages(app, frame),
        Mode::Choice(c) => dialogs::choice(app, c, frame),
        Mode::Form(f) => dialogs::form(app, f, frame),
        Mode::Picker(p) => picker::view::render(app, p, frame),
        Mode::Search(hits) => search::view::render(app, *hits, frame),
        Mode::Prune => crate::tui::prune::view::render(app, frame),
        Mode::Pattern(t) if app.model.is_some() => tester::view::render(app, t, &a, frame),
        Mode::Normal | Mode::Filter(_) | Mode::Pattern(_) | Mode::PreviewSearch(_) => {}
    }
    drawn
}
