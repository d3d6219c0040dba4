//! Which lines of a file an edit changed (for the Config tab's
//! highlight): a longest-common-subsequence over lines.

/// For each line of `after`, whether it is new or changed relative to
/// `before`. Large files (over 4000 lines) are compared line by line.
pub fn changed_lines(before: &str, after: &str) -> Vec<bool> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    if a.len() > 4000 || b.len() > 4000 {
        return b
            .iter()
            .enumerate()
            .map(|(i, l)| a.get(i) != Some(l))
            .collect();
    }
    // lcs[i][j]: LCS length of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut changed = vec![true; b.len()];
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            changed[j] = false;
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_inserted_and_modified_lines() {
        assert_eq!(
            changed_lines("a\nb\nc\n", "a\nB\nc\nd\n"),
            [false, true, false, true]
        );
        assert_eq!(changed_lines("", "x\n"), [true]);
        assert_eq!(changed_lines("x\ny\n", "y\n"), [false]);
    }
}
