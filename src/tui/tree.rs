//! The subjects pane's tree: a topic's subjects grouped by directory
//! (as on disk, dots kept), flattened into rows given which directories
//! are collapsed, whether hidden/disabled subjects are shown, and the
//! fuzzy filter.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::matcher::SlugMatcher;
use super::usage::Order;
use jp_kb_core::subjects::{Resolution, WalkResult};

/// One row of the tree. Small (a directory's strings are boxed): a tree
/// of 100k subjects has as many rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowKind {
    Dir(Box<DirRow>),
    /// A subject: its index in the resolution.
    Subject(usize),
}

/// A directory row: its relative path (dots kept) and the slug prefix of
/// the subjects under it (what a `dir/**` pattern names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirRow {
    pub rel: String,
    pub slug_prefix: String,
    pub collapsed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub depth: usize,
    pub kind: RowKind,
}

impl Row {
    /// The last path component (not yet sanitized), borrowed from the
    /// resolution the rows were built from (a tree of 100k rows holds no
    /// copy of the names).
    pub fn name<'a>(&'a self, resolution: &'a Resolution) -> &'a str {
        let path = match &self.kind {
            RowKind::Dir(dir) => dir.rel.as_str(),
            RowKind::Subject(i) => resolution.subjects().get(*i).map_or("", |s| s.rel_path()),
        };
        path.rsplit('/').next().unwrap_or(path)
    }
}

/// A directory of the tree being built; names borrow from the subjects.
#[derive(Default)]
struct Node<'a> {
    /// Subdirectories by name, as positions in the tree's nodes.
    dirs: BTreeMap<&'a str, usize>,
    files: Vec<(&'a str, usize)>,
    /// A subject under this directory (its slug gives the slug prefix).
    first: usize,
    /// The best filter score under this directory (ranks directories).
    best: u16,
}

/// The directories of the tree being built (the root first), and the
/// path of nodes of the last directory a subject was put in: subjects
/// come in slug order, so the next one is mostly in the same directory,
/// and looking each one's directories up again was most of building the
/// rows of the tldr topic (38k subjects) for the first frame.
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    last: Option<(&'a str, Vec<usize>)>,
}

impl<'a> Tree<'a> {
    /// Puts subject `i`, named `name`, in the directory `dirs` (relative,
    /// `/`-separated; `None`: the topic's own), making directories as
    /// needed; `score` ranks the directories above it.
    fn put(&mut self, dirs: Option<&'a str>, name: &'a str, i: usize, score: u16) {
        let at = match dirs {
            None => 0,
            Some(dirs) => {
                if self.last.as_ref().is_none_or(|(last, _)| *last != dirs) {
                    let path = self.make(dirs, i);
                    self.last = Some((dirs, path));
                }
                let Tree { nodes, last } = self;
                let path = last.as_ref().map_or(&[][..], |(_, path)| path.as_slice());
                for &n in path {
                    if let Some(node) = nodes.get_mut(n) {
                        node.best = node.best.max(score);
                    }
                }
                path.last().copied().unwrap_or(0)
            }
        };
        if let Some(node) = self.nodes.get_mut(at) {
            node.files.push((name, i));
        }
    }

    /// The nodes from the root's child down to `dirs`, made as needed
    /// with `first` as the subject under them.
    fn make(&mut self, dirs: &'a str, first: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = 0;
        for part in dirs.split('/') {
            let made = self.nodes.len();
            let next = self
                .nodes
                .get_mut(at)
                .map_or(made, |node| *node.dirs.entry(part).or_insert(made));
            if next == made {
                self.nodes.push(Node {
                    first,
                    ..Node::default()
                });
            }
            path.push(next);
            at = next;
        }
        path
    }
}

/// Builds the visible rows. `collapsed` holds relative directory paths.
///
/// Runs once per change of its inputs (see [`RowsMemo`]); names are
/// borrowed while building so only the rows themselves allocate.
/// `usage`, when set, is the `U` order with each subject's loads (by
/// index): `Never` keeps the subjects never loaded, `Most` the loaded
/// ones ranked by loads (as the filter ranks by score; a filter given
/// too still selects, and usage ranks).
pub fn rows(
    resolution: &Resolution,
    collapsed: &BTreeSet<String>,
    show_hidden: bool,
    filter: &str,
    usage: Option<(Order, &[u64])>,
) -> Vec<Row> {
    let subjects = resolution.subjects();
    let mut tree = Tree {
        nodes: vec![Node::default()],
        last: None,
    };
    // Filtering ranks: each subject's score, best first within a
    // directory, directories by their best subject.
    let mut matcher = (!filter.is_empty()).then(|| SlugMatcher::new(filter));
    let most = matches!(usage, Some((Order::Most, _)));
    let ranked = matcher.is_some() || most;
    let mut scores = vec![0u16; if ranked { subjects.len() } else { 0 }];
    for (i, subject) in subjects.iter().enumerate() {
        if !show_hidden && (subject.hidden || resolution.is_disabled(i)) {
            continue;
        }
        if let Some((order, loads)) = usage {
            let n = loads.get(i).copied().unwrap_or(0);
            match order {
                Order::Never if n > 0 => continue,
                Order::Most if n == 0 => continue,
                Order::Most => scores[i] = u16::try_from(n).unwrap_or(u16::MAX),
                _ => {}
            }
        }
        if let Some(m) = matcher.as_mut() {
            match super::matcher::subject_score(m, subject.slug(), subject.rel_path()) {
                Some(score) if !most => scores[i] = score,
                Some(_) => {}
                None => continue,
            }
        }
        let score = scores.get(i).copied().unwrap_or(0);
        let rel = subject.rel_path();
        match rel.rsplit_once('/') {
            Some((dirs, name)) => tree.put(Some(dirs), name, i, score),
            None => tree.put(None, rel, i, score),
        }
    }
    let mut out = Vec::with_capacity(subjects.len() + subjects.len() / 8);
    let mut rel = String::new();
    let walk = Walk {
        resolution,
        nodes: &tree.nodes,
        collapsed,
        scores: &scores,
    };
    walk.flatten(0, &mut rel, 0, &mut out);
    // Kept until the next change: no room for rows that never come.
    out.shrink_to_fit();
    out
}

/// The first `depth + 1` components of a slug.
fn slug_prefix(slug: &str, depth: usize) -> &str {
    slug.match_indices('/')
        .nth(depth)
        .map_or(slug, |(at, _)| &slug[..at])
}

/// What flattening the tree reads.
struct Walk<'a> {
    resolution: &'a Resolution,
    nodes: &'a [Node<'a>],
    collapsed: &'a BTreeSet<String>,
    scores: &'a [u16],
}

impl Walk<'_> {
    fn flatten(&self, node: usize, rel: &mut String, depth: usize, out: &mut Vec<Row>) {
        let Some(node) = self.nodes.get(node) else {
            return;
        };
        let mut files = node.files.clone();
        files.sort_unstable();
        // Directories first, then files, each in name order; filtering,
        // the two ranked together by score (stable: equal scores keep
        // that order), so the first subject row of the tree is the best
        // match (issue 37 item 2: `getting-started.md` at the top level
        // came after every directory holding a weaker match).
        let mut entries: Vec<Entry> = node
            .dirs
            .iter()
            .map(|(name, &at)| Entry::Dir(name, at))
            .chain(files.into_iter().map(|(_, i)| Entry::File(i)))
            .collect();
        if !self.scores.is_empty() {
            entries.sort_by_key(|entry| {
                std::cmp::Reverse(match *entry {
                    Entry::Dir(_, at) => self.nodes.get(at).map_or(0, |child| child.best),
                    Entry::File(i) => self.scores[i],
                })
            });
        }
        for entry in entries {
            match entry {
                Entry::Dir(name, at) => self.dir_rows(name, at, rel, depth, out),
                Entry::File(i) => out.push(Row {
                    depth,
                    kind: RowKind::Subject(i),
                }),
            }
        }
    }

    /// The row of directory `name` (node `at`) and, unless it is
    /// collapsed, the rows under it.
    fn dir_rows(&self, name: &str, at: usize, rel: &mut String, depth: usize, out: &mut Vec<Row>) {
        let Some(child) = self.nodes.get(at) else {
            return;
        };
        let filtering = !self.scores.is_empty();
        let len = rel.len();
        if !rel.is_empty() {
            rel.push('/');
        }
        rel.push_str(name);
        let is_collapsed = !filtering && self.collapsed.contains(rel.as_str());
        let prefix = slug_prefix(self.resolution.subjects()[child.first].slug(), depth);
        out.push(Row {
            depth,
            kind: RowKind::Dir(Box::new(DirRow {
                rel: rel.clone(),
                slug_prefix: prefix.to_owned(),
                collapsed: is_collapsed,
            })),
        });
        if !is_collapsed {
            self.flatten(at, rel, depth + 1, out);
        }
        rel.truncate(len);
    }
}

/// One entry of a directory while flattening: a subdirectory (its name
/// and node) or a subject.
enum Entry<'a> {
    Dir(&'a str, usize),
    File(usize),
}

/// What the rows depend on: the walk (by identity), the `disabled` states
/// when hidden and disabled subjects are left out (a `learned` toggle
/// keeps them, shared, so it rebuilds no row), and the view settings.
#[derive(Debug, Clone)]
pub struct RowsKey {
    pub walk: Arc<WalkResult>,
    /// The `disabled` states (by identity), only when rows depend on
    /// them (`!show_hidden`).
    pub states: Option<Arc<jp_kb_core::subjects::DisabledStates>>,
    pub show_hidden: bool,
    pub filter: String,
    pub collapsed: BTreeSet<String>,
    /// The `U` order and the ledger read the loads come from, when the
    /// rows are ordered by usage.
    pub usage: Option<(Order, u64)>,
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
            && self.usage == other.usage
    }
}

/// The last rows built and what they were built from: a frame and the
/// key presses before it ask for the rows many times, and a tree of 100k
/// subjects takes tens of milliseconds to build.
pub type RowsMemo = crate::tui::memo::Memo<RowsKey, Vec<Row>>;

/// The subjects under a directory slug prefix (all of them, any state).
pub fn subjects_under(resolution: &Resolution, rel_dir: &str) -> Vec<usize> {
    let prefix = format!("{rel_dir}/");
    resolution
        .subjects()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.rel_path().starts_with(&prefix))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_kb_core::subjects::{Subject, WalkResult};

    fn resolution(paths: &[&str], disabled: &[&str]) -> Resolution {
        let subjects = paths
            .iter()
            .map(|p| {
                let parts: Vec<&str> = p.split('/').collect();
                Subject::new(
                    &jp_kb_core::subjects::slug_of(&parts),
                    p,
                    std::path::Path::new(p),
                    jp_kb_core::subjects::is_hidden_path(&parts),
                    1,
                    0,
                )
            })
            .collect();
        let (subjects, _) = jp_kb_core::internal::subjects::walk::settle_collisions(subjects);
        Resolution::new(
            WalkResult {
                subjects,
                ..WalkResult::default()
            },
            vec![],
            disabled.iter().map(|s| (*s).to_owned()).collect(),
        )
    }

    fn names(r: &Resolution, rows: &[Row]) -> Vec<String> {
        rows.iter()
            .map(|row| format!("{}{}", "  ".repeat(row.depth), row.name(r)))
            .collect()
    }

    #[test]
    fn groups_by_directory_and_collapses() {
        let r = resolution(&["b.md", "m/x.md", "m/.h.md", ".d/v.md", "a.md"], &["a"]);
        let all = rows(&r, &BTreeSet::new(), true, "", None);
        assert_eq!(
            names(&r, &all),
            [".d", "  v.md", "m", "  .h.md", "  x.md", "a.md", "b.md"]
        );
        assert_eq!(
            all[0].kind,
            RowKind::Dir(Box::new(DirRow {
                rel: ".d".into(),
                slug_prefix: "d".into(),
                collapsed: false
            }))
        );
        let collapsed: BTreeSet<String> = ["m".to_owned()].into();
        assert_eq!(
            names(&r, &rows(&r, &collapsed, true, "", None)),
            [".d", "  v.md", "m", "a.md", "b.md"]
        );
        // Hiding drops hidden paths (.d/v, m/.h) and the disabled `a`.
        assert_eq!(
            names(&r, &rows(&r, &BTreeSet::new(), false, "", None)),
            ["m", "  x.md", "b.md"]
        );
    }

    /// Slug order takes `.x/p`, `x/q`, `.x/r` in turn: a directory left
    /// and come back to is the same directory.
    #[test]
    fn a_directory_come_back_to_is_one_row() {
        let r = resolution(&[".x/p.md", "x/q.md", ".x/r.md", ".x/s/t.md"], &[]);
        assert_eq!(
            names(&r, &rows(&r, &BTreeSet::new(), true, "", None)),
            [".x", "  s", "    t.md", "  p.md", "  r.md", "x", "  q.md"]
        );
    }

    #[test]
    fn usage_keeps_the_never_loaded_or_ranks_the_most_loaded() {
        let r = resolution(&["a.md", "m/x.md", "m/y.md", "b.md"], &[]);
        // By index: a, b, m/x, m/y (slug order).
        let loads = [3, 0, 1, 9];
        let none = BTreeSet::new();
        assert_eq!(
            names(&r, &rows(&r, &none, true, "", Some((Order::Never, &loads)))),
            ["b.md"]
        );
        assert_eq!(
            names(&r, &rows(&r, &none, true, "", Some((Order::Most, &loads)))),
            ["m", "  y.md", "  x.md", "a.md"]
        );
        assert_eq!(
            names(&r, &rows(&r, &none, true, "x", Some((Order::Most, &loads)))),
            ["m", "  x.md"]
        );
    }

    #[test]
    fn fuzzy_filter_keeps_matching_slugs_and_their_dirs() {
        let r = resolution(&["m/x.md", "y.md"], &[]);
        let collapsed: BTreeSet<String> = ["m".to_owned()].into();
        assert_eq!(
            names(&r, &rows(&r, &collapsed, true, "mx", None)),
            ["m", "  x.md"]
        );
    }

    #[test]
    fn the_filter_ranks_best_matches_first_in_each_directory() {
        let r = resolution(
            &["c/pm-install-create.md", "c/tar.md", "c/x.md", "b/star.md"],
            &[],
        );
        assert_eq!(
            names(&r, &rows(&r, &BTreeSet::new(), true, "tar", None)),
            ["c", "  tar.md", "  pm-install-create.md", "b", "  star.md"]
        );
        // Unfiltered: names in order.
        assert_eq!(
            names(&r, &rows(&r, &BTreeSet::new(), true, "", None)),
            [
                "b",
                "  star.md",
                "c",
                "  pm-install-create.md",
                "  tar.md",
                "  x.md"
            ]
        );
        // Files and directories ranked together: a top-level file that
        // matches best comes before the directories (issue 37 item 2).
        let r = resolution(
            &[
                "rfd/drafts/d18-plugin-event-setting.md",
                "rfd/d01-getting-better.md",
                "getting-started.md",
                "a.md",
            ],
            &[],
        );
        let ranked = rows(&r, &BTreeSet::new(), true, "getting", None);
        assert_eq!(
            names(&r, &ranked),
            [
                "getting-started.md",
                "rfd",
                "  d01-getting-better.md",
                "  drafts",
                "    d18-plugin-event-setting.md"
            ]
        );
    }
}
