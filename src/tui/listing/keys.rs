//! Before the first load: a listing taken into the state, and the keys
//! kept for the load (see [`super`]).

use std::collections::BTreeSet;

use super::state::Loading;
use super::state::{Listed, ListedRows};
use crate::tui::app::{App, Mode};
use crate::tui::command::Command;
use crate::tui::tree;

/// Takes a listing while the first load runs: its rows are built as the
/// loaded state would build them at first (no filter, nothing
/// collapsed). A listing that comes after the load is dropped.
pub fn listed(app: &mut App, listed: Listed) {
    let show_hidden = app.subjects.show_hidden;
    let Some(loading) = app.loaded.loading.as_mut() else {
        return;
    };
    let rows = tree::rows(
        listed.listing.resolution(),
        &BTreeSet::new(),
        show_hidden,
        "",
        None,
    );
    loading.listed = Some(ListedRows {
        topic: listed.topic,
        listing: listed.listing,
        rows,
        show_hidden,
    });
}

/// Whether `command`, pressed before the first load, acts now: quitting
/// always; the help, and closing it, while no key is kept (a kept key
/// comes first). Every other key is kept ([`keep`]).
pub fn acts_now(loading: &Loading, mode: &Mode, command: &Command) -> bool {
    match command {
        Command::Quit => true,
        Command::ToggleHelp | Command::Cancel => loading.kept.is_empty(),
        _ => loading.kept.is_empty() && matches!(mode, Mode::Help(_)) && is_scroll(command),
    }
}

/// Moves in the help, which needs no subject.
fn is_scroll(command: &Command) -> bool {
    matches!(
        command,
        Command::MoveUp
            | Command::MoveDown
            | Command::PageUp
            | Command::PageDown
            | Command::Top
            | Command::Bottom
    )
}

/// Keeps a key pressed before the first load, to be applied once it
/// arrives; the status line says so.
pub fn keep(app: &mut App, command: Command) {
    let Some(loading) = app.loaded.loading.as_mut() else {
        return;
    };
    loading.kept.push(command);
    let n = loading.kept.len();
    let keys = if n == 1 { "key" } else { "keys" };
    app.set_status(
        format!("{n} {keys} kept: they act once the subjects are read"),
        false,
    );
}

/// Gives the loaded state the listing's rows when the load found the
/// same subjects in the same order (names and hidden-ness, which is all
/// the rows of a plain tree depend on): the rows of 38k subjects are not
/// built a second time for the loaded frame. Otherwise they are built
/// from the load, which wins.
pub fn reuse_rows(app: &App, listed: ListedRows) {
    if listed.topic != app.topics.selected || listed.show_hidden != app.subjects.show_hidden {
        return;
    }
    let Some(state) = app.topic_state() else {
        return;
    };
    let Some(loaded) = state.resolution() else {
        return;
    };
    let (before, after) = (listed.resolution().subjects(), loaded.subjects());
    let same = before.len() == after.len()
        && before.iter().zip(after).all(|(a, b)| {
            a.hidden == b.hidden && a.rel_path() == b.rel_path() && a.slug() == b.slug()
        });
    if same {
        app.subjects
            .rows_from(state, &app.features.usage, Some(listed.rows));
    }
}
