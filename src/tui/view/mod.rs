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
use jp_kb_core::display::clean_text;

/// A bordered block whose border shows focus.
fn pane<'a>(app: &App, title: Line<'a>, focus: Focus) -> Block<'a> {
    let focused = app.focus == focus && matches!(app.mode, Mode::Normal | Mode::Filter(_));
    Block::default()
        .borders(Borders::ALL)
        .border_style(app.screen.theme.border(focused))
        .title(title)
}

/// The banner's line: a load error, else the note (the demo, `--read-only`).
fn banner(app: &App) -> Line<'static> {
    match (&app.loaded.error, &app.screen.banner) {
        (Some(_), _) if app.loaded.model.is_none() => Line::styled(
            "✗ the configuration cannot be loaded; fix it (the screen updates by itself)",
            app.screen.theme.error(),
        ),
        (Some(err), _) => Line::from(vec![
            Span::styled("✗ READ-ONLY ", app.screen.theme.error()),
            Span::styled(
                format!(
                    "config error, showing the last good state: {}",
                    clean_text(err, false)
                ),
                app.screen.theme.error(),
            ),
        ]),
        (None, Some(note)) => Line::styled(
            format!("ⓘ {}", clean_text(note, false)),
            app.screen.theme.warning(),
        ),
        (None, None) => Line::default(),
    }
}

/// Draws the whole screen and says where everything went (the state
/// keeps it, so mouse events map through what was on screen).
pub fn render(app: &App, frame: &mut Frame) -> Drawn {
    let topic_count = app.loaded.model.as_ref().map_or_else(
        || app.loaded.loading.as_ref().map_or(0, |l| l.topics.len()),
        |m| m.kb.topics.len(),
    );
    let a = areas(
        frame.area(),
        app.screen.banner.is_some() || app.loaded.error.is_some(),
        topic_count,
    );
    let mut drawn = Drawn {
        areas: a,
        topics: DrawnList::default(),
        subjects: DrawnList::default(),
        preview_max_scroll: None,
    };
    if let Some(area) = a.banner {
        frame.render_widget(Paragraph::new(banner(app)), area);
    }
    if let (None, None, Some(loading)) = (&app.loaded.model, &app.loaded.error, &app.loaded.loading)
    {
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
            .border_style(app.screen.theme.border(false))
            .title(Line::styled(" Preview ", app.screen.theme.title()));
        // Nothing here is known before the walk: no size, count or cost.
        let note = if listed.is_some() {
            "sizes, token counts and the prompt are being read; keys pressed meanwhile act once they are"
        } else {
            ""
        };
        frame.render_widget(
            Paragraph::new(note)
                .style(app.screen.theme.muted())
                .wrap(Wrap { trim: false })
                .block(preview),
            a.preview,
        );
    } else if app.loaded.model.is_none() {
        let main = Rect {
            y: a.topics.y,
            height: a.status.y.saturating_sub(a.topics.y),
            ..frame.area()
        };
        let text = app.loaded.error.as_deref().unwrap_or("loading…");
        frame.render_widget(
            Paragraph::new(clean_text(text, true).into_owned())
                .style(app.screen.theme.error())
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
    overlay(app, &a, frame);
    drawn
}

/// The overlay over the panes the mode shows, if any.
fn overlay(app: &App, a: &crate::tui::layout::Areas, frame: &mut Frame) {
    match &app.mode {
        Mode::Help(pager) => help::render(app, pager, None, frame),
        Mode::HelpSearch(input, pager, false) => help::render(app, pager, Some(input), frame),
        Mode::Messages(pager) => help::render_messages(app, pager, None, frame),
        Mode::HelpSearch(input, pager, true) => {
            help::render_messages(app, pager, Some(input), frame);
        }
        Mode::Choice(c) => dialogs::choice(app, c, frame),
        Mode::Form(f) => dialogs::form(app, f, frame),
        Mode::Picker(p) => picker::view::render(app, p, frame),
        Mode::Search(hits) => search::view::render(app, *hits, frame),
        Mode::Prune => crate::tui::prune::view::render(app, frame),
        Mode::Pattern(t) if app.loaded.model.is_some() => tester::view::render(app, t, a, frame),
        Mode::Normal | Mode::Filter(_) | Mode::Pattern(_) | Mode::PreviewSearch(_) => {}
    }
}
