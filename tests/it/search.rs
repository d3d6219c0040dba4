#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb search`: ranking, markers, what is never returned, the index in
//! the cache directory (incremental, rebuilt when damaged, in memory when
//! it cannot be written) and bad queries.

use super::common;

use std::path::{Path, PathBuf};

use common::Sandbox;
use serde_json::Value;

/// A workspace with one searchable topic (a hidden, a disabled, a binary
/// and a non-UTF-8 subject among them) and a disabled topic.
fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.notes]\nsubjects = \"notes\"\ndisabled = [\"secret\"]\n\n\
         [kb.topic.off]\nsubjects = \"off\"\nenable = false\n",
    );
    sb.write(
        "ws/notes/tar.md",
        "# tar\n\n> Archiving utility.\n\n- Extract an archive:\n\n`tar xf file.tar`\n",
    );
    sb.write(
        "ws/notes/zip.md",
        "# zip\n\n> Package and compress files.\n",
    );
    sb.write(
        "ws/notes/git-commit.md",
        "---\nname: git-commit\ndescription: Record changes\ntags: [conventional, history]\n---\n# Commits\n\nWrite good messages.\n",
    );
    sb.write("ws/notes/.hidden-tips.md", "Use rsync with care.\n");
    sb.write("ws/notes/secret.md", "rsync secret password\n");
    sb.write("ws/notes/blob.bin", b"rsync\0\x01\x02");
    sb.write("ws/notes/latin1.txt", b"caf\xe9 rsync");
    sb.write("ws/notes/recette.md", "Crème brûlée, the French dessert.\n");
    sb.write("ws/off/rsync.md", "rsync in a disabled topic\n");
    sb
}

fn cache(sb: &Sandbox) -> PathBuf {
    sb.path().join("cache")
}

/// Runs `jp-kb` with the cache directory inside the sandbox.
pub(super) fn run(sb: &Sandbox, args: &[&str]) -> std::process::Output {
    sb.cmd()
        .env("XDG_CACHE_HOME", cache(sb))
        .args(args)
        .output()
        .unwrap()
}

pub(super) fn hits(sb: &Sandbox, query: &[&str]) -> Vec<Value> {
    let mut args = vec!["search", "--json"];
    args.extend(query);
    let out = run(sb, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn slugs(hits: &[Value]) -> Vec<String> {
    hits.iter()
        .map(|h| h["slug"].as_str().unwrap().to_owned())
        .collect()
}

/// The one directory holding the index files.
fn index_dir(sb: &Sandbox) -> PathBuf {
    let base = cache(sb).join("jp-kb/search");
    let mut dirs: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

#[test]
fn ranks_by_stemmed_words_and_marks_them() {
    let sb = workspace();
    let found = hits(&sb, &["extracting", "ARCHIVES"]);
    assert_eq!(slugs(&found)[0], "tar");
    let tar = &found[0];
    assert_eq!(tar["topic"], "notes");
    assert_eq!(tar["hidden"], false);
    assert_eq!(tar["learned"], false);
    assert!(tar["score"].as_f64().unwrap() > 0.0);
    assert!(tar["tokens"].as_u64().unwrap() > 5);
    assert_eq!(tar["snippet"], "- **Extract** an **archive**:");
    // Words split out of slugs, front-matter tags, accents folded.
    assert_eq!(slugs(&hits(&sb, &["commit"]))[0], "git-commit");
    assert_eq!(slugs(&hits(&sb, &["conventional"])), ["git-commit"]);
    assert_eq!(slugs(&hits(&sb, &["creme", "brulee"])), ["recette"]);
    // The human table shows markers and the snippet.
    let out = run(&sb, &["search", "archive"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("notes  tar"), "{text}");
    assert!(text.contains("**Archiving**"), "{text}");
}

#[test]
fn hidden_marked_disabled_never_learned_marked() {
    let sb = workspace();
    let found = hits(&sb, &["rsync"]);
    let names = slugs(&found);
    assert!(names.contains(&"hidden-tips".to_owned()), "{names:?}");
    assert!(
        !names.contains(&"secret".to_owned()),
        "disabled subject returned: {names:?}"
    );
    assert!(
        found.iter().all(|h| h["topic"] == "notes"),
        "disabled topic searched"
    );
    let hidden = found.iter().find(|h| h["slug"] == "hidden-tips").unwrap();
    assert_eq!(hidden["hidden"], true);
    let out = run(&sb, &["-k", "notes/tar", "search", "--json", "tar"]);
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(found[0]["learned"], true);
}

#[test]
fn binary_and_non_utf8_files_are_found_by_slug_only() {
    let sb = workspace();
    let blob = hits(&sb, &["blob"]);
    assert_eq!(slugs(&blob), ["blob"]);
    assert_eq!(blob[0]["tokens"], Value::Null);
    assert!(blob[0]["snippet"].as_str().unwrap().contains("binary file"));
    let latin = hits(&sb, &["latin1"]);
    assert_eq!(slugs(&latin), ["latin1"]);
    assert!(
        latin[0]["snippet"]
            .as_str()
            .unwrap()
            .contains("not valid UTF-8")
    );
    // Their bytes are never indexed.
    let names = slugs(&hits(&sb, &["rsync"]));
    assert!(!names.contains(&"blob".to_owned()) && !names.contains(&"latin1".to_owned()));
}

#[test]
fn bad_queries_are_clear_errors_or_plain_searches() {
    let sb = workspace();
    let usage = |args: &[&str], expect: &str| {
        let out = run(&sb, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    };
    usage(&["search", ""], "the query is empty");
    usage(&["search", "  "], "the query is empty");
    usage(&["search", "*.[{}]?^$"], "no letters or digits");
    // 1 MB (argv items are limited to 128 KiB on Linux: ten of them).
    let part = "word ".repeat(20_000);
    let mut args = vec!["search"];
    args.extend(std::iter::repeat_n(part.as_str(), 10));
    usage(&args, "at most 4096");
    // Only stop words: searched as they are, no crash.
    let out = run(&sb, &["search", "the", "of", "and"]);
    assert!(out.status.success());
    // Glob and regex characters around words are ignored.
    assert_eq!(slugs(&hits(&sb, &["tar.*(", "[x]"]))[0], "tar");
    assert_eq!(slugs(&hits(&sb, &["**/zip"]))[0], "zip");
    // Nothing found is not an error.
    let out = run(&sb, &["search", "xylophone"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("No subject matches"));
    // An unknown topic names the valid ones.
    let out = run(&sb, &["search", "--topic", "nope", "tar"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("- notes"));
}

#[test]
fn index_lives_in_the_cache_and_follows_changes() {
    let sb = workspace();
    let before = tree(&sb.ws());
    assert_eq!(slugs(&hits(&sb, &["tar"]))[0], "tar");
    assert_eq!(tree(&sb.ws()), before, "search wrote into the workspace");
    let dir = index_dir(&sb);
    assert!(dir.join("main.idx").is_file());
    // A changed file, a new one, a removed one.
    sb.write("ws/notes/tar.md", "# tar\n\nzebra stripes\n");
    sb.write("ws/notes/new.md", "okapi\n");
    std::fs::remove_file(sb.ws().join("notes/zip.md")).unwrap();
    assert_eq!(slugs(&hits(&sb, &["zebra"])), ["tar"]);
    assert_eq!(slugs(&hits(&sb, &["okapi"])), ["new"]);
    assert!(hits(&sb, &["compress"]).is_empty());
    assert!(hits(&sb, &["archiving"]).is_empty());
    // Disabling a subject drops it at once.
    let out = run(
        &sb,
        &[
            "--cfg",
            "kb.topic.notes.disabled+=new",
            "search",
            "--json",
            "okapi",
        ],
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");
}

fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().path().to_path_buf())
        .collect();
    out.sort();
    out
}

#[test]
fn damaged_or_foreign_index_is_rebuilt() {
    let sb = workspace();
    hits(&sb, &["tar"]);
    let main = index_dir(&sb).join("main.idx");
    let good = std::fs::read(&main).unwrap();
    // The index is read in parts, each checked when a search reads it:
    // damage in the header, or in the part that names the best hit.
    let mut flipped_header = good.clone();
    flipped_header[40] ^= 0x01;
    let mut flipped = good.clone();
    let name = flipped
        .windows(6)
        .position(|w| w == b"tar.md")
        .expect("the hit's path is in the index");
    flipped[name] ^= 0xFF;
    let mut other_version = good.clone();
    other_version[8..12].copy_from_slice(&999u32.to_le_bytes());
    for (bytes, says) in [
        (b"not an index at all".to_vec(), "not a jp-kb search index"),
        (good[..good.len() / 3].to_vec(), "damaged"),
        (flipped_header, "damaged"),
        (flipped, "damaged"),
        (other_version, "another version"),
        (Vec::new(), "not a jp-kb search index"),
    ] {
        std::fs::write(&main, &bytes).unwrap();
        let out = run(&sb, &["search", "--json", "archive"]);
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(says) && err.contains("rebuilding"),
            "{says}: {err}"
        );
        let found: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(found[0]["slug"], "tar");
        // Rebuilt: the next search has nothing to say.
        let out = run(&sb, &["search", "archive"]);
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A damaged delta: its files are read again.
    std::fs::write(index_dir(&sb).join("delta.idx"), b"JPKBSRCH").unwrap();
    let out = run(&sb, &["search", "--json", "archive"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("delta.idx"));
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap()[0]["slug"],
        "tar"
    );
}

#[test]
fn unwritable_cache_dir_falls_back_to_memory_and_says_so() {
    let sb = workspace();
    // A file where the cache directory should be: unwritable even for root
    // (a read-only directory is not, and CI may run as root).
    let blocked = sb.write("cache-is-a-file", "x");
    let out = sb
        .cmd()
        .env("XDG_CACHE_HOME", &blocked)
        .args(["search", "--json", "archive"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in-memory index"), "{err}");
    assert!(err.contains("cache-is-a-file"), "{err}");
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(found[0]["slug"], "tar");
}

#[test]
fn limit_and_topic() {
    let sb = workspace();
    assert_eq!(hits(&sb, &["--limit", "1", "rsync"]).len(), 1);
    let out = run(&sb, &["search", "--topic", "off", "rsync"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a disabled topic cannot be searched"
    );
    assert!(!hits(&sb, &["--topic", "notes", "tar"]).is_empty());
}
