//! The subjects pane's tree: a topic's subjects grouped by directory
//! (as on disk, dots kept), flattened into rows given which directories
//! are collapsed, whether hidden/disabled subjects are shown, and the
//! fuzzy filter.

use std::collections::{BTreeMap, BTreeSet};

use crate::subjects::Resolution;

/// One row of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowKind {
    /// A directory: its relative path (dots kept) and the slug prefix of
    /// the subjects under it (what a `dir/**` pattern names).
    Dir {
        rel: String,
        slug_prefix: String,
        collapsed: bool,
    },
    /// A subject: its index in the resolution.
    Subject(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub depth: usize,
    /// The last path component (not yet sanitized).
    pub name: String,
    pub kind: RowKind,
}

#[derive(Default)]
struct Node {
    dirs: BTreeMap<String, Node>,
    files: Vec<(String, usize)>,
    slug_prefix: String,
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
pub fn rows(
    resolution: &Resolution,
    collapsed: &BTreeSet<String>,
    show_hidden: bool,
    filter: &str,
) -> Vec<Row> {
    let mut root = Node::default();
    for (i, subject) in resolution.subjects().iter().enumerate() {
        if !show_hidden && (subject.hidden || resolution.is_disabled(i)) {
            continue;
        }
        if !fuzzy_match(filter, &subject.slug) {
            continue;
        }
        let parts: Vec<&str> = subject.rel_path.split('/').collect();
        let slug_parts: Vec<&str> = subject.slug.split('/').collect();
        let mut node = &mut root;
        for (depth, part) in parts[..parts.len() - 1].iter().enumerate() {
            node = node.dirs.entry((*part).to_owned()).or_default();
            if node.slug_prefix.is_empty() {
                node.slug_prefix = slug_parts[..=depth].join("/");
            }
        }
        node.files.push((parts[parts.len() - 1].to_owned(), i));
    }
    let mut out = Vec::new();
    flatten(&root, "", 0, collapsed, !filter.is_empty(), &mut out);
    out
}

fn flatten(
    node: &Node,
    prefix: &str,
    depth: usize,
    collapsed: &BTreeSet<String>,
    filtering: bool,
    out: &mut Vec<Row>,
) {
    for (name, child) in &node.dirs {
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let is_collapsed = !filtering && collapsed.contains(&rel);
        out.push(Row {
            depth,
            name: name.clone(),
            kind: RowKind::Dir {
                rel: rel.clone(),
                slug_prefix: child.slug_prefix.clone(),
                collapsed: is_collapsed,
            },
        });
        if !is_collapsed {
            flatten(child, &rel, depth + 1, collapsed, filtering, out);
        }
    }
    let mut files = node.files.clone();
    files.sort();
    for (name, i) in files {
        out.push(Row {
            depth,
            name,
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
        .filter(|(_, s)| s.rel_path.starts_with(&prefix))
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
                Subject {
                    slug: crate::subjects::slug::slug_of(&parts),
                    rel_path: (*p).to_owned(),
                    path: p.into(),
                    hidden: crate::subjects::slug::is_hidden_path(&parts),
                    bytes: 1,
                }
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

    fn names(rows: &[Row]) -> Vec<String> {
        rows.iter()
            .map(|r| format!("{}{}", "  ".repeat(r.depth), r.name))
            .collect()
    }

    #[test]
    fn groups_by_directory_and_collapses() {
        let r = resolution(&["b.md", "m/x.md", "m/.h.md", ".d/v.md", "a.md"], &["a"]);
        let all = rows(&r, &BTreeSet::new(), true, "");
        assert_eq!(
            names(&all),
            [".d", "  v.md", "m", "  .h.md", "  x.md", "a.md", "b.md"]
        );
        assert_eq!(
            all[0].kind,
            RowKind::Dir {
                rel: ".d".into(),
                slug_prefix: "d".into(),
                collapsed: false
            }
        );
        let collapsed: BTreeSet<String> = ["m".to_owned()].into();
        assert_eq!(
            names(&rows(&r, &collapsed, true, "")),
            [".d", "  v.md", "m", "a.md", "b.md"]
        );
        // Hiding drops hidden paths (.d/v, m/.h) and the disabled `a`.
        assert_eq!(
            names(&rows(&r, &BTreeSet::new(), false, "")),
            ["m", "  x.md", "b.md"]
        );
    }

    #[test]
    fn fuzzy_filter_keeps_matching_slugs_and_their_dirs() {
        assert!(fuzzy_match("mj", "maintainers/jean"));
        assert!(!fuzzy_match("jm", "maintainers/jean"));
        let r = resolution(&["m/x.md", "y.md"], &[]);
        let collapsed: BTreeSet<String> = ["m".to_owned()].into();
        assert_eq!(names(&rows(&r, &collapsed, true, "mx")), ["m", "  x.md"]);
    }
}
