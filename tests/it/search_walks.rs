#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb search` across processes: the topic walks saved next to the
//! index (used while every directory keeps its time, taken again when one
//! changes, rebuilt when damaged), and what the cache directory may be.

use super::common;

use std::fs::{File, FileTimes};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::Sandbox;
use serde_json::Value;

fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.notes]\nsubjects = \"notes\"\n",
    );
    sb.write("ws/notes/tar.md", "# tar\n\n> Archiving utility.\n");
    sb.write("ws/notes/deep/zip.md", "# zip\n\n> Package files.\n");
    // Long names, whichever comes last in the saved walk: its slug is
    // longer than the bytes after it (a saved walk that failed to load).
    sb.write("ws/notes/deep/zz-a-rather-long-page-name.md", "long\n");
    sb.write("ws/notes/zz-another-rather-long-page-name.md", "long\n");
    sb
}

pub(super) fn cache(sb: &Sandbox) -> PathBuf {
    sb.path().join("cache")
}

pub(super) fn run(sb: &Sandbox, args: &[&str]) -> std::process::Output {
    sb.cmd()
        .env("XDG_CACHE_HOME", cache(sb))
        .args(args)
        .output()
        .unwrap()
}

/// The slugs found for `query`, and what was said on stderr.
fn search(sb: &Sandbox, query: &str) -> (Vec<String>, String) {
    let out = run(sb, &["search", "--json", query]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
    let slugs = hits
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["slug"].as_str().unwrap().to_owned())
        .collect();
    (slugs, err)
}

/// Sets the times of every directory under `dir` a minute back, as if the
/// tree had settled long ago (a walk of a directory changed in the last
/// two seconds is not kept: timestamps are coarse).
pub(super) fn settle(dir: &Path) {
    let past = SystemTime::now() - Duration::from_secs(60);
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_dir() {
            File::open(entry.path())
                .and_then(|f| f.set_times(FileTimes::new().set_modified(past)))
                .unwrap();
        }
    }
}

pub(super) fn walks_file(sb: &Sandbox) -> PathBuf {
    let base = cache(sb).join("jp-kb/search");
    let dir = std::fs::read_dir(&base).unwrap().next().unwrap().unwrap();
    dir.path().join("walks.bin")
}

#[test]
fn a_saved_walk_is_used_until_a_directory_changes() {
    let sb = workspace();
    settle(&sb.ws().join("notes"));
    assert_eq!(search(&sb, "archiving").0, ["tar"]);
    let saved = walks_file(&sb);
    let first = std::fs::read(&saved).unwrap();
    assert!(!first.is_empty());
    // Nothing changed: the saved walk is used (without a word) and not
    // written again.
    let (slugs, err) = search(&sb, "package");
    assert_eq!((slugs, err.as_str()), (vec!["deep/zip".to_owned()], ""));
    assert_eq!(std::fs::read(&saved).unwrap(), first);
    // A new file changes its directory's time: walked again, found.
    sb.write("ws/notes/deep/okapi.md", "okapi\n");
    assert_eq!(search(&sb, "okapi").0, ["deep/okapi"]);
    // A removed one too.
    std::fs::remove_file(sb.ws().join("notes/tar.md")).unwrap();
    assert!(search(&sb, "archiving").0.is_empty());
}

#[test]
fn a_damaged_saved_walk_is_taken_again() {
    let sb = workspace();
    settle(&sb.ws().join("notes"));
    search(&sb, "archiving");
    let saved = walks_file(&sb);
    let good = std::fs::read(&saved).unwrap();
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0xFF;
    for bad in [
        b"JPKBWALK".to_vec(),
        flipped,
        good[..good.len() - 1].to_vec(),
    ] {
        std::fs::write(&saved, &bad).unwrap();
        // Without the saved places the walks are needed (while the
        // places hold, a search reads no walk: `search_places.rs`).
        let _ = std::fs::remove_file(saved.with_file_name("places.bin"));
        let (slugs, err) = search(&sb, "archiving");
        assert_eq!(slugs, ["tar"]);
        assert!(
            err.contains("walks.bin") && err.contains("walking the topics again"),
            "{err}"
        );
        // Replaced: the next search has nothing to say.
        let (_, err) = search(&sb, "archiving");
        assert!(err.is_empty(), "{err}");
        assert_ne!(std::fs::read(&saved).unwrap(), bad);
    }
}

#[test]
fn an_unwritable_cache_is_one_line_of_notice() {
    let sb = workspace();
    // A file where the cache directory should be: unwritable even for root.
    let blocked = sb.write("cache-is-a-file", "x");
    for _ in 0..2 {
        let out = sb
            .cmd()
            .env("XDG_CACHE_HOME", &blocked)
            .args(["search", "--json", "archiving"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("in-memory index") && err.contains("cache-is-a-file"),
            "{err}"
        );
        let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(hits[0]["slug"], "tar");
    }
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_does_not_stop_search() {
    use std::os::unix::ffi::OsStrExt as _;
    let sb = workspace();
    let odd = sb
        .ws()
        .join("notes")
        .join(std::ffi::OsStr::from_bytes(b"caf\xe9.md"));
    std::fs::write(odd, "archiving too\n").unwrap();
    settle(&sb.ws().join("notes"));
    for _ in 0..2 {
        assert_eq!(search(&sb, "archiving").0, ["tar"]);
    }
}
