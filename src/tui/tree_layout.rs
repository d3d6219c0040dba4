//! The subjects pane's rows without building a tree per key press: the
//! whole tree of a walk (every subject and directory, nothing collapsed)
//! is laid out once, and the rows for a filter, the hidden setting and
//! the collapsed directories are one pass over that layout. The filter's
//! matches are kept, so a query that grows by a character tests only the
//! subjects the shorter query matched (issue 16: typing in the filter at
//! 45k subjects cost 30–35 ms a character, most of it building the tree).
//!
//! The result is the same as [`tree::rows`](super::tree::rows), which
//! stays the reference (a property test compares them).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;

use super::tree::{DirRow, Row, RowKind, fuzzy_match, rows};
use crate::subjects::{Resolution, WalkResult};

/// Marks a directory in [`Layout::entries`].
const DIR: u32 = 1 << 31;

/// A directory of the layout.
#[derive(Debug)]
struct Dir {
    row: DirRow,
    depth: usize,
    /// The entry after the last one under this directory.
    end: usize,
}

/// Every row of a walk's whole tree, in order; 4 bytes a subject.
#[derive(Debug, Default)]
pub struct Layout {
    /// A subject's index, or `DIR |` a directory's index in `dirs`.
    entries: Vec<u32>,
    dirs: Vec<Dir>,
}

impl Layout {
    /// The layout of `full`: the rows of a whole tree (every subject
    /// shown, no filter, nothing collapsed).
    pub fn from_rows(full: &[Row]) -> Self {
        let mut layout = Self {
            entries: Vec::with_capacity(full.len()),
            dirs: Vec::new(),
        };
        // Directories still open, innermost last.
        let mut open: Vec<usize> = Vec::new();
        for (k, row) in full.iter().enumerate() {
            while let Some(&d) = open.last()
                && layout.dirs[d].depth >= row.depth
            {
                layout.dirs[d].end = k;
                open.pop();
            }
            match &row.kind {
                RowKind::Subject(i) => {
                    layout.entries.push(u32::try_from(*i).unwrap_or(u32::MAX));
                }
                RowKind::Dir(dir) => {
                    let d = layout.dirs.len();
                    layout.entries.push(DIR | u32::try_from(d).unwrap_or(0));
                    layout.dirs.push(Dir {
                        row: DirRow {
                            collapsed: false,
                            ..(**dir).clone()
                        },
                        depth: row.depth,
                        end: full.len(),
                    });
                    open.push(d);
                }
            }
        }
        layout
    }

    /// The rows showing the subjects for which `shown` holds (and the
    /// directories above them), directories in `collapsed` (relative
    /// paths) closed unless `filtering`.
    pub fn rows(
        &self,
        shown: impl Fn(usize) -> bool,
        collapsed: &BTreeSet<String>,
        filtering: bool,
    ) -> Vec<Row> {
        let mut out = Vec::new();
        // Directories above entry `k`, and whether their row is out yet.
        let mut above: Vec<(usize, bool)> = Vec::new();
        let mut k = 0;
        while let Some(&entry) = self.entries.get(k) {
            while above.last().is_some_and(|&(d, _)| self.dirs[d].end <= k) {
                above.pop();
            }
            if entry & DIR == 0 {
                let i = entry as usize;
                if shown(i) {
                    self.open_above(&mut above, &mut out);
                    out.push(Row {
                        depth: above.len(),
                        kind: RowKind::Subject(i),
                    });
                }
                k += 1;
                continue;
            }
            let d = (entry & !DIR) as usize;
            let dir = &self.dirs[d];
            if !filtering && !collapsed.is_empty() && collapsed.contains(&dir.row.rel) {
                // Shown closed when anything under it is shown.
                let under = self.entries.get(k + 1..dir.end).unwrap_or_default();
                if under.iter().any(|&e| e & DIR == 0 && shown(e as usize)) {
                    self.open_above(&mut above, &mut out);
                    out.push(Row {
                        depth: dir.depth,
                        kind: RowKind::Dir(Box::new(DirRow {
                            collapsed: true,
                            ..dir.row.clone()
                        })),
                    });
                }
                k = dir.end;
            } else {
                above.push((d, false));
                k += 1;
            }
        }
        out.shrink_to_fit();
        out
    }

    /// Puts out the rows of the directories above that are not out yet.
    fn open_above(&self, above: &mut [(usize, bool)], out: &mut Vec<Row>) {
        for (d, done) in above.iter_mut().filter(|(_, done)| !*done) {
            let dir = &self.dirs[*d];
            out.push(Row {
                depth: dir.depth,
                kind: RowKind::Dir(Box::new(dir.row.clone())),
            });
            *done = true;
        }
    }
}

/// The subjects a filter query matched (indices into the resolution, in
/// order), kept for the next query.
#[derive(Debug, Default)]
pub struct Matches {
    pub query: String,
    pub hits: Vec<u32>,
}

impl Matches {
    /// The matches of `query` among the subjects of `resolution`, narrowed
    /// from `previous` (the matches of an earlier query of the same walk)
    /// when `query` extends it: a text the longer query matches, the
    /// shorter one matches too (the matcher looks for the query's
    /// characters in order).
    pub fn of(resolution: &Resolution, query: &str, previous: Option<&Matches>) -> Self {
        let subjects = resolution.subjects();
        let matches = |i: usize| {
            subjects
                .get(i)
                .is_some_and(|s| fuzzy_match(query, s.slug()))
        };
        let hits = match previous.filter(|p| !p.query.is_empty() && query.starts_with(&p.query)) {
            Some(previous) => previous
                .hits
                .iter()
                .copied()
                .filter(|&i| matches(i as usize))
                .collect(),
            None => (0..subjects.len())
                .filter(|&i| matches(i))
                .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
                .collect(),
        };
        Self {
            query: query.to_owned(),
            hits,
        }
    }

    /// Whether subject `i` matched, as a table (one lookup a subject).
    pub fn table(&self, subjects: usize) -> Vec<bool> {
        let mut table = vec![false; subjects];
        for &i in &self.hits {
            if let Some(t) = table.get_mut(i as usize) {
                *t = true;
            }
        }
        table
    }
}

/// What the rows depend on: the walk (by identity), the `disabled` states
/// when hidden and disabled subjects are left out (a `learned` toggle
/// keeps them, shared, so it rebuilds no row), and the view settings.
#[derive(Debug, Clone)]
pub struct RowsKey {
    pub walk: Arc<WalkResult>,
    /// The `disabled` states (by identity), only when rows depend on
    /// them (`!show_hidden`).
    pub states: Option<Arc<crate::subjects::DisabledStates>>,
    pub show_hidden: bool,
    pub filter: String,
    pub collapsed: BTreeSet<String>,
}

impl PartialEq for RowsKey {
    fn eq(&self, other: &Self) -> bool {
        let states = match (&self.states, &other.states) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        Arc::ptr_eq(&self.walk, &other.walk)
            && states
            && self.show_hidden == other.show_hidden
            && self.filter == other.filter
            && self.collapsed == other.collapsed
    }
}

/// The last rows built and what they were built from: a frame and the
/// key presses before it ask for the rows many times, and a tree of 100k
/// subjects takes tens of milliseconds to build. With them, the layout of
/// the walk's whole tree and the last filter's matches, from which the
/// rows for another filter or setting are one pass (see
/// [`Layout`]). A cache, not state: it never
/// changes what `rows` returns.
#[derive(Debug, Default)]
pub struct RowsMemo {
    last: RefCell<Option<(RowsKey, Rc<Vec<Row>>)>>,
    layout: RefCell<Option<(Arc<WalkResult>, Rc<Layout>)>>,
    matches: RefCell<Option<(Arc<WalkResult>, Rc<Matches>)>>,
}

impl RowsMemo {
    /// The rows for `key`, built with `build` unless they are kept.
    pub fn get(&self, key: RowsKey, build: impl FnOnce() -> Vec<Row>) -> Rc<Vec<Row>> {
        if let Some((k, rows)) = &*self.last.borrow()
            && *k == key
        {
            return Rc::clone(rows);
        }
        let rows = Rc::new(build());
        *self.last.borrow_mut() = Some((key, Rc::clone(&rows)));
        rows
    }

    /// The rows for `key` of `resolution` (whose walk is `key.walk`):
    /// what [`rows`] returns, from the walk's layout.
    pub fn rows(&self, key: &RowsKey, resolution: &Resolution) -> Rc<Vec<Row>> {
        self.get(key.clone(), || {
            let everything = key.show_hidden && key.filter.is_empty() && key.collapsed.is_empty();
            let (layout, full) = self.layout_of(&key.walk, resolution);
            if let Some(full) = full.filter(|_| everything) {
                return full;
            }
            let filtering = !key.filter.is_empty();
            let matched = filtering.then(|| {
                let matches = self.matches_of(&key.walk, resolution, &key.filter);
                matches.table(resolution.subjects().len())
            });
            let subjects = resolution.subjects();
            let shown = |i: usize| {
                matched
                    .as_ref()
                    .is_none_or(|m| m.get(i).copied().unwrap_or(false))
                    && (key.show_hidden
                        || !(subjects.get(i).is_some_and(|s| s.hidden)
                            || resolution.is_disabled(i)))
            };
            layout.rows(shown, &key.collapsed, filtering)
        })
    }

    /// The layout of `walk`, and the whole tree's rows when they were
    /// just built for it.
    fn layout_of(
        &self,
        walk: &Arc<WalkResult>,
        resolution: &Resolution,
    ) -> (Rc<Layout>, Option<Vec<Row>>) {
        if let Some((w, layout)) = &*self.layout.borrow()
            && Arc::ptr_eq(w, walk)
        {
            return (Rc::clone(layout), None);
        }
        let full = rows(resolution, &BTreeSet::new(), true, "");
        let layout = Rc::new(Layout::from_rows(&full));
        *self.layout.borrow_mut() = Some((Arc::clone(walk), Rc::clone(&layout)));
        (layout, Some(full))
    }

    fn matches_of(
        &self,
        walk: &Arc<WalkResult>,
        resolution: &Resolution,
        query: &str,
    ) -> Rc<Matches> {
        let previous = self
            .matches
            .borrow()
            .as_ref()
            .filter(|(w, _)| Arc::ptr_eq(w, walk))
            .map(|(_, m)| Rc::clone(m));
        if let Some(m) = previous.as_ref().filter(|m| m.query == query) {
            return Rc::clone(m);
        }
        let matches = Rc::new(Matches::of(resolution, query, previous.as_deref()));
        *self.matches.borrow_mut() = Some((Arc::clone(walk), Rc::clone(&matches)));
        matches
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::super::tree::rows;
    use super::{RowsKey, RowsMemo};
    use crate::subjects::slug::{is_hidden_rel, slug_of_rel};
    use crate::subjects::walk::settle_collisions;
    use crate::subjects::{Resolution, Subject, WalkResult};

    fn resolution(paths: &[String], disabled: Vec<String>) -> Resolution {
        let found = paths
            .iter()
            .map(|p| {
                Subject::new(
                    &slug_of_rel(p),
                    p,
                    std::path::Path::new(p),
                    is_hidden_rel(p),
                    1,
                    0,
                )
            })
            .collect();
        let (subjects, collisions) = settle_collisions(found);
        let walk = WalkResult {
            subjects,
            collisions,
            warnings: Vec::new(),
        };
        Resolution::new(walk, Vec::new(), disabled)
    }

    fn path() -> impl Strategy<Value = String> {
        prop::collection::vec("\\.?[a-d]{1,2}", 1..4).prop_map(|parts| parts.join("/") + ".md")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The rows from the layout are the rows of a tree built from
        /// scratch, for every setting and a sequence of queries typed,
        /// extended, cut and replaced.
        #[test]
        fn rows_from_the_layout_are_the_tree_rows(
            paths in prop::collection::vec(path(), 1..40),
            disabled in prop::collection::vec("[a-d]{1,2}(/[a-d]{1,2})?", 0..4),
            collapsed in prop::collection::btree_set("\\.?[a-d]{1,2}(/\\.?[a-d]{1,2})?", 0..4),
            show_hidden in any::<bool>(),
            queries in prop::collection::vec("[a-d/.]{0,4}", 1..6),
        ) {
            let res = resolution(&paths, disabled);
            let memo = RowsMemo::default();
            for query in queries.iter().flat_map(|q| {
                // Each query typed one character at a time.
                (0..=q.len()).map(move |n| q[..n].to_owned())
            }) {
                let key = RowsKey {
                    walk: Arc::clone(&res.walk),
                    states: None,
                    show_hidden,
                    filter: query.clone(),
                    collapsed: collapsed.clone(),
                };
                let fast = memo.rows(&key, &res);
                let reference = rows(&res, &collapsed, show_hidden, &query);
                prop_assert_eq!(&*fast, &reference, "query {:?}", query);
            }
        }
    }
}
