#![cfg(target_os = "linux")]
#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 12, items 1 and 2: no subject read ever returns a file outside
//! the workspace, even when a subject or a whole directory is swapped for
//! a symlink leading out while a command runs (a flipper thread exchanging
//! them atomically, hundreds of runs), or after the MCP server's walk was
//! kept (directory times put back).

use super::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use jp_kb_core::internal::mcp;
use jp_kb_core::mcp::ReadError;
use jp_kb_core::{Environment, LoadOptions};
use rustix::fs::{CWD, RenameFlags};
use serde_json::json;

/// A workspace whose topic `t` learns `a` and `sub/b` (`u`: the same
/// directory, nothing learned, for `learn`), and next to it the
/// secrets and the symlinks the flippers swap in:
///
/// - `link-a` → `out/a.md`, swapped with `t/a.md`;
/// - `link-sub` → `out/` (holding `b.md`), swapped with `t/sub`;
/// - `link-t` → `out-t/` (holding `a.md`, `sub/b.md`), swapped with `t`.
struct Layout {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    ws: PathBuf,
}

impl Layout {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let ws = base.join("ws");
        let topic = ws.join(".jp/kb/t");
        std::fs::create_dir_all(topic.join("sub")).unwrap();
        std::fs::write(
            ws.join(".jp/config.toml"),
            "[kb.topic.t]\nsubjects = \".jp/kb/t\"\ntitle = \"T\"\nlearned = [\"a\", \"sub/b\"]\n\n[kb.topic.u]\nsubjects = \".jp/kb/t\"\ntitle = \"U\"\n",
        )
        .unwrap();
        std::fs::write(topic.join("a.md"), "inside-a").unwrap();
        std::fs::write(topic.join("sub/b.md"), "inside-b").unwrap();
        for dir in ["out", "out-t/sub"] {
            std::fs::create_dir_all(base.join(dir)).unwrap();
        }
        for (file, text) in [
            ("out/a.md", "SECRET-A"),
            ("out/b.md", "SECRET-B"),
            ("out-t/a.md", "SECRET-TA"),
            ("out-t/sub/b.md", "SECRET-TB"),
        ] {
            std::fs::write(base.join(file), text).unwrap();
        }
        for (link, target) in [
            ("link-a", "out/a.md"),
            ("link-sub", "out"),
            ("link-t", "out-t"),
        ] {
            std::os::unix::fs::symlink(base.join(target), base.join(link)).unwrap();
        }
        Self {
            _tmp: tmp,
            base,
            ws,
        }
    }

    fn topic(&self) -> PathBuf {
        self.ws.join(".jp/kb/t")
    }

    fn sandbox(&self) -> PathBuf {
        self.base.join("sandbox")
    }

    fn run(&self, args: &[&str]) -> String {
        let out = common::jp_kb_std(&self.sandbox(), &self.ws)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// Exchanges `a` and `b` atomically, over and over, until dropped.
struct Flipper {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl Flipper {
    fn start(a: PathBuf, b: PathBuf) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut flips = 0;
            while !flag.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
                flips += 1;
            }
            // Leave the workspace as it was.
            if flips % 2 == 1 {
                rustix::fs::renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
            }
            flips
        });
        Self {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops and returns how many swaps were made.
    fn stop(mut self) -> usize {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().map_or(0, |t| t.join().unwrap())
    }
}

impl Drop for Flipper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs `args` `runs` times; returns how many outputs held a secret, and
/// how many held the inside text (the race must have been run both ways).
fn race(layout: &Layout, args: &[&str], runs: usize) -> (usize, usize) {
    let (mut leaks, mut inside) = (0, 0);
    for _ in 0..runs {
        let out = layout.run(args);
        leaks += usize::from(out.contains("SECRET"));
        inside += usize::from(out.contains("inside-"));
    }
    (leaks, inside)
}

#[test]
fn cli_prompt_and_learn_never_read_a_file_swapped_for_an_outside_link() {
    let layout = Layout::new();
    let b = &layout.base;
    let t = layout.topic();
    let flippers = [
        Flipper::start(t.join("a.md"), b.join("link-a")),
        Flipper::start(t.join("sub"), b.join("link-sub")),
    ];
    let prompt = race(&layout, &["prompt"], 300);
    let learn = race(&layout, &["learn", "u", "**"], 300);
    let flips: Vec<usize> = flippers.into_iter().map(Flipper::stop).collect();
    assert_eq!((prompt.0, learn.0), (0, 0), "leaks in prompt, learn");
    assert!(prompt.1 > 0 && learn.1 > 0, "{prompt:?} {learn:?}");
    assert!(flips.iter().all(|&n| n > 100), "{flips:?}");
}

#[test]
fn cli_prompt_and_learn_never_read_a_topic_swapped_for_an_outside_link() {
    let layout = Layout::new();
    let flipper = Flipper::start(layout.topic(), layout.base.join("link-t"));
    let prompt = race(&layout, &["prompt"], 200);
    let learn = race(&layout, &["learn", "u", "**"], 200);
    let flips = flipper.stop();
    assert_eq!((prompt.0, learn.0), (0, 0), "leaks in prompt, learn");
    assert!(prompt.1 > 0 && learn.1 > 0, "{prompt:?} {learn:?}");
    assert!(flips > 100, "{flips}");
}

fn workspace(ws: &Path) -> mcp::Workspace {
    mcp::Workspace::new(
        Environment::workspace_only(ws),
        LoadOptions::default().workspace(ws),
    )
}

/// Every subject-reading MCP answer: `learn` of everything (topic `u`), the
/// `knowledge` prompt, and both resources (their text, or the error).
fn mcp_answers(workspace: &mcp::Workspace) -> String {
    let Ok(kb) = workspace.load() else {
        return String::new();
    };
    let args = json!({"topic": "u", "subjects": "**"});
    let mut out = mcp::call_learn(&kb, args.as_object()).text().to_owned();
    out.push_str(&mcp::knowledge_text(&kb).unwrap_or_default());
    for uri in ["kb://t/a", "kb://t/sub/b"] {
        match mcp::read_resource(&kb, uri) {
            Ok(content) => {
                let _ = write!(out, "{:?}", content.body);
            }
            Err(e) => out.push_str(&e.to_string()),
        }
    }
    out
}

#[test]
fn mcp_handlers_never_read_outside_during_a_race() {
    for (link, swapped) in [("link-a", "a.md"), ("link-sub", "sub"), ("link-t", "")] {
        let layout = Layout::new();
        let workspace = workspace(&layout.ws);
        let path = if swapped.is_empty() {
            layout.topic()
        } else {
            layout.topic().join(swapped)
        };
        let flipper = Flipper::start(path, layout.base.join(link));
        let (mut leaks, mut inside) = (0, 0);
        for _ in 0..400 {
            let out = mcp_answers(&workspace);
            leaks += usize::from(out.contains("SECRET"));
            inside += usize::from(out.contains("inside-"));
        }
        let flips = flipper.stop();
        assert_eq!(leaks, 0, "{link}: {leaks} of 400 answers leaked");
        assert!(inside > 0 && flips > 100, "{link}: {inside} {flips}");
    }
}

/// Sets a path's modification time (following symlinks) to `when`.
fn set_mtime(path: &Path, when: SystemTime) {
    std::fs::File::open(path)
        .and_then(|f| f.set_times(std::fs::FileTimes::new().set_modified(when)))
        .unwrap();
}

#[test]
fn mcp_never_reads_outside_through_a_kept_walk() {
    let layout = Layout::new();
    let (t, b) = (layout.topic(), layout.base.clone());
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
    for dir in [t.clone(), t.join("sub"), b.join("out")] {
        set_mtime(&dir, past);
    }
    let workspace = workspace(&layout.ws);
    let before = mcp_answers(&workspace);
    assert!(before.contains("inside-a") && before.contains("inside-b"));
    // Both swapped for links out; every directory time put back, so the
    // kept walk still looks current.
    for (inside, link) in [("a.md", "link-a"), ("sub", "link-sub")] {
        rustix::fs::renameat_with(
            CWD,
            t.join(inside),
            CWD,
            b.join(link),
            RenameFlags::EXCHANGE,
        )
        .unwrap();
    }
    set_mtime(&t, past);
    let after = mcp_answers(&workspace);
    assert!(!after.contains("SECRET"), "{after}");
    for slug in ["a", "sub/b"] {
        assert!(
            after.contains(&format!(
                "[skipped subject \"{slug}\": unreadable: resolves outside the workspace]"
            )),
            "{after}"
        );
    }
    let kb = workspace.load().unwrap();
    assert!(matches!(
        mcp::read_resource(&kb, "kb://t/a"),
        Err(ReadError::Unreadable { reason, .. }) if reason == "resolves outside the workspace"
    ));
}

#[test]
fn fifos_in_a_topic_are_walk_warnings_and_never_opened() {
    let layout = Layout::new();
    let t = layout.topic();
    rustix::fs::mknodat(
        CWD,
        t.join("pipe.md"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
    std::os::unix::fs::symlink("pipe.md", t.join("piped.md")).unwrap();
    // Opening either for reading would block this test forever.
    let list = common::jp_kb_std(&layout.sandbox(), &layout.ws)
        .args(["list", "t"])
        .output()
        .unwrap();
    assert!(list.status.success(), "{list:?}");
    let warnings = String::from_utf8_lossy(&list.stderr);
    for name in ["pipe.md", "piped.md"] {
        let line = format!(
            "{}: a FIFO, not a regular file; skipped (never opened)",
            t.join(name).display()
        );
        assert!(warnings.contains(&line), "{warnings}");
    }
    let check = common::jp_kb_std(&layout.sandbox(), &layout.ws)
        .args(["check", "--json"])
        .output()
        .unwrap();
    let findings: Vec<serde_json::Value> = String::from_utf8_lossy(&check.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|f: &serde_json::Value| f["code"] == "KB109")
        .collect();
    // Two names, in each of the two topics of the directory.
    assert_eq!(findings.len(), 4, "{check:?}");
    assert!(
        findings.iter().all(|f| f["message"]
            .as_str()
            .unwrap()
            .contains("a FIFO, not a regular file")),
        "{findings:#?}"
    );
    assert_eq!(layout.run(&["prompt"]).matches("inside-").count(), 2);
}
