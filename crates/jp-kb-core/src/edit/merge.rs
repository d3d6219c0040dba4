//! A line-based three-way merge for the undo journal: when a file changed
//! outside jp-kb after an edit, the edit's undo (or redo) is re-applied on
//! top of the outside change if the two touch different lines. Changed
//! lines next to each other count as touching, and so do two insertions
//! at the same place, so a merge never guesses; a line only inserted next
//! to a changed one (a comment added under the edited array) merges, as
//! where it goes is not in doubt.

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

/// Whether two hunks (base line ranges) cannot both apply without a
/// guess: they share a line, both insert at one place, or both change
/// lines and meet. An insertion (empty range) at the edge of a change
/// is placed unambiguously.
fn touch(a: &Range<usize>, b: &Range<usize>) -> bool {
    let shared = a.start < b.end && b.start < a.end;
    let inserts_at_one_place = a.is_empty() && b.is_empty() && a.start == b.start;
    let changes_meet = !a.is_empty() && !b.is_empty() && a.start <= b.end && b.start <= a.end;
    let insertion_inside = (a.is_empty() && b.start < a.start && a.start < b.end)
        || (b.is_empty() && a.start < b.start && b.start < a.end);
    shared || inserts_at_one_place || changes_meet || insertion_inside
}

/// `base` with both `base → ours` and `base → theirs` applied, or `None`
/// when they change the same or adjacent lines.
#[must_use]
pub fn merge(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let mut all = hunks(base, ours);
    let other = hunks(base, theirs);
    for (a, _) in &all {
        for (b, _) in &other {
            if touch(a, b) {
                return None;
            }
        }
    }
    all.extend(other);
    // An insertion at a change's first line goes before the change.
    all.sort_by_key(|(range, _)| (range.start, range.end));
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

/// [`merge`] for a TOML file: a line merge knows lines, not TOML, so a
/// file that parsed must still parse afterwards (both sides adding the
/// same table in different places is refused, never written).
#[must_use]
pub fn merge_toml(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let merged = merge(base, ours, theirs)?;
    let parses = |text: &str| text.parse::<toml_edit::DocumentMut>().is_ok();
    (!parses(theirs) || parses(&merged)).then_some(merged)
}

#[cfg(test)]
mod tests {
    use super::{merge, merge_toml};

    #[test]
    fn a_merge_that_would_break_the_toml_is_refused() {
        let base = "a = 1\n";
        let ours = "a = 1\n[t]\nx = 1\n";
        let theirs = "[t]\ny = 1\na = 1\n";
        // Lines apart, so the line merge alone would write a second [t].
        assert!(merge(base, ours, theirs).is_some());
        assert_eq!(merge_toml(base, ours, theirs), None);
        assert_eq!(
            merge_toml(base, ours, "# top\na = 1\n").as_deref(),
            Some("# top\na = 1\n[t]\nx = 1\n")
        );
    }

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
        // A line inserted right after or before the changed one: its
        // place is not in doubt.
        assert_eq!(
            merge(base, ours, "a = 1\nb = 2\n# note\nc = 3\nd = 4\n").as_deref(),
            Some("a = 1\nb = 20\n# note\nc = 3\nd = 4\n")
        );
        assert_eq!(
            merge(base, ours, "a = 1\n# note\nb = 2\nc = 3\nd = 4\n").as_deref(),
            Some("a = 1\n# note\nb = 20\nc = 3\nd = 4\n")
        );
        // Two insertions at one place: which comes first is a guess.
        assert_eq!(
            merge(
                base,
                "a = 1\nx = 0\nb = 2\nc = 3\nd = 4\n",
                "a = 1\ny = 0\nb = 2\nc = 3\nd = 4\n"
            ),
            None
        );
        // An insertion at the end, away from the change.
        assert_eq!(
            merge(base, ours, "a = 1\nb = 2\nc = 3\nd = 4\n# note\n").as_deref(),
            Some("a = 1\nb = 20\nc = 3\nd = 4\n# note\n")
        );
    }
}
