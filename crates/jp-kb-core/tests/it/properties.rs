#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Property tests: slug computation and pattern resolution never panic,
//! resolution only returns walked subjects, and no glob returns a hidden
//! subject.

use std::path::PathBuf;

use jp_kb_core::internal::subjects::slug::{
    dotted_slug, is_hidden_path, is_hidden_rel, slug_of, slug_of_rel,
};
use jp_kb_core::internal::subjects::walk::settle_collisions;
use jp_kb_core::internal::subjects::{
    LearnedBy, PatternList, Resolution, Subject, WalkResult, WatchedWalks, is_glob, walk_subjects,
};
use jp_kb_core::internal::tokens::{TokenTally, count_tokens};
use proptest::prelude::*;

fn component() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}(\\.[a-z]{1,3})?",
        "\\.[a-z]{1,5}(\\.md)?",
        "\\.\\.?(md|txt)?",
        "[\\[\\]{}*?!$ a-z.]{1,5}",
        "\\PC{1,4}",
    ]
    .prop_filter("valid file name", |c| {
        c != "." && c != ".." && !c.contains('/') && !c.is_empty()
    })
}

fn rel_path() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(component(), 1..5)
}

fn pattern() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("**".to_owned()),
        Just("*".to_owned()),
        "[a-z]{1,3}/\\*",
        "[a-z]{1,3}/\\*\\*",
        "[a-z.*?\\[\\]{},/]{1,8}",
        "\\PC{0,6}",
    ]
}

fn subjects_of(paths: &[Vec<String>]) -> Vec<Subject> {
    let found = paths
        .iter()
        .map(|parts| {
            let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
            Subject::new(
                &slug_of(&refs),
                &refs.join("/"),
                &PathBuf::from("/nonexistent").join(refs.join("/")),
                is_hidden_path(&refs),
                0,
                0,
            )
        })
        .collect();
    settle_collisions(found).0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn slug_keeps_components_and_never_is_empty(parts in rel_path()) {
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        let slug = slug_of(&refs);
        prop_assert_eq!(slug.split('/').count(), parts.len());
        for piece in slug.split('/') {
            prop_assert!(!piece.is_empty(), "empty component in {slug:?} from {parts:?}");
        }
        prop_assert_eq!(is_hidden_path(&refs), refs.iter().any(|c| c.starts_with('.')));
        // The walk's fast path computes the same from the joined string.
        let joined = refs.join("/");
        prop_assert_eq!(slug_of_rel(&joined), slug.clone());
        prop_assert_eq!(is_hidden_rel(&joined), is_hidden_path(&refs));
    }

    #[test]
    fn resolution_is_a_subset_and_globs_skip_hidden(
        paths in prop::collection::vec(rel_path(), 0..30),
        learned in prop::collection::vec(pattern(), 0..4),
        disabled in prop::collection::vec(pattern(), 0..3),
        asked in prop::collection::vec(pattern(), 1..4),
    ) {
        let subjects = subjects_of(&paths);
        let walk = WalkResult { subjects: subjects.clone(), ..WalkResult::default() };
        let r = Resolution::new(walk, learned.clone(), disabled);
        for &i in &r.learned_order {
            prop_assert!(i < subjects.len());
            prop_assert!(!r.is_disabled(i), "disabled beats learned");
            let by = r.learned_by.get(i).unwrap();
            if subjects[i].hidden {
                // Only an exact selection reaches a hidden subject.
                let p = &learned[by.pattern];
                let s = &subjects[i];
                prop_assert!(p == s.slug() || p == s.rel_path() || p == dotted_slug(s.rel_path()),
                    "hidden {:?} learned by {:?}", s.rel_path(), p);
            }
        }
        let list = PatternList::new(&asked);
        let picked = list.resolve(&subjects, &|i| !r.is_disabled(i));
        let mut seen = std::collections::HashSet::new();
        for (i, p) in picked {
            prop_assert!(i < subjects.len());
            prop_assert!(seen.insert(i), "duplicate in resolution");
            prop_assert!(!r.is_disabled(i));
            if subjects[i].hidden {
                prop_assert!(!is_glob(&asked[p]) || asked[p] == subjects[i].slug()
                    || asked[p] == subjects[i].rel_path()
                    || asked[p] == dotted_slug(subjects[i].rel_path()),
                    "glob {:?} selected hidden {:?}", asked[p], subjects[i].rel_path());
            }
        }
    }

    #[test]
    fn resolution_matches_the_pattern_list_reference(
        paths in prop::collection::vec(rel_path(), 0..30),
        learned in prop::collection::vec(pick(), 0..5),
        disabled in prop::collection::vec(pick(), 0..4),
    ) {
        let subjects = subjects_of(&paths);
        let learned = picked(&subjects, &learned);
        let disabled = picked(&subjects, &disabled);
        let walk = WalkResult { subjects, ..WalkResult::default() };
        let r = Resolution::new(walk, learned.clone(), disabled.clone());
        let expected = reference(r.subjects(), &learned, &disabled);
        prop_assert_eq!(states(&r), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The TUI's kept walks resolve a sequence of list changes (glob
    /// matches and `disabled` states reused between them) exactly as the
    /// pattern lists do from scratch.
    #[test]
    fn watched_resolutions_match_the_reference_over_a_sequence_of_edits(
        paths in prop::collection::vec(rel_path(), 1..25),
        steps in prop::collection::vec(
            (prop::collection::vec(pick(), 0..5), prop::collection::vec(pick(), 0..3)),
            1..8,
        ),
    ) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        std::fs::create_dir_all(&dir).expect("mkdir");
        for parts in &paths {
            let path = parts.iter().fold(dir.clone(), |p, c| p.join(c));
            // A name used both as a file and a directory: the first wins.
            if let Some(parent) = path.parent()
                && std::fs::create_dir_all(parent).is_ok()
            {
                let _ = std::fs::write(&path, "x");
            }
        }
        let walks = WatchedWalks::new();
        let subjects = walks.walk(&dir, &root).subjects.clone();
        let first_disabled = &steps[0].1;
        let mut disabled = picked(&subjects, first_disabled);
        for (i, (learned, next_disabled)) in steps.iter().enumerate() {
            let learned = picked(&subjects, learned);
            // Every other step keeps `disabled` (its states are shared).
            if i % 2 == 1 {
                disabled = picked(&subjects, next_disabled);
            }
            let r = walks.resolve(&dir, &root, learned.clone(), disabled.clone());
            let expected = reference(&subjects, &learned, &disabled);
            prop_assert_eq!(states(&r), expected, "step {} ({:?} / {:?})", i, learned, disabled);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Counting the `<knowledge>` section one subject at a time gives the
    /// count of the whole, whatever the subjects hold.
    #[test]
    fn a_token_tally_in_parts_counts_what_the_whole_counts(
        parts in prop::collection::vec("[\\PC\\s/<>`*'!\\-]{0,40}", 1..6),
        newline_first in prop::collection::vec(any::<bool>(), 6),
    ) {
        let parts: Vec<String> = parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if newline_first[i] { format!("<{p}\n") } else { p.clone() }
            })
            .collect();
        let mut tally = TokenTally::new();
        for p in &parts {
            tally.push(p);
        }
        prop_assert_eq!(Some(tally.total()), count_tokens(&parts.concat()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The TUI's walks, patched from reported file changes (or walked
    /// again when a patch cannot tell), are always the walk of the tree
    /// as it is.
    #[test]
    fn walks_patched_from_reported_changes_equal_fresh_walks(
        ops in prop::collection::vec((0..4u8, 0..12usize, 0..40usize), 1..25),
    ) {
        const NAMES: [&str; 12] = [
            "a.md", "b.txt", ".h.md", "d/a.md", "d/c.md", "d/.x.md",
            "d/e/f.md", ".g/k.md", "a.txt", "d/e/a.md", "z", "d/c.txt",
        ];
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let dir = root.join("t");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let walks = WatchedWalks::new();
        let _ = walks.walk(&dir, &root);
        for (op, name, len) in ops {
            let path = dir.join(NAMES[name]);
            let reported = match op {
                // Write (create or change), as an editor saves.
                0 | 1 => {
                    if let Some(parent) = path.parent() {
                        std::fs::create_dir_all(parent).expect("mkdir");
                    }
                    std::fs::write(&path, "x".repeat(len)).expect("write");
                    path
                }
                2 => {
                    let _ = std::fs::remove_file(&path);
                    path
                }
                // A whole directory removed.
                _ => {
                    let sub = path.parent().unwrap_or(&dir).to_path_buf();
                    if sub == dir {
                        continue;
                    }
                    let _ = std::fs::remove_dir_all(&sub);
                    sub
                }
            };
            walks.invalidate(std::slice::from_ref(&reported));
            let kept = walks.walk(&dir, &root);
            let fresh = walk_subjects(&dir, &root);
            prop_assert_eq!(&kept.subjects, &fresh.subjects, "after {:?}", reported);
            prop_assert_eq!(&kept.collisions, &fresh.collisions);
        }
    }
}

/// A pattern: a random one, or (by index) one naming a walked subject
/// exactly (slug, relative path, dotted slug) or its directory as a glob.
#[derive(Debug, Clone)]
enum Pick {
    Random(String),
    Subject(usize, u8),
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        pattern().prop_map(Pick::Random),
        (any::<usize>(), 0..5u8).prop_map(|(i, how)| Pick::Subject(i, how)),
    ]
}

fn picked(subjects: &[Subject], picks: &[Pick]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in picks {
        let pattern = match p {
            Pick::Random(p) => p.clone(),
            Pick::Subject(_, _) if subjects.is_empty() => "**".to_owned(),
            Pick::Subject(i, how) => {
                let s = &subjects[i % subjects.len()];
                let dir = s.slug().rsplit_once('/').map_or("", |(d, _)| d);
                match how {
                    0 => s.slug().to_owned(),
                    1 => s.rel_path().to_owned(),
                    2 => dotted_slug(s.rel_path()).to_owned(),
                    3 if !dir.is_empty() => format!("{dir}/*"),
                    _ => format!("{dir}**"),
                }
            }
        };
        // The lists reach the resolver without duplicates.
        if !out.contains(&pattern) {
            out.push(pattern);
        }
    }
    out
}

type States = (Vec<Option<usize>>, Vec<Option<LearnedBy>>, Vec<usize>);

fn states(r: &Resolution) -> States {
    let n = r.subjects().len();
    assert_eq!((r.disabled_by.len(), r.learned_by.len()), (n, n));
    (
        (0..n).map(|i| r.disabled_by.get(i)).collect(),
        (0..n).map(|i| r.learned_by.get(i)).collect(),
        r.learned_order.clone(),
    )
}

/// The states as the pattern lists compute them (the `learn` tool's
/// path): `disabled` by first match, `learned` by resolution order.
fn reference(subjects: &[Subject], learned: &[String], disabled: &[String]) -> States {
    let disabled_by = PatternList::new(disabled).first_match_any(subjects);
    let list = PatternList::new(learned);
    let mut learned_by = vec![None; subjects.len()];
    let mut order = Vec::new();
    for (i, p) in list.resolve(subjects, &|i| disabled_by[i].is_none()) {
        let glob = list.is_glob(p) && learned[p] != subjects[i].slug();
        learned_by[i] = Some(LearnedBy { pattern: p, glob });
        order.push(i);
    }
    (disabled_by, learned_by, order)
}
