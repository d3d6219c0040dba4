//! The subjects filter in the app: each topic's own filter text follows
//! the selected topic, and the match count the filter line shows. The
//! matcher itself is [`super::matcher`].

use super::app::App;
use super::tree::{Row, RowKind};

/// Swaps `app.subjects.filter` when the selected topic changed since the
/// last call (called after every state change, see `moves::clamp`).
pub fn follow_topic(app: &mut App) {
    let Some(id) = app.topic_state().map(|t| t.id().to_owned()) else {
        return;
    };
    app.subjects.filters.show(&id, &mut app.subjects.filter);
}

/// `matched/total`: subjects the filter keeps out of those it looked at
/// (hidden and disabled ones count only while shown).
pub fn count(app: &App, rows: &[Row]) -> (usize, usize) {
    let matched = rows
        .iter()
        .filter(|r| matches!(r.kind, RowKind::Subject(_)))
        .count();
    let total = app.resolution().map_or(0, |res| {
        if app.subjects.show_hidden {
            res.subjects().len()
        } else {
            (0..res.subjects().len())
                .filter(|&i| !res.subjects()[i].hidden && !res.is_disabled(i))
                .count()
        }
    });
    (matched, total)
}
