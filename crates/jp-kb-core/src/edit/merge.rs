//! A line-based three-way merge for the undo journal: when a file changed
//! outside jp-kb after an edit, the edit's undo (or redo) is re-applied on
//! top of the outside change if the two touch different lines. Lines next
//! to each other count as touching, so a merge never guesses.

use std::ops::Range;

use similar::{DiffTag, TextDiff};

/// The changed hunks of `base` → `other`: base line ranges and the lines
/// that replace them.
fn hunks<'a>(base: &str, other: &'a str) -> Vec<(Range<usize>, Vec<&'a str>)> {
    let other_lines: Vec<&str> = other.split_inclusive('\n').collect();
    TextDiff::from_lines(base, other)
        .ops()
        .iter()
        .map(similar::DiffOp::as_tag_tuple)
        .filter(|(tag, _, _)| *tag != DiffTag::Equal)
        .map(|(_, old, new)| (old, other_lines[new].to_vec()))
        .collect()
}

/// `base` with both `base → ours` and `base → theirs` applied, or `None`
/// when they change the same or adjacent lines.
#[must_use]
pub fn merge(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let mut all = hunks(base, ours);
    let other = hunks(base, theirs);
    for (a, _) in &all {
        for (b, _) in &other {
            if a.start <= b.end && b.start <= a.end {
                return None;
            }
        }
    }
    all.extend(other);
    all.sort_by_key(|(range, _)| range.start);
    let lines: Vec<&str> = base.split_inclusive('\n').collect();
    let mut out = String::with_capacity(base.len().max(theirs.len()));
    let mut at = 0;
    for (range, replacement) in all {
        out.extend(
            lines
                .get(at..range.start)
                .unwrap_or_default()
                .iter()
                .copied(),
        );
        out.extend(replacement);
        at = range.end;
    }
    out.extend(lines.get(at..).unwrap_or_default().iter().copied());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::merge;

    #[test]
    fn separate_lines_merge_and_shared_ones_do_not() {
        let base = "a = 1\nb = 2\nc = 3\nd = 4\n";
        let ours = "a = 1\nb = 20\nc = 3\nd = 4\n";
        let theirs = "a = 1\nb = 2\nc = 3\nd = 40\n";
        assert_eq!(
            merge(base, ours, theirs).as_deref(),
            Some("a = 1\nb = 20\nc = 3\nd = 40\n")
        );
        assert_eq!(merge(base, ours, "a = 1\nb = 5\nc = 3\nd = 4\n"), None);
        // Adjacent lines count as touching.
        assert_eq!(merge(base, ours, "a = 1\nb = 2\nc = 30\nd = 4\n"), None);
        // An insertion at the end, away from the change.
        assert_eq!(
            merge(base, ours, "a = 1\nb = 2\nc = 3\nd = 4\n# note\n").as_deref(),
            Some("a = 1\nb = 20\nc = 3\nd = 4\n# note\n")
        );
    }
}
