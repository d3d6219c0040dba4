//! The subjects pane's cursor follows the subject, never the row number
//! (issue 37 item 1). The pane remembers what its row shows — a subject
//! by its path, a directory by its own —, and the rows it was chosen on;
//! whenever the rows shown are other rows (a filter typed or cleared, a
//! directory opened, the usage order, a reload, a file appearing or
//! vanishing), the row is found again from the subject. `Esc` that
//! clears a filter used to keep the row number, so the next `l` edited a
//! subject the person never picked.
//!
//! A subject no longer shown is looked for in its collapsed directory,
//! then its neighbours are (the rows after and before it when it was
//! chosen); only when none is shown does the row number stay.

use std::rc::{Rc, Weak};

use super::tree::{Row, RowKind};
use jp_kb_core::subjects::{Resolution, TopicState};

/// What a row shows, by name (a row number means nothing once the rows
/// change).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// A subject, by its path relative to the topic's directory.
    Subject(String),
    /// A directory, by its path relative to the topic's directory.
    Dir(String),
}

impl Place {
    fn of(res: &Resolution, row: &Row) -> Option<Self> {
        match &row.kind {
            RowKind::Subject(i) => {
                Some(Self::Subject(res.subjects().get(*i)?.rel_path().to_owned()))
            }
            RowKind::Dir(dir) => Some(Self::Dir(dir.rel.clone())),
        }
    }

    fn rel(&self) -> &str {
        match self {
            Self::Subject(rel) | Self::Dir(rel) => rel,
        }
    }
}

/// The place the cursor is on and the rows it was chosen on.
#[derive(Debug, Default)]
pub struct Chosen {
    /// The topic the place belongs to.
    topic: String,
    at: Option<Place>,
    /// The rows after and before it then: where the cursor goes when the
    /// place is no longer shown.
    next: Option<Place>,
    prev: Option<Place>,
    /// The rows (by identity) the row number indexes.
    rows: Weak<Vec<Row>>,
}

impl Chosen {
    /// Remembers what row `row` of `rows` (the topic `state`'s) shows,
    /// after the cursor was put there (a filter landing on its best match,
    /// a jump to a hit or a finding).
    pub fn select(&mut self, row: usize, state: &TopicState, rows: &Rc<Vec<Row>>) {
        self.remember(row, state, rows);
    }

    /// After every change of the state: when `rows` (the topic `state`'s
    /// rows now) are not the ones `row` was chosen on, finds the row of the
    /// place chosen (or a neighbour) in them; then remembers what the row
    /// shows. Returns the row.
    pub fn follow(&mut self, row: usize, state: &TopicState, rows: &Rc<Vec<Row>>) -> usize {
        let Some(res) = state.resolution() else {
            return row;
        };
        let mut row = row;
        let same = Weak::ptr_eq(&self.rows, &Rc::downgrade(rows));
        if !same && self.topic == state.id() {
            let found = [&self.at, &self.next, &self.prev]
                .into_iter()
                .flatten()
                .find_map(|place| locate(res, rows, place));
            if let Some(found) = found {
                row = found;
            }
        }
        let row = row.min(rows.len().saturating_sub(1));
        self.remember(row, state, rows);
        row
    }

    /// Remembers the place at `row` of `rows` and its neighbours. Rows
    /// that show nothing (a filter that matches nothing) keep the place
    /// chosen before, so clearing the filter finds it again.
    fn remember(&mut self, row: usize, state: &TopicState, rows: &Rc<Vec<Row>>) {
        let Some(res) = state.resolution() else {
            return;
        };
        let place = |k: Option<usize>| k.and_then(|k| rows.get(k)).and_then(|r| Place::of(res, r));
        let at = place(Some(row));
        if at.is_some() {
            *self = Chosen {
                topic: state.id().to_owned(),
                at,
                next: place(row.checked_add(1)),
                prev: place(row.checked_sub(1)),
                rows: Rc::downgrade(rows),
            };
        } else {
            self.rows = Rc::downgrade(rows);
        }
    }
}

/// The row of `rows` showing `place`, else the row of the collapsed
/// directory holding it (the deepest).
fn locate(res: &Resolution, rows: &[Row], place: &Place) -> Option<usize> {
    let exact = match place {
        Place::Subject(rel) => {
            let i = res.subjects().iter().position(|s| s.rel_path() == rel)?;
            rows.iter().position(|r| r.kind == RowKind::Subject(i))
        }
        Place::Dir(rel) => rows
            .iter()
            .position(|r| matches!(&r.kind, RowKind::Dir(d) if d.rel == *rel)),
    };
    exact.or_else(|| {
        let rel = place.rel();
        rows.iter()
            .enumerate()
            .filter(|(_, r)| {
                matches!(&r.kind, RowKind::Dir(d)
                    if d.collapsed && rel.strip_prefix(d.rel.as_str()).is_some_and(|rest| rest.starts_with('/')))
            })
            .max_by_key(|(_, r)| r.depth)
            .map(|(k, _)| k)
    })
}
