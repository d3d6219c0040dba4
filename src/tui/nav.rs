//! Backing out and paging: `Esc` on the main screen backs out one level
//! (the filter, then the preview's focus; dialogs close themselves), and
//! the `?` help and the message log page (PgDn/PgUp, Ctrl-d/Ctrl-u,
//! Home/End, g/G) and search (`/`, then `n`/`N`).

use super::app::{App, Mode};
use super::command::Command;
use super::effect::Effect;
use super::pager::Pager;
use super::pane::Focus;

/// `Esc` on the main screen: clears the topic's marks if it has some,
/// else the filter if one is set, else leaves the preview for the
/// subjects pane. True when it did something.
pub fn back_out(app: &mut App) -> bool {
    if let Some(topic) = app.topic_state().map(|t| t.id().to_owned())
        && app.features.marks.clear(&topic)
    {
        app.set_status("marks cleared", false);
        return true;
    }
    if !app.subjects.filter.is_empty() {
        app.subjects.filter.clear();
        app.set_status("filter cleared", false);
        return true;
    }
    if app.focus == Focus::Preview {
        app.focus = Focus::Subjects;
        return true;
    }
    false
}

/// The lines of the overlay shown (the help or the message log), as
/// plain text for searching.
fn overlay_lines(app: &App, messages: bool) -> Vec<String> {
    if messages {
        return app.status.messages().to_vec();
    }
    super::text_layout::help_text::lines(app)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// How many lines the overlay shows at once.
fn page(app: &App) -> usize {
    // The overlay stops above the two status lines; minus its borders.
    usize::from(app.screen.size.1.saturating_sub(4)).max(1)
}

/// The last scroll position that still fills the overlay.
fn last_scroll(app: &App, messages: bool) -> u16 {
    let n = overlay_lines(app, messages).len();
    u16::try_from(n.saturating_sub(page(app))).unwrap_or(u16::MAX)
}

/// Opens the `?` help at its top.
pub fn open_help(app: &mut App) {
    app.mode = Mode::Help(Pager::default());
}

/// Opens the message log at its end (newest last).
pub fn open_messages(app: &mut App) {
    let scroll = last_scroll(app, true);
    app.mode = Mode::Messages(Pager {
        scroll,
        query: String::new(),
    });
}

/// The overlay shown and whether it is the message log.
fn pager(mode: &Mode) -> Option<(&Pager, bool)> {
    match mode {
        Mode::Help(p) => Some((p, false)),
        Mode::Messages(p) => Some((p, true)),
        Mode::HelpSearch(_, p, messages) => Some((p, *messages)),
        _ => None,
    }
}

/// Keys of the help and the message log.
pub fn overlay(app: &mut App, action: &Command) -> Vec<Effect> {
    let Some((pager, messages)) = pager(&app.mode) else {
        return Vec::new();
    };
    let mut pager = pager.clone();
    let page = u16::try_from(page(app)).unwrap_or(u16::MAX);
    let last = last_scroll(app, messages);
    let s = pager.scroll;
    pager.scroll = match action {
        Command::Quit => {
            app.screen.quit = true;
            return vec![Effect::Quit];
        }
        Command::Cancel | Command::ToggleHelp | Command::ShowMessages => {
            app.mode = Mode::Normal;
            return Vec::new();
        }
        Command::MoveDown => s.saturating_add(1),
        Command::MoveUp => s.saturating_sub(1),
        Command::PageDown => s.saturating_add(page),
        Command::PageUp => s.saturating_sub(page),
        Command::Top => 0,
        Command::Bottom => last,
        Command::OpenFilter => {
            app.mode = Mode::HelpSearch(ratatui_textarea::TextArea::default(), pager, messages);
            return Vec::new();
        }
        Command::SearchNext => find(app, &pager, messages, true).unwrap_or(s),
        Command::SearchPrev => find(app, &pager, messages, false).unwrap_or(s),
        _ => s,
    }
    .min(last);
    app.mode = shown(pager, messages);
    Vec::new()
}

fn shown(pager: Pager, messages: bool) -> Mode {
    if messages {
        Mode::Messages(pager)
    } else {
        Mode::Help(pager)
    }
}

/// Keys while typing a search in the help or the message log.
pub fn search(app: &mut App, action: &Command) -> Vec<Effect> {
    let Mode::HelpSearch(input, pager, messages) = &mut app.mode else {
        return Vec::new();
    };
    let messages = *messages;
    match action {
        Command::Quit => {
            app.screen.quit = true;
            return vec![Effect::Quit];
        }
        Command::Input(key) => {
            input.input(*key);
        }
        Command::Cancel | Command::Confirm => {
            let query = input.lines().join("");
            let mut pager = std::mem::take(pager);
            pager.query.clear();
            let mut missed = None;
            if matches!(action, Command::Confirm) && !query.is_empty() {
                pager.query = query;
                // From the line shown at the top, that line included.
                pager.scroll = pager.scroll.saturating_sub(1);
                if let Some(at) = find(app, &pager, messages, true) {
                    pager.scroll = at.min(last_scroll(app, messages));
                } else {
                    pager.scroll = pager.scroll.saturating_add(1);
                    missed = Some(format!("no line matches `{}`", pager.query));
                }
            }
            app.mode = shown(pager, messages);
            if let Some(missed) = missed {
                app.set_status(missed, true);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// The next (or previous) line after (before) the one at the top that
/// contains the last search (case-insensitive), wrapping around.
fn find(app: &App, pager: &Pager, messages: bool, forward: bool) -> Option<u16> {
    let query = pager.query.to_lowercase();
    if query.is_empty() {
        return None;
    }
    let lines = overlay_lines(app, messages);
    let n = lines.len();
    let top = usize::from(pager.scroll);
    (1..=n)
        .map(|k| {
            if forward {
                (top + k) % n
            } else {
                (top + n * 2 - k) % n
            }
        })
        .find(|&i| lines[i].to_lowercase().contains(&query))
        .and_then(|i| u16::try_from(i).ok())
}
