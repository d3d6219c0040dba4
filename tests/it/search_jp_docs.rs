#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Word search on a real knowledge base: JP's own documentation (the
//! `docs/` of JP's source in `../shared/jp/src`, 209 pages from a few
//! words to 12k). Issue 37 item 3: `provider` finds the page named so
//! (`README/providers`, 150 tokens) in the top 3, above the long RFDs
//! that use the word in passing; it was 13th.

use super::common::Sandbox;
use super::needs::{Need, require};

/// A workspace holding JP's `docs/` as topic `jp-docs`.
fn jp_docs() -> Sandbox {
    let tarball = require(Need::JpSource);
    let sb = Sandbox::new();
    let status = std::process::Command::new("tar")
        .arg("-xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(sb.path())
        .arg("jp/docs")
        .status()
        .expect("tar runs");
    assert!(status.success(), "tar -xzf {}", tarball.display());
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.jp-docs]\nsubjects = \"docs\"\n",
    );
    std::fs::rename(sb.path().join("jp/docs"), sb.ws().join("docs")).unwrap();
    sb
}

/// The slugs of the first `limit` hits for `query`.
fn top(sb: &Sandbox, query: &str, limit: usize) -> Vec<String> {
    let out = sb
        .cmd()
        .env("XDG_CACHE_HOME", sb.path().join("cache"))
        .args(["search", "--json", "--mode", "lexical", "--limit"])
        .arg(limit.to_string())
        .arg(query)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    hits.as_array()
        .unwrap()
        .iter()
        .map(|h| h["slug"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
#[cfg_attr(
    lacks = "jp-source",
    ignore = "needs JP's source in ../shared/jp/src beside the checkout (then touch build.rs)"
)]
fn provider_finds_the_page_named_so_in_the_top_3() {
    let sb = jp_docs();
    for query in ["provider", "providers"] {
        let found = top(&sb, query, 3);
        assert!(
            found.iter().any(|s| s == "README/providers"),
            "{query}: {found:?}"
        );
    }
}
