//! Issue 37 item 4 on a ~20 MiB prompt: figures computed once are
//! reused. A copy of every tldr page (all languages, 38k subjects) in one
//! topic, beside the English pages again in a second topic that pre-loads
//! them all (4.4 MiB). The tester counts `**` over the first topic (the
//! planned section, ~20 MiB); Enter and the confirmation make the change,
//! and the row times how long the status line then waits for the prompt's
//! count, which the tester had just computed. Then each client's view of
//! that section (`c`): from the key until the view arrives.
//!
//! `cargo bench --bench tui -- big` (needs `../shared/corpora`; the
//! workspace is copied once under `target/bench-data/tldr-big`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jp_kb::tui::app::Mode;
use jp_kb::tui::harness::Harness;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

use super::super::{HEIGHT, Samples, Session, WIDTH, row};

const KB: &str = "[kb.topic.tldr]\nsubjects = \"tldr\"\n\n\
                  [kb.topic.again]\nsubjects = \"again\"\nlearned = [\"**\"]\n";

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The workspace under `target/bench-data/tldr-big`, copied once.
fn workspace(tldr: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/tldr-big");
    let marker = root.join(".complete");
    if !marker.exists() {
        let _ = std::fs::remove_dir_all(&root);
        copy_tree(tldr, &root.join("tldr"));
        copy_tree(&tldr.join("pages"), &root.join("again"));
        std::fs::create_dir_all(root.join(".jp")).unwrap();
        std::fs::write(&marker, "").unwrap();
    }
    // Every run starts from the same configuration (an interrupted run
    // may have left `**` learned).
    std::fs::write(root.join(".jp/kb.toml"), KB).unwrap();
    root.canonicalize().unwrap()
}

/// Passes what the workers send until `done` holds; how long it took.
fn until(s: &mut Session, what: &str, done: impl Fn(&Session) -> bool) -> Duration {
    let t = Instant::now();
    while !done(s) {
        let event = s
            .rendered
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("waiting for {what}"));
        s.h.action(event);
        s.draw();
    }
    t.elapsed()
}

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
    s
}

/// The section's count as the status line shows it (before the layout,
/// which the Prompt tab waits for, has arrived).
fn prompt_tokens(s: &Session) -> Option<usize> {
    s.h.model()?.section_tokens().filter(|&n| n > 0)
}

pub fn bench(reps: usize) {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    if !corpora.join("tldr/pages").is_dir() {
        println!("(../shared/corpora missing: the big prompt rows not measured)");
        return;
    }
    let tldr = corpora.join("tldr").canonicalize().unwrap();
    let mut counts = Vec::new();
    let mut clients: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut what = String::new();
    let began = Instant::now();
    while counts.len() < reps.min(5) && (counts.len() < 3 || began.elapsed() < super::super::BUDGET)
    {
        let root = workspace(&tldr);
        let mut s = start(&root);
        let before = prompt_tokens(&s).expect("the prompt's count");
        // The tester on topic `tldr`: `**`, its count awaited.
        s.key(KeyCode::Home);
        while s.h.topic_state().is_some_and(|t| t.id() != "tldr") {
            s.key(KeyCode::Down);
        }
        s.key(KeyCode::Char('g'));
        s.key(KeyCode::Char('*'));
        s.key(KeyCode::Char('*'));
        until(&mut s, "the tester's count", |s| {
            let Some(t) = s.h.tester() else {
                return false;
            };
            t.plan
                .as_ref()
                .is_some_and(|p| s.h.planned_count(&p.steps).is_some())
        });
        // Enter proposes; over the budget it asks; Enter confirms.
        s.key(KeyCode::Enter);
        if matches!(s.h.mode(), Mode::Choice(_)) {
            until(
                &mut s,
                "the confirmation's count",
                |s| matches!(s.h.mode(), Mode::Choice(c) if !c.waiting),
            );
            s.key(KeyCode::Enter);
        }
        let t = Instant::now();
        until(&mut s, "the new prompt's count", |s| {
            prompt_tokens(s).is_some_and(|n| n != before)
        });
        counts.push(t.elapsed());
        // The layout (untimed): the client views below start from it.
        until(&mut s, "the new prompt's layout", |s| {
            s.h.model().is_some_and(|m| m.prompt_ready)
        });
        if what.is_empty()
            && let Some(layout) = s.h.model().and_then(|m| m.prompt.as_ref())
        {
            what = format!(
                "{:.1} MiB, {} tokens",
                layout.bytes as f64 / 1_048_576.0,
                prompt_tokens(&s).unwrap_or(0)
            );
        }
        // Each client's view of the new section.
        s.key(KeyCode::Char('2'));
        for samples in &mut clients {
            let t = Instant::now();
            s.key(KeyCode::Char('c'));
            let client = s.h.prompt_client().unwrap().to_owned();
            until(&mut s, "the client's view", |s| {
                s.h.model()
                    .is_some_and(|m| m.client_prompt(&client).is_some())
            });
            samples.push(t.elapsed());
        }
    }
    row(
        &format!("`**` confirmed ({what}): Enter → the status line's prompt count"),
        38_405 + 7_424,
        &Samples(counts),
        "",
        &Samples(vec![Duration::from_millis(500)]),
        "≤ 500 ms",
    );
    for (client, samples) in ["JP", "Claude Code", "Codex"].iter().zip(clients) {
        row(
            &format!("… `c`: {client}'s view arriving"),
            38_405 + 7_424,
            &Samples(samples),
            "",
            &Samples(vec![Duration::from_millis(500)]),
            "≤ 500 ms",
        );
    }
}
