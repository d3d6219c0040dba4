#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Property tests: slug computation and pattern resolution never panic,
//! resolution only returns walked subjects, and no glob returns a hidden
//! subject.

use std::path::PathBuf;

use jp_kb::subjects::slug::{dotted_slug, is_hidden_path, is_hidden_rel, slug_of, slug_of_rel};
use jp_kb::subjects::walk::settle_collisions;
use jp_kb::subjects::{PatternList, Resolution, Subject, WalkResult, is_glob};
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
            Subject {
                slug: slug_of(&refs),
                rel_path: refs.join("/"),
                path: PathBuf::from("/nonexistent").join(refs.join("/")),
                hidden: is_hidden_path(&refs),
                bytes: 0,
            }
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
            let by = r.learned_by[i].unwrap();
            if subjects[i].hidden {
                // Only an exact selection reaches a hidden subject.
                let p = &learned[by.pattern];
                let s = &subjects[i];
                prop_assert!(p == &s.slug || p == &s.rel_path || p == dotted_slug(&s.rel_path),
                    "hidden {:?} learned by {:?}", s.rel_path, p);
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
                prop_assert!(!is_glob(&asked[p]) || asked[p] == subjects[i].slug
                    || asked[p] == subjects[i].rel_path
                    || asked[p] == dotted_slug(&subjects[i].rel_path),
                    "glob {:?} selected hidden {:?}", asked[p], subjects[i].rel_path);
            }
        }
    }
}
