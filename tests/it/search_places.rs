#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb search` answered from the saved places (`places.bin` beside the
//! index, read instead of the walks while it holds): what changed is
//! still found at once — a file added, removed or saved over, a `learned`
//! or `disabled` change, a topic turned off —, damage is noted and
//! repaired, and places or an index another process left from another
//! state are not trusted.

use super::common;
use super::search_walks::{cache, run, settle, walks_file};

use std::fs::{File, FileTimes};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use common::Sandbox;
use serde_json::Value;

/// Two topics, one inside the other: a file of `deep` is in both.
fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.notes]\nsubjects = \"notes\"\n\n[kb.topic.deep]\nsubjects = \"notes/deep\"\n",
    );
    sb.write("ws/notes/tar.md", "# tar\n\n> Archiving utility.\n");
    sb.write("ws/notes/deep/zip.md", "# zip\n\n> Package files.\n");
    sb.write("ws/notes/.hidden.md", "# hidden\n\n> Archiving secrets.\n");
    settle_all(&sb);
    sb
}

/// The directories and the files a minute old: a file changed in the
/// last two seconds is read again by the next search (its time is not
/// trusted yet), so no places are saved until it settles.
fn settle_all(sb: &Sandbox) {
    let past = SystemTime::now() - Duration::from_secs(60);
    for entry in walkdir::WalkDir::new(sb.ws().join("notes")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            File::options()
                .append(true)
                .open(entry.path())
                .and_then(|f| f.set_times(FileTimes::new().set_modified(past)))
                .unwrap();
        }
    }
    settle(&sb.ws().join("notes"));
}

/// Each hit as `topic slug` with `L` (learned) and `H` (hidden) marks,
/// and what was said on stderr.
fn search(sb: &Sandbox, query: &str) -> (Vec<String>, String) {
    let out = run(sb, &["search", "--json", query]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = hits
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let mark = |key: &str, c: &'static str| if h[key] == true { c } else { "" };
            format!(
                "{} {}{}{}",
                h["topic"].as_str().unwrap(),
                h["slug"].as_str().unwrap(),
                mark("learned", " L"),
                mark("hidden", " H"),
            )
        })
        .collect();
    (hits, err)
}

fn places_file(sb: &Sandbox) -> PathBuf {
    walks_file(sb).with_file_name("places.bin")
}

fn config(sb: &Sandbox, extra: &str) {
    sb.write(
        "ws/.jp/config.toml",
        format!(
            "[kb.topic.notes]\nsubjects = \"notes\"\n{extra}\n\n[kb.topic.deep]\nsubjects = \"notes/deep\"\n"
        ),
    );
}

#[test]
fn the_saved_places_answer_without_reading_the_walks() {
    let sb = workspace();
    let first = search(&sb, "archiving");
    assert_eq!(first.0, ["notes hidden H", "notes tar"]);
    assert!(places_file(&sb).is_file(), "saved by the first search");
    // A damaged saved walk would be noted if it were read: it is not.
    std::fs::write(walks_file(&sb), b"JPKBWALK damaged").unwrap();
    assert_eq!(search(&sb, "archiving"), (first.0, String::new()));
    // A file in two topics: a hit in each, in configuration order.
    assert_eq!(search(&sb, "package").0, ["notes deep/zip", "deep zip"]);
}

#[test]
fn what_changed_is_found_at_once() {
    let sb = workspace();
    search(&sb, "archiving");
    // Added (its directory's time changes).
    sb.write("ws/notes/deep/okapi.md", "# okapi\n\n> Archiving okapis.\n");
    assert_eq!(search(&sb, "okapis").0, ["notes deep/okapi", "deep okapi"]);
    // Saved over as editors save: a new file renamed over the old one.
    let tmp = sb.write(
        "ws/notes/tar.md.tmp",
        "# tar\n\n> Tape archiver, renamed.\n",
    );
    std::fs::rename(tmp, sb.ws().join("notes/tar.md")).unwrap();
    assert_eq!(search(&sb, "renamed").0, ["notes tar"]);
    // Removed.
    std::fs::remove_file(sb.ws().join("notes/deep/okapi.md")).unwrap();
    assert!(search(&sb, "okapis").0.is_empty());
    // The same files again, settled: the places are saved anew and used.
    settle_all(&sb);
    search(&sb, "archiving");
    let saved = std::fs::read(places_file(&sb)).unwrap();
    assert_eq!(search(&sb, "tape").0, ["notes tar"]);
    assert_eq!(std::fs::read(places_file(&sb)).unwrap(), saved);
    // The settings: learned, disabled, a topic turned off.
    config(&sb, "learned = [\"tar\"]");
    assert_eq!(search(&sb, "tape").0, ["notes tar L"]);
    config(&sb, "disabled = [\"tar\"]");
    assert!(search(&sb, "tape").0.is_empty());
    config(&sb, "enable = false");
    assert_eq!(search(&sb, "package").0, ["deep zip"]);
    config(&sb, "");
    assert_eq!(search(&sb, "package").0, ["notes deep/zip", "deep zip"]);
}

#[test]
fn damaged_places_are_noted_and_replaced() {
    let sb = workspace();
    let expected = search(&sb, "archiving").0;
    let path = places_file(&sb);
    let good = std::fs::read(&path).unwrap();
    let mut flipped = good.clone();
    // In the header (read by every search).
    flipped[24] ^= 0x10;
    for bad in [
        b"JPKBPLCS".to_vec(),
        flipped,
        good[..good.len() - 1].to_vec(),
        b"nonsense".to_vec(),
    ] {
        std::fs::write(&path, &bad).unwrap();
        let (hits, err) = search(&sb, "archiving");
        assert_eq!(hits, expected);
        assert!(
            err.contains("places.bin") && err.contains("finding the hits' topics from the walks"),
            "{err}"
        );
        let (hits, err) = search(&sb, "archiving");
        assert_eq!((hits, err.as_str()), (expected.clone(), ""));
        assert_eq!(std::fs::read(&path).unwrap(), good, "replaced");
    }
}

/// Another process saving what it found before a change, after the
/// change: its places, or its index, are not taken for the files now.
#[test]
fn places_or_an_index_from_another_state_are_not_trusted() {
    let sb = workspace();
    search(&sb, "archiving");
    let index = places_file(&sb).parent().unwrap().to_path_buf();
    let read_all = |names: &[&str]| -> Vec<(PathBuf, Vec<u8>)> {
        names
            .iter()
            .map(|n| (index.join(n), std::fs::read(index.join(n)).unwrap()))
            .collect()
    };
    let before = read_all(&["places.bin"]);
    let old_index = read_all(&["main.idx", "delta.idx"]);
    std::fs::remove_file(sb.ws().join("notes/tar.md")).unwrap();
    assert_eq!(search(&sb, "archiving").0, ["notes hidden H"]);
    // The old places come back: their directory times no longer hold.
    for (path, bytes) in &before {
        std::fs::write(path, bytes).unwrap();
    }
    assert_eq!(search(&sb, "archiving").0, ["notes hidden H"]);
    // Settled, the places of now are saved; then the old index comes
    // back: its digest is not theirs.
    settle_all(&sb);
    search(&sb, "archiving");
    assert_ne!(std::fs::read(places_file(&sb)).unwrap(), before[0].1);
    for (path, bytes) in &old_index {
        std::fs::write(path, bytes).unwrap();
    }
    assert_eq!(search(&sb, "archiving").0, ["notes hidden H"]);
    assert!(cache(&sb).is_dir());
}
