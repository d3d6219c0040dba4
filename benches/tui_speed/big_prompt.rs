//! The keys of issue 26 item 7 on a 4.4 MiB prompt: a copy of the tldr
//! pages (7,424 subjects) with `learned = ["**"]`, every worker of the
//! terminal running. Each key is timed from the key to its frame (work
//! sent to a worker is not waited for: the frame must say it is coming).
//! Each repetition starts the TUI again, so every key is the first of its
//! kind (`c` computes a client view, `/` reads the whole section).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jp_kb::tui::harness::Harness;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

use super::super::{HEIGHT, Samples, Session, WIDTH, row};

/// The workspace under `target/bench-data/tldr-learned`, copied once.
fn workspace(pages: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/tldr-learned");
    let marker = root.join(".complete");
    if !marker.exists() {
        let _ = std::fs::remove_dir_all(&root);
        for entry in walkdir::WalkDir::new(pages) {
            let entry = entry.unwrap();
            let target = root
                .join("pages")
                .join(entry.path().strip_prefix(pages).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
            } else if entry.file_type().is_file() {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
        std::fs::create_dir_all(root.join(".jp")).unwrap();
        std::fs::write(
            root.join(".jp/kb.toml"),
            "[kb.topic.tldr-en]\nsubjects = \"pages\"\nlearned = [\"**\"]\n",
        )
        .unwrap();
        std::fs::write(&marker, "").unwrap();
    }
    root.canonicalize().unwrap()
}

/// Passes the workers' results to the app, each with its frame, until
/// none came for `quiet`; returns the longest of those frames (a key
/// pressed meanwhile waits for it).
fn settle(s: &mut Session, quiet: Duration) -> Duration {
    let mut longest = Duration::ZERO;
    while let Ok(event) = s.rendered.recv_timeout(quiet) {
        let t = Instant::now();
        s.h.action(event);
        s.draw();
        longest = longest.max(t.elapsed());
    }
    s.draw();
    longest
}

/// The TUI as the terminal starts it, loaded, its prompt rendered.
fn start(root: &Path) -> Session {
    let (h, rendered) = Harness::open_like_terminal(root, WIDTH, HEIGHT);
    let mut s = Session {
        h,
        terminal: Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap(),
        rendered,
    };
    s.draw();
    s.loaded();
    s.prompt_ready();
    settle(&mut s, Duration::from_millis(300));
    s
}

pub fn bench(corpora: &Path, reps: usize, empty: &Samples) {
    let root = workspace(&corpora.join("tldr/pages"));
    let (mut copies, mut searches, mut clients, mut stars) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // The frames of the results the workers send back.
    let (mut found, mut viewed, mut tested) = (Vec::new(), Vec::new(), Vec::new());
    let mut what = String::new();
    let began = Instant::now();
    while copies.len() < reps.min(10)
        && (copies.len() < 3 || began.elapsed() < super::super::BUDGET)
    {
        let mut s = start(&root);
        if what.is_empty() {
            let layout = s.h.model().and_then(|m| m.prompt.clone());
            what = layout.map_or_else(String::new, |l| {
                format!(
                    "{:.1} MiB, {} lines",
                    l.bytes as f64 / 1_048_576.0,
                    l.newlines
                )
            });
        }
        // The Prompt tab, focused.
        s.key(KeyCode::Char('2'));
        s.key(KeyCode::Tab);
        s.key(KeyCode::Tab);
        settle(&mut s, Duration::from_millis(200));
        copies.push(s.key(KeyCode::Char('y')));
        assert!(s.h.status_line().contains("MiB"), "{}", s.screen());
        // The first search: the whole section is read.
        s.key(KeyCode::Char('/'));
        for c in "tar".chars() {
            s.key(KeyCode::Char(c));
        }
        searches.push(s.key(KeyCode::Enter));
        found.push(settle(&mut s, Duration::from_millis(300)));
        assert!(s.screen().contains("/tar"), "{}", s.screen());
        s.key(KeyCode::Esc);
        // A client's view.
        clients.push(s.key(KeyCode::Char('c')));
        viewed.push(settle(&mut s, Duration::from_millis(300)));
        // The tester: `**` over every subject.
        s.key(KeyCode::Esc);
        s.key(KeyCode::Char('1'));
        s.key(KeyCode::Char('g'));
        stars.push(s.key(KeyCode::Char('*')));
        stars.push(s.key(KeyCode::Char('*')));
        tested.push(settle(&mut s, Duration::from_millis(300)));
        assert!(s.screen().contains("**"), "{}", s.screen());
    }
    let n = 7_424;
    for (label, samples) in [
        (format!("tldr `**` ({what}): `y` on the Prompt tab"), copies),
        (
            format!("tldr `**` ({what}): the first `/` search (Enter)"),
            searches,
        ),
        (
            format!("tldr `**` ({what}): `c` (a client's view)"),
            clients,
        ),
        (
            format!("tldr `**` ({what}): `*` typed in the tester"),
            stars,
        ),
        (
            "… the search's matches arriving (longest frame)".to_owned(),
            found,
        ),
        (
            "… the client's view arriving (longest frame)".to_owned(),
            viewed,
        ),
        (
            "… the tester's learn output and count arriving (longest frame)".to_owned(),
            tested,
        ),
    ] {
        row(
            &label,
            n,
            &Samples(samples),
            "empty frame",
            empty,
            "≤ 50 ms",
        );
    }
}
