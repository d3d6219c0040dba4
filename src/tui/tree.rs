//! The subjects pane's tree: a topic's subjects grouped by directory
//! (as on disk, dots kept), flattened into rows given which directories
//! are collapsed, whether hidden/disabled subjects are shown, and the
//! fuzzy filter.

use std::collections::{BTreeMap, BTreeSet};

use crate::subjects::Resolution;

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
    dirs: BTreeMap<&'a str, Node<'a>>,
    files: Vec<(&'a str, usize)>,
    /// A subject under this directory (its slug gives the slug prefix).
    first: usize,
}

/// True when every character of `query` appears in `text` in order
/// (case-insensitive). An empty query matches everything.
pub fn fuzzy_match(query: &str, text: &str) -> bool {
    let mut chars = text.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|q| chars.any(|c| c == q))
}

/// Builds the visible rows. `collapsed` holds relative directory paths.
///
/// Runs once per change of its inputs (see [`RowsMemo`]); names are
/// borrowed while building so only the rows themselves allocate.
pub fn rows(
    resolution: &Resolution,
    collapsed: &BTreeSet<String>,
    show_hidden: bool,
    filter: &str,
) -> Vec<Row> {
    let subjects = resolution.subjects();
    let mut root = Node::default();
    for (i, subject) in subjects.iter().enumerate() {
        if !show_hidden && (subject.hidden || resolution.is_disabled(i)) {
            continue;
        }
        if !filter.is_empty() && !fuzzy_match(filter, subject.slug()) {
            continue;
        }
        let (dirs, name) = match subject.rel_path().rsplit_once('/') {
            Some((dirs, name)) => (Some(dirs), name),
            None => (None, subject.rel_path()),
        };
        let mut node = &mut root;
        for part in dirs.into_iter().flat_map(|d| d.split('/')) {
            node = node.dirs.entry(part).or_insert_with(|| Node {
                first: i,
                ..Node::default()
            });
        }
        node.files.push((name, i));
    }
    let mut out = Vec::with_capacity(subjects.len() + subjects.len() / 8);
    let mut rel = String::new();
    flatten(
        resolution,
        &root,
        &mut rel,
        0,
        collapsed,
        !filter.is_empty(),
        &mut out,
    );
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

fn flatten(
    resolution: &Resolution,
    node: &Node,
    rel: &mut String,
    depth: usize,
    collapsed: &BTreeSet<String>,
    filtering: bool,
    out: &mut Vec<Row>,
) {
    for (name, child) in &node.dirs {
        let len = rel.len();
        if !rel.is_empty() {
            rel.push('/');
        }
        rel.push_str(name);
        let is_collapsed = !filtering && collapsed.contains(rel.as_str());
        let prefix = slug_prefix(resolution.subjects()[child.first].slug(), depth);
        out.push(Row {
            depth,
            kind: RowKind::Dir(Box::new(DirRow {
                rel: rel.clone(),
                slug_prefix: prefix.to_owned(),
                collapsed: is_collapsed,
            })),
        });
        if !is_collapsed {
            flatten(resolution, child, rel, depth + 1, collapsed, filtering, out);
        }
        rel.truncate(len);
    }
    let mut files = node.files.clone();
    files.sort_unstable();
    for (_, i) in files {
        out.push(Row {
            depth,
            kind: RowKind::Subject(i),
        });
    }
}

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
    use crate::subjects::{Subject, WalkResult};

    fn resolution(paths: &[&str], disabled: &[&str]) -> Resolution {
        let subjects = paths
            .iter()
            .map(|p| {
                let parts: Vec<&str> = p.split('/').collect();
                Subject::new(
                    &crate::subjects::slug::slug_of(&parts),
                    p,
                    std::path::Path::new(p),
                    crate::subjects::slug::is_hidden_path(&parts),
                    1,
                    0,
                )
            })
            .collect();
        let (subjects, _) = crate::subjects::walk::settle_collisions(subjects);
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
        let all = rows(&r, &BTreeSet::new(), true, "");
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
            names(&r, &rows(&r, &collapsed, true, "")),
            [".d", "  v.md", "m", "a.md", "b.md"]
        );
        // Hiding drops hidden paths (.d/v, m/.h) and the disabled `a`.
        assert_eq!(
            names(&r, &rows(&r, &BTreeSet::new(), false, "")),
            ["m", "  x.md", "b.md"]
        );
    }

    #[test]
    fn fuzzy_filter_keeps_matching_slugs_and_their_dirs() {
        assert!(fuzzy_match("mj", "maintainers/jean"));
        assert!(!fuzzy_match("jm", "maintainers/jean"));
        let r = resolution(&["m/x.md", "y.md"], &[]);
        let collapsed: BTreeSet<String> = ["m".to_owned()].into();
        assert_eq!(
            names(&r, &rows(&r, &collapsed, true, "mx")),
            ["m", "  x.md"]
        );
    }
}
