//! How the driver reports a carried-out effect back to `update`: the
//! `Done` event of a plan, undo or redo (with the file to highlight), an
//! error, and workspace paths shown relative to the workspace.

use super::app::App;
use super::edit_bridge::WrittenChange;
use super::effect::ChangedFile;
use super::event::Event;
use jp_kb_core::internal::config::LoadOptions;

/// Paths inside the workspace in a load error, shown relative to it.
pub fn relative_error(options: &LoadOptions, message: &str) -> String {
    match &options.workspace {
        Some(ws) => {
            let ws = ws.canonicalize().unwrap_or_else(|_| ws.clone());
            message.replace(&format!("{}/", ws.display()), "")
        }
        None => message.to_owned(),
    }
}

/// The event of a finished plan, undo or redo; the Config tab highlights
/// the first file it changed.
pub fn done(saved: &[WrittenChange], message: &str, reversed: bool) -> Event {
    let Some(saved) = saved.iter().find(|s| s.changed).or(saved.first()) else {
        return Event::Done {
            message: message.to_owned(),
            error: false,
            changed: None,
        };
    };
    let (before, after) = if reversed {
        (
            saved.after.clone(),
            saved.before.clone().unwrap_or_default(),
        )
    } else {
        (
            saved.before.clone().unwrap_or_default(),
            saved.after.clone(),
        )
    };
    Event::Done {
        message: message.to_owned(),
        error: false,
        changed: saved.changed.then(|| ChangedFile {
            path: saved.path.clone(),
            before,
            after,
        }),
    }
}

/// Paths inside the workspace, shown relative to it.
pub fn relative(app: &App, message: &str) -> String {
    match &app.model {
        Some(m) => message.replace(&format!("{}/", m.kb.root().display()), ""),
        None => message.to_owned(),
    }
}

pub fn error(message: String) -> Event {
    Event::Done {
        message,
        error: true,
        changed: None,
    }
}
