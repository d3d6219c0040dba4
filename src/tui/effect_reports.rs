//! How the driver reports a carried-out effect back to `update`: the
//! `Done` event of a plan, undo or redo (with the file to highlight), and
//! an error.

use super::edit_bridge::WrittenChange;
use super::effect::ChangedFile;
use super::event::Event;

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

pub fn error(message: String) -> Event {
    Event::Done {
        message,
        error: true,
        changed: None,
    }
}
