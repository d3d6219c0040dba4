#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The first build of the embeddings survives and speaks (issue 39): it
//! is saved as it is made, so a build killed halfway is continued, not
//! begun again; it says how far it is and the time left on stderr even
//! when stderr is not a terminal; and only the topic searched is embedded.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::common::{Sandbox, jp_kb_std, load_kb};
use crate::needs::{Need, require};

/// A workspace of the first `count` pages of tldr's `common` (by name).
fn tldr_workspace(count: usize) -> Sandbox {
    let pages = require(Need::Corpora).join("tldr/pages/common");
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.tldr]\nsubjects = \"pages\"\n",
    );
    let mut names: Vec<_> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    std::fs::create_dir_all(sb.ws().join("pages")).unwrap();
    for name in names.into_iter().take(count) {
        std::fs::copy(pages.join(&name), sb.ws().join("pages").join(&name)).unwrap();
    }
    sb
}

/// `jp-kb search --mode semantic` with the model in `model`, stderr a pipe.
fn search(sb: &Sandbox, model: &Path) -> Command {
    let mut cmd = jp_kb_std(sb.path(), &sb.ws());
    cmd.env("XDG_CACHE_HOME", sb.path().join("cache"))
        .args(["search", "--mode", "semantic", "--model"])
        .arg(model)
        .arg("is that host answering")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// The chunks to embed of each progress line (`done/total chunks`).
fn progress(stderr: &str) -> Vec<(usize, usize)> {
    stderr
        .lines()
        .filter_map(|l| {
            let figures = l.strip_prefix("embedding subjects for search by meaning: ")?;
            let (done, rest) = figures.split_once('/')?;
            let total = rest.split_once(' ')?.0;
            Some((done.parse().ok()?, total.parse().ok()?))
        })
        .collect()
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
#[cfg_attr(
    lacks = "corpora",
    ignore = "needs the tldr corpus in ../shared/corpora beside the checkout (then touch build.rs)"
)]
fn a_first_build_killed_halfway_is_continued_and_speaks_without_a_terminal() {
    let model = require(Need::Model);
    // The whole build, timed; its stderr is a pipe.
    let whole = tldr_workspace(150);
    let started = Instant::now();
    let out = search(&whole, &model).output().unwrap();
    let full = started.elapsed();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    let lines = progress(&said);
    let total = lines.first().expect("a line when the build starts").1;
    assert_eq!(lines[0].0, 0, "{said}");
    assert_eq!(lines.last().unwrap(), &(total, total), "{said}");
    assert!(
        said.lines().filter(|l| l.contains(" left")).count() >= 1,
        "{said}"
    );
    // A line every 5 s: a build of more than 10 s says something between
    // (20 s leaves the model's load and a busy machine their margin).
    if full > Duration::from_secs(20) {
        assert!(lines.len() >= 3, "{full:?}: {said}");
    }

    // The same build killed at half its time, then run again.
    let killed = tldr_workspace(150);
    let mut child = search(&killed, &model).spawn().unwrap();
    std::thread::sleep(full / 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = search(&killed, &model).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    // Lost at the kill: the model's load and the call in flight (32 of
    // ~170 chunks); the rest of the first half was saved.
    let left = progress(&said).first().map_or(0, |l| l.1);
    // Counted in chunks, not timed: a rerun's wall time follows the
    // machine's load (CI once took 44 s for 70% of a 56 s build).
    assert!(
        left * 10 <= total * 7,
        "the rerun embeds {left} of {total} chunks: {said}"
    );
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn only_the_topic_searched_is_embedded() {
    use jp_kb_core::search::semantic::Semantic;
    use jp_kb_core::search::{Mode, SearchRequest, Searcher};
    let model = require(Need::Model);
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.net]\nsubjects = \"net\"\n[kb.topic.disk]\nsubjects = \"disk\"\n",
    );
    sb.write("ws/net/ping.md", "# ping\n\n> Is a host up.\n");
    sb.write(
        "ws/net/curl.md",
        "# curl\n\n> Transfer data from a server.\n",
    );
    sb.write("ws/disk/df.md", "# df\n\n> Free disk space.\n");
    sb.write("ws/disk/du.md", "# du\n\n> Disk usage of a directory.\n");
    sb.write("ws/disk/mount.md", "# mount\n\n> Attach a filesystem.\n");
    let cache = sb.path().join("index");
    let kb = load_kb(&sb.ws());
    let mut searcher = Searcher::memory();
    let mut semantic = Semantic::open(&model, Some(&cache)).unwrap();
    let request = SearchRequest {
        query: "is that computer answering",
        topic: Some("net"),
        limit: 5,
        hidden: false,
    };
    let mut embedded = (0, 0);
    let found = searcher
        .search_in_mode(
            &kb,
            &request,
            Some(&mut semantic),
            Mode::Semantic,
            &mut |_, total| embedded.1 = total,
        )
        .unwrap();
    assert_eq!(found.hits[0].slug, "ping");
    assert_eq!(semantic.len(), 2, "only net's two pages");
    // Saved so: a search of every topic embeds disk's three and no more.
    let mut semantic = Semantic::open(&model, Some(&cache)).unwrap();
    let update = semantic.refresh(&kb, None, &mut |_, _| {}).unwrap();
    assert_eq!((update.embedded, semantic.len()), (3, 5), "{update:?}");
    embedded.0 = update.chunks;
    assert_eq!(embedded, (3, 2), "chunks embedded: all topics, then net");
}
