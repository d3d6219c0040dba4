#![allow(clippy::expect_used, clippy::unwrap_used)]
//! How a subject's name ranks it: the directories of its slug place it
//! but do not name it, a name that ends with a query word (`lscpu` for
//! "cpu") is found by that word, and a subcommand written in code
//! (`` `git log` ``) is a mention of the page named for it (`git-log`).

use super::common;

use std::path::{Path, PathBuf};

use jp_kb_core::internal::search::{SearchRequest, Searcher};

/// A workspace with one topic `pages` holding `files`.
fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".jp")).unwrap();
    std::fs::write(
        root.join(".jp/config.toml"),
        "[kb.topic.pages]\nsubjects = \"pages\"\n",
    )
    .unwrap();
    for (path, text) in files {
        let path = root.join("pages").join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    (dir, root)
}

/// The slugs `query` finds, best first.
fn ranked(root: &Path, query: &str) -> Vec<String> {
    let kb = common::load_kb(root);
    let request = SearchRequest {
        query,
        topic: None,
        limit: 10,
        hidden: false,
    };
    Searcher::memory()
        .search(&kb, &request)
        .unwrap()
        .hits
        .into_iter()
        .map(|h| h.slug)
        .collect()
}

#[test]
fn a_directory_of_the_slug_does_not_name_the_subject() {
    // "free" begins `freebsd`: as a name, it made every FreeBSD page a
    // name match for "free", above the page that says "free".
    let (_dir, root) = workspace(&[
        ("freebsd/df.md", "# df\n\n> Disk usage.\n"),
        ("linux/df.md", "# df\n\n> Disk usage, with free blocks.\n"),
    ]);
    assert_eq!(ranked(&root, "free disk"), ["linux/df", "freebsd/df"]);
    // The directory is still a word of the subject.
    assert_eq!(ranked(&root, "freebsd"), ["freebsd/df"]);
}

#[test]
fn a_name_that_ends_with_a_query_word_is_found_by_it() {
    let (_dir, root) = workspace(&[
        (
            "lscpu.md",
            "# lscpu\n\n> Display information about the processors.\n",
        ),
        ("top.md", "# top\n\n> Display processes.\n"),
    ]);
    assert_eq!(ranked(&root, "cpu"), ["lscpu"]);
    // Not the name itself: `top` is not found by "op".
    assert!(ranked(&root, "op").is_empty());
}

#[test]
fn a_subcommand_in_code_is_a_mention_of_its_page() {
    // Alike but for one more word of the query in `git-shortlog`; six
    // pages mention `git log` in code, none `git shortlog`.
    let mut files = vec![
        (
            "git-log.md".to_owned(),
            "# git-log\n\n> Show the history.\n".to_owned(),
        ),
        (
            "git-shortlog.md".to_owned(),
            "# git-shortlog\n\n> Show the history, history.\n".to_owned(),
        ),
    ];
    for name in ["a", "b", "c", "d", "e", "f"] {
        let text = format!("# {name}\n\n> Other.\n\n- See:\n\n`git log --oneline`\n");
        files.push((format!("{name}.md"), text));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let (_dir, root) = workspace(&borrowed);
    assert_eq!(ranked(&root, "history"), ["git-log", "git-shortlog"]);
}
