#![allow(clippy::expect_used, clippy::unwrap_used)]
//! How a subject's name ranks it: the directories of its slug place it
//! but do not name it, a name that ends with a query word (`lscpu` for
//! "cpu") is found by that word, and a subcommand written in code
//! (`` `git log` ``) is a mention of the page named for it (`git-log`).

use super::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use jp_kb_core::search::{SearchRequest, Searcher};

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

/// A page of `words` words about providers, as a long RFD is: the word
/// in passing many times, and with `code`, `ProviderId` in code too (a
/// rare word that begins with the query's last word).
fn long_page(title: &str, words: usize, code: bool) -> String {
    let mut text = format!("# {title}\n\nThis proposal changes how events are stored.\n\n");
    for i in 0..words / 20 {
        let id = if code { "`ProviderId`" } else { "name" };
        let _ = writeln!(
            text,
            "Each provider returns a stream; the provider {i} keeps its {id} and the events \
             of the turn in order, and nothing else changes for them here."
        );
    }
    text
}

/// Issue 37 item 3: the subject named by the word (its slug, its title)
/// ranks above long pages that use the word in passing, however often,
/// and above pages holding rarer words that begin with it.
#[test]
fn the_subject_named_by_the_word_ranks_above_passing_mentions() {
    let mut files = vec![
        (
            "README/providers.md".to_owned(),
            "# Provider-Agnostic\n\nJP works with any LLM provider.\nSwitch between cloud \
             and local models with a single flag.\n"
                .to_owned(),
        ),
        (
            "rfd/041-reranker.md".to_owned(),
            long_page("RFD 041: Reranker Infrastructure", 3000, true),
        ),
        (
            "rfd/034-inquiry.md".to_owned(),
            long_page(
                "RFD 034: Inquiry-Specific Assistant Configuration",
                2500,
                true,
            ),
        ),
        (
            "rfd/045-elelem.md".to_owned(),
            long_page(
                "RFD 045: Elelem, a standalone LLM provider crate",
                2000,
                false,
            ),
        ),
        (
            "rfd/001-process.md".to_owned(),
            long_page("RFD 001: The Process", 4000, false),
        ),
    ];
    // Most pages of a knowledge base do not mention providers.
    for n in 0..20 {
        files.push((
            format!("rfd/{:03}-other.md", 100 + n),
            format!("# RFD {n}: Other\n\nAbout conversations, tools and turns.\n"),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let (_dir, root) = workspace(&files);
    for query in ["provider", "providers", "Provider "] {
        assert_eq!(
            ranked(&root, query).first().map(String::as_str),
            Some("README/providers"),
            "{query}"
        );
    }
}

/// A name made of the query's words ranks above a longer name that holds
/// them too, and both above a page that only mentions them.
#[test]
fn a_name_made_of_the_query_words_ranks_above_a_longer_one() {
    let mut files = vec![
        (
            "036-conversation-compaction.md".to_owned(),
            "# RFD 036: Conversation Compaction\n\nShrink a long chat.\n".to_owned(),
        ),
        (
            "064-non-destructive-conversation-compaction.md".to_owned(),
            "# RFD 064: Non-Destructive Conversation Compaction\n\nKeep the original.\n".to_owned(),
        ),
        (
            "020-parallel-conversations.md".to_owned(),
            format!(
                "# RFD 020: Parallel Conversations\n\n{}",
                "A conversation may need compaction when it grows long.\n".repeat(40)
            ),
        ),
    ];
    for n in 0..20 {
        files.push((
            format!("{:03}-other.md", 100 + n),
            format!("# RFD {n}: Other\n\nAbout tools and turns.\n"),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let (_dir, root) = workspace(&files);
    assert_eq!(
        ranked(&root, "conversation compaction")[..3],
        [
            "036-conversation-compaction",
            "064-non-destructive-conversation-compaction",
            "020-parallel-conversations"
        ]
    );
}
