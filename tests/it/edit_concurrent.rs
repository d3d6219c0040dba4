#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Concurrent writers lose nothing (issue 12, item 5): four real `jp-kb
//! learned add` processes at a time, each adding its own patterns to one
//! file; every addition a process reported ("added", exit 0) must be in
//! the file at the end.

use super::common;

use std::process::Stdio;

use common::{Sandbox, jp_kb_std};

const WRITERS: usize = 4;
const ROUNDS: usize = 100;

const CONFIG: &str =
    "# shared\n[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\n  \"intro\",\n]\n";

#[test]
fn four_concurrent_writers_lose_no_reported_addition() {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", CONFIG);
    sb.write("ws/kb/intro.md", "Intro");
    let sandbox = sb.path().to_path_buf();
    let ws = sb.ws();
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (sandbox, ws) = (sandbox.clone(), ws.clone());
            std::thread::spawn(move || {
                let (mut reported, mut failed) = (Vec::new(), Vec::new());
                for round in 0..ROUNDS {
                    let pattern = format!("w{w}r{round}");
                    let out = jp_kb_std(&sandbox, &ws)
                        .args(["learned", "add", "project", &pattern])
                        .stdin(Stdio::null())
                        .output()
                        .unwrap();
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    if out.status.success() && stdout.contains(&format!("added `{pattern}`")) {
                        reported.push(pattern);
                    } else {
                        failed.push(format!(
                            "{pattern}: {} {}",
                            out.status,
                            String::from_utf8_lossy(&out.stderr).trim()
                        ));
                    }
                }
                (reported, failed)
            })
        })
        .collect();
    let mut reported = Vec::new();
    let mut failed = Vec::new();
    for w in writers {
        let (r, f) = w.join().unwrap();
        reported.extend(r);
        failed.extend(f);
    }
    let text = std::fs::read_to_string(ws.join(".jp/config.toml")).unwrap();
    let lost: Vec<&String> = reported
        .iter()
        .filter(|p| !text.contains(&format!("\"{p}\"")))
        .collect();
    eprintln!(
        "{} additions reported, {} lost, {} failed",
        reported.len(),
        lost.len(),
        failed.len()
    );
    assert!(
        lost.is_empty(),
        "{} of {} reported additions are not in the file: {lost:?}",
        lost.len(),
        reported.len()
    );
    // With the lock every writer gets its turn well within its wait.
    assert!(failed.is_empty(), "writers failed: {failed:#?}");
    assert!(toml_edit::Document::parse(text.as_str()).is_ok(), "{text}");
}

#[test]
fn a_writer_that_cannot_get_the_lock_fails_clearly_and_writes_nothing() {
    let sb = Sandbox::new();
    let config = sb.write("ws/.jp/config.toml", CONFIG);
    sb.write("ws/kb/intro.md", "Intro");
    let _held = jp_kb_core::internal::edit::write::lock(
        &jp_kb_core::edit::Boundaries::new([std::env::temp_dir()]),
        &config,
    )
    .unwrap();
    let start = std::time::Instant::now();
    let out = jp_kb_std(sb.path(), &sb.ws())
        .args(["learned", "add", "project", "blocked"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("config.toml: another program kept")
            && stderr.contains(" locked for ")
            && stderr.contains("nothing written, try again"),
        "{stderr}"
    );
    assert!(start.elapsed() >= jp_kb_core::internal::edit::lock::LOCK_TIMEOUT);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), CONFIG);
}
