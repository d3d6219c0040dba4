#![allow(clippy::expect_used, clippy::unwrap_used)]
//! An index kept open between searches (the MCP server, the TUI) skips
//! comparing every file when it is given the same walk again, and never
//! misses a change when given a new one: a file edited, one renamed with
//! its size and time kept (as `mv` does), one added, one disabled.

use super::common;

use std::fs::{File, FileTimes};
use std::path::Path;
use std::time::{Duration, SystemTime};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::search::{Hit, SearchRequest, Searcher};

fn slugs(searcher: &mut Searcher, kb: &KnowledgeBase, query: &str) -> Vec<String> {
    hits(searcher, kb, query)
        .into_iter()
        .map(|h| h.slug)
        .collect()
}

/// The hits for `query` in any topic, hidden ones too, by slug.
fn hits(searcher: &mut Searcher, kb: &KnowledgeBase, query: &str) -> Vec<Hit> {
    let request = SearchRequest {
        query,
        topic: None,
        limit: 10,
        hidden: true,
    };
    let mut out = searcher.search(kb, &request).unwrap().hits;
    out.sort_by(|a, b| a.slug.cmp(&b.slug));
    out
}

fn write_with_time(path: &Path, text: &str, seconds_ago: u64) {
    std::fs::write(path, text).unwrap();
    let time = SystemTime::now() - Duration::from_secs(seconds_ago);
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_times(FileTimes::new().set_modified(time))
        .unwrap();
}

#[test]
fn the_same_walk_is_not_compared_again_and_every_change_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".jp")).unwrap();
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::write(
        root.join(".jp/config.toml"),
        "[kb.topic.notes]\nsubjects = \"notes\"\n",
    )
    .unwrap();
    write_with_time(&root.join("notes/tar.md"), "# tar\n\narchive files\n", 600);
    write_with_time(&root.join("notes/zip.md"), "# zip\n\npackage files\n", 600);

    let mut searcher = Searcher::memory();
    let kb = common::load_kb(&root);
    assert_eq!(searcher.refresh(&kb), 2);
    assert_eq!(searcher.refresh(&kb), 0, "the same walk: nothing compared");
    assert_eq!(slugs(&mut searcher, &kb, "archive"), ["tar"]);

    // Edited: a new size and time.
    write_with_time(&root.join("notes/zip.md"), "# zip\n\narchive too\n", 300);
    let kb = common::load_kb(&root);
    assert_eq!(searcher.refresh(&kb), 1);
    assert_eq!(slugs(&mut searcher, &kb, "archive"), ["tar", "zip"]);

    // Renamed with its size and time kept: only the path tells.
    std::fs::rename(root.join("notes/tar.md"), root.join("notes/gnu-tar.md")).unwrap();
    let kb = common::load_kb(&root);
    assert_eq!(slugs(&mut searcher, &kb, "archive"), ["gnu-tar", "zip"]);

    // Disabled: no longer indexed, though no file changed.
    std::fs::write(
        root.join(".jp/config.toml"),
        "[kb.topic.notes]\nsubjects = \"notes\"\ndisabled = [\"zip\"]\n",
    )
    .unwrap();
    let kb = common::load_kb(&root);
    assert_eq!(slugs(&mut searcher, &kb, "archive"), ["gnu-tar"]);
}

#[test]
fn a_file_in_three_topics_is_found_in_each() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".jp")).unwrap();
    std::fs::create_dir_all(root.join("notes/deep/er")).unwrap();
    std::fs::write(
        root.join(".jp/config.toml"),
        "[kb.topic.all]\nsubjects = \"notes\"\n\
         [kb.topic.deep]\nsubjects = \"notes/deep\"\n\
         [kb.topic.deeper]\nsubjects = \"notes/deep/er\"\n",
    )
    .unwrap();
    std::fs::write(
        root.join("notes/deep/er/zip.md"),
        "# zip\n\npackage files\n",
    )
    .unwrap();
    std::fs::write(root.join("notes/tar.md"), "# tar\n\narchive files\n").unwrap();
    let kb = common::load_kb(&root);
    let mut searcher = Searcher::memory();
    let request = SearchRequest {
        query: "package",
        topic: None,
        limit: 10,
        hidden: true,
    };
    let mut found: Vec<(String, String)> = searcher
        .search(&kb, &request)
        .unwrap()
        .hits
        .into_iter()
        .map(|h| (h.topic, h.slug))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("all".to_owned(), "deep/er/zip".to_owned()),
            ("deep".to_owned(), "er/zip".to_owned()),
            ("deeper".to_owned(), "zip".to_owned()),
        ]
    );
}

/// Two loads through one walk cache share their walks: the open index
/// keeps what it knew of the first (the same walks, the same `Arc`s) but
/// still reads what a subject is from the knowledge base searched, and a
/// `disabled` change (new states over the same walk) is seen.
#[test]
fn a_reload_sharing_the_walks_reports_what_the_new_config_says() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".jp")).unwrap();
    std::fs::create_dir_all(root.join("notes")).unwrap();
    let config = root.join(".jp/config.toml");
    std::fs::write(&config, "[kb.topic.notes]\nsubjects = \"notes\"\n").unwrap();
    write_with_time(&root.join("notes/tar.md"), "# tar\n\narchive files\n", 600);
    write_with_time(&root.join("notes/zip.md"), "# zip\n\narchive too\n", 600);
    settle(&root.join("notes"));
    let walks = std::sync::Arc::new(jp_kb_core::subjects::WalkCache::new());
    let load = || {
        let env = jp_kb_core::Environment::workspace_only(&root);
        let options = jp_kb_core::LoadOptions::default().workspace(&root);
        KnowledgeBase::load_with(&env, &options, &walks).unwrap()
    };
    let learned = |searcher: &mut Searcher, kb: &KnowledgeBase| -> Vec<(String, bool)> {
        hits(searcher, kb, "archive")
            .into_iter()
            .map(|h| (h.slug, h.learned))
            .collect()
    };
    let mut searcher = Searcher::memory();
    let kb = load();
    assert_eq!(
        learned(&mut searcher, &kb),
        [("tar".to_owned(), false), ("zip".to_owned(), false)]
    );
    std::fs::write(
        &config,
        "[kb.topic.notes]\nsubjects = \"notes\"\nlearned = [\"tar\"]\n",
    )
    .unwrap();
    let again = load();
    let walk = |kb: &KnowledgeBase| kb.topics[0].resolution().unwrap().walk.clone();
    assert!(
        std::sync::Arc::ptr_eq(&walk(&kb), &walk(&again)),
        "the reload shares the walk"
    );
    assert_eq!(searcher.refresh(&again), 0, "the same walk: nothing read");
    assert_eq!(
        learned(&mut searcher, &again),
        [("tar".to_owned(), true), ("zip".to_owned(), false)]
    );
    std::fs::write(
        &config,
        "[kb.topic.notes]\nsubjects = \"notes\"\ndisabled = [\"zip\"]\n",
    )
    .unwrap();
    let disabled = load();
    assert_eq!(
        learned(&mut searcher, &disabled),
        [("tar".to_owned(), false)]
    );
}

/// Sets the time of `dir` a minute back (a walk of a directory changed in
/// the last two seconds is not kept: timestamps are coarse).
fn settle(dir: &Path) {
    File::open(dir)
        .and_then(|f| {
            f.set_times(FileTimes::new().set_modified(SystemTime::now() - Duration::from_secs(60)))
        })
        .unwrap();
}
