//! TUI benchmarks (issue 6): start-up to the first frame and one key press
//! to the next frame, in-process on ratatui's `TestBackend`, through the
//! real key map, `update`, driver (edits written through the edit core)
//! and views; then the peak memory of the real binary in tmux.
//!
//! `cargo bench --bench tui` (add `-- quick` for 1k/10k only, `only=N`
//! for N subjects only; `reps=N` for N repetitions per key, default 30;
//! `nomem` skips the tmux run; `real` adds the tldr rows to `only=N`;
//! `big` runs only the rows of a ~20 MiB prompt, `tui_speed/reuse.rs`).
//! Prints a Markdown table; the figures in docs/perf.md come from it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

mod corpus;
#[path = "tui_speed/mod.rs"]
mod speed;

use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use jp_kb::tui::app::App;
use jp_kb::tui::event::Event;
use jp_kb::tui::harness::Harness;
use jp_kb::tui::theme::Theme;
use jp_kb::tui::tree::RowKind;
use jp_kb::tui::view;
use jp_kb_core::internal::subjects::walk::walk_subjects_in_one_thread;
use jp_kb_core::internal::subjects::walk_subjects;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const WIDTH: u16 = 160;
const HEIGHT: u16 = 48;
/// A measurement stops early (with at least `MIN_REPS` samples) once it
/// has run this long, so a slow build still finishes.
const BUDGET: Duration = Duration::from_secs(60);
const MIN_REPS: usize = 5;

/// Samples of one measurement.
struct Samples(Vec<Duration>);

impl Samples {
    fn median(&self) -> Duration {
        let mut v = self.0.clone();
        v.sort();
        v[v.len() / 2]
    }

    fn max(&self) -> Duration {
        self.0.iter().copied().max().unwrap_or_default()
    }
}

fn ms(d: Duration) -> String {
    let v = d.as_secs_f64() * 1e3;
    if v < 10.0 {
        format!("{v:.2} ms")
    } else {
        format!("{v:.1} ms")
    }
}

/// The app on a persistent `TestBackend` terminal: a frame after every
/// key, as the event loop draws one.
struct Session {
    h: Harness,
    terminal: Terminal<TestBackend>,
    /// The prompt worker's results (the terminal polls these).
    rendered: Receiver<Event>,
}

impl Session {
    /// Draws a frame and records its layout in the state, as the
    /// terminal does.
    fn draw(&mut self) {
        self.h.draw_on(&mut self.terminal);
    }

    /// Presses one key and draws the next frame; returns the time taken.
    /// (Not `Harness::press`, which draws on a terminal of its own.)
    fn key(&mut self, code: KeyCode) -> Duration {
        let start = Instant::now();
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        if let Some(command) = self.h.command_for(&key) {
            self.h.action(command);
        }
        self.draw();
        start.elapsed()
    }

    /// Waits for the first subject rows (the selected topic's listing,
    /// or the load if it comes first) and draws the frame showing them.
    fn rows_shown(&mut self) {
        while self.h.model().is_none() && self.h.listed_subjects().is_none() {
            let action = self.rendered.recv().expect("loader");
            self.h.action(action);
        }
        self.draw();
    }

    /// Waits for the background load and draws the frame showing it.
    fn loaded(&mut self) {
        while self.h.model().is_none() {
            let action = self.rendered.recv().expect("loader");
            self.h.action(action);
        }
        self.draw();
    }

    /// Waits for the background prompt of the current load and draws the
    /// frame showing it; returns the time taken.
    fn prompt_ready(&mut self) -> Duration {
        let start = Instant::now();
        while !self.h.model().is_some_and(|m| m.prompt_ready) {
            let action = self.rendered.recv().expect("prompt worker");
            self.h.action(action);
        }
        self.draw();
        start.elapsed()
    }

    fn screen(&self) -> String {
        jp_kb::tui::harness::buffer_text(self.terminal.backend().buffer())
    }
}

/// From nothing to the first frame, as the terminal starts: load the
/// configuration, draw the topics from it (the walks, the resolutions and
/// what the loaded screen reads run on a worker), draw.
///
/// The second duration is from the start to the first frame with
/// subject rows (the listing's); the third, from the start to the frame
/// showing the loaded subjects; the fourth, from that frame to the frame
/// showing the prompt (rendered in the background, as in the terminal).
fn start(root: &Path) -> (Session, Duration, Duration, Duration, Duration) {
    let t = Instant::now();
    let (h, rendered) = Harness::open_loading(root, WIDTH, HEIGHT, true, true);
    let mut s = Session {
        h,
        terminal: Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("terminal"),
        rendered,
    };
    s.draw();
    let first = t.elapsed();
    assert!(s.h.is_loading(), "the first frame came before the load");
    s.rows_shown();
    let rows = t.elapsed();
    s.loaded();
    let loaded = t.elapsed();
    let prompt = s.prompt_ready();
    (s, first, rows, loaded, prompt)
}

/// Repeats `f` up to `reps` times (within the budget).
fn repeat(reps: usize, mut f: impl FnMut() -> Duration) -> Samples {
    let began = Instant::now();
    let mut v = Vec::with_capacity(reps);
    while v.len() < reps && (v.len() < MIN_REPS || began.elapsed() < BUDGET) {
        v.push(f());
    }
    Samples(v)
}

fn row(what: &str, n: usize, s: &Samples, base_name: &str, base: &Samples, target: &str) {
    let ratio = s.median().as_secs_f64() / base.median().as_secs_f64();
    println!(
        "| {what} | {n} | {} | {} | {} | {base_name} {} | {ratio:.1}x | {target} |",
        ms(s.median()),
        ms(s.max()),
        s.0.len(),
        ms(base.median()),
    );
}

/// Selects the `nth` available subject's row (an `l` on it adds its
/// exact slug to `learned`: a write, a reload, no dialog), and reads what
/// the new selection shows, as the move to it would have (untimed: it is
/// the cost of a move, not of the key measured next).
fn select_available(s: &mut Session, nth: usize) {
    let res = s.h.resolution().expect("resolution");
    let rows = s.h.rows();
    let k = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.kind, RowKind::Subject(i) if res.is_available(i)))
        .nth(nth)
        .map(|(k, _)| k)
        .expect("an available subject");
    s.h.select_row(k);
    s.draw();
}

fn bench_size(root: &Path, topic_dir: &Path, n: usize, reps: usize) {
    // Baselines of this run: a bare walk of the tree on one thread (what
    // any start-up must pay without a second core), an empty frame.
    let canonical = root.canonicalize().unwrap();
    let bare_walk = || {
        let t = Instant::now();
        let w = walk_subjects_in_one_thread(topic_dir, &canonical);
        assert!(w.subjects.len() >= n * 9 / 10);
        t.elapsed()
    };
    let mut empty_term = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    let empty_app = App::new(Theme { color: true }, (WIDTH, HEIGHT));
    let empty = repeat(reps.max(30), || {
        let t = Instant::now();
        empty_term
            .draw(|f| {
                view::render(&empty_app, f);
            })
            .expect("draw");
        t.elapsed()
    });

    // Interleaved (walk, parallel walk, start, …), so load from other
    // processes on the machine hits all three alike.
    let mut walks = Vec::new();
    let mut parallel = Vec::new();
    let mut prompts = Vec::new();
    let mut loads = Vec::new();
    let starts = repeat(reps.min(10), || {
        walks.push(bare_walk());
        let t = Instant::now();
        let w = walk_subjects(topic_dir, &canonical);
        assert!(w.subjects.len() >= n * 9 / 10);
        parallel.push(t.elapsed());
        let (_, first, _, loaded, prompt) = start(root);
        loads.push(loaded);
        prompts.push(prompt);
        first
    });
    let walk = Samples(walks);
    row(
        "`walk_subjects` (all cores)",
        n,
        &Samples(parallel),
        "`walk_subjects` (1 thread)",
        &walk,
        "",
    );
    row(
        "start → first frame",
        n,
        &starts,
        "`walk_subjects` (1 thread)",
        &walk,
        if n == 100_000 { "< 100 ms" } else { "" },
    );
    row(
        "… → subjects loaded (walks in background; from start)",
        n,
        &Samples(loads),
        "`walk_subjects` (1 thread)",
        &walk,
        if n == 100_000 { "≤ 1.0x" } else { "" },
    );
    row(
        "… then → prompt rendered (background)",
        n,
        &Samples(prompts),
        "`walk_subjects` (1 thread)",
        &walk,
        "",
    );
    let (mut s, _, _, _, _) = start(root);
    assert!(s.screen().contains("Subjects of bench"), "{}", s.screen());
    let target = if n == 100_000 { "< 16 ms" } else { "" };

    // Subjects pane focused, on an available subject.
    s.key(KeyCode::Tab);
    select_available(&mut s, 0);
    s.key(KeyCode::Down);
    s.key(KeyCode::Up);
    let mut downs = Vec::new();
    let mut ups = Vec::new();
    let began = Instant::now();
    while downs.len() < reps && (downs.len() < MIN_REPS || began.elapsed() < BUDGET) {
        downs.push(s.key(KeyCode::Down));
        ups.push(s.key(KeyCode::Up));
    }
    row(
        "move down (`j`)",
        n,
        &Samples(downs),
        "empty frame",
        &empty,
        target,
    );
    row(
        "move up (`k`)",
        n,
        &Samples(ups),
        "empty frame",
        &empty,
        target,
    );

    // Toggle learned (write + re-resolve), then undo (write + re-resolve).
    let config = root.join(".jp/config.toml");
    let original = std::fs::read(&config).unwrap();
    let mut toggles = Vec::new();
    let mut undos = Vec::new();
    let mut toggle_prompts = Vec::new();
    let began = Instant::now();
    while toggles.len() < reps && (toggles.len() < MIN_REPS || began.elapsed() < BUDGET) {
        // A different subject each time: no resolution kept from before.
        select_available(&mut s, toggles.len());
        toggles.push(s.key(KeyCode::Char('l')));
        let status = s.h.status_line();
        assert!(
            !s.h.status_is_error() && status.contains("added"),
            "{status:?}"
        );
        toggle_prompts.push(s.prompt_ready());
        undos.push(s.key(KeyCode::Char('u')));
        let status = s.h.status_line();
        assert!(
            !s.h.status_is_error() && status.contains("undid"),
            "{status:?}"
        );
        s.prompt_ready();
    }
    assert_eq!(std::fs::read(&config).unwrap(), original);
    row(
        "toggle learned (`l`: write + re-resolve)",
        n,
        &Samples(toggles),
        "`walk_subjects` (1 thread)",
        &walk,
        target,
    );
    row(
        "… then → prompt re-rendered (background)",
        n,
        &Samples(toggle_prompts),
        "`walk_subjects` (1 thread)",
        &walk,
        "",
    );
    row(
        "undo (`u`: write + re-resolve)",
        n,
        &Samples(undos),
        "`walk_subjects` (1 thread)",
        &walk,
        "",
    );

    // A subject file saved outside (the watcher's event): reload with the
    // walk patched for that file, resolve again, draw. The terminal runs
    // this on its reload worker; here it runs on the bench's thread.
    let file =
        s.h.resolution()
            .map(|r| r.subjects()[r.subjects().len() / 2].path().to_path_buf())
            .expect("a subject");
    let original_text = std::fs::read(&file).unwrap();
    let mut saves = Vec::new();
    let began = Instant::now();
    while saves.len() < reps.min(10) && (saves.len() < MIN_REPS || began.elapsed() < BUDGET) {
        let mut text = original_text.clone();
        text.extend(std::iter::repeat_n(b'x', saves.len() + 1));
        std::fs::write(&file, &text).unwrap();
        let t = Instant::now();
        s.h.action(Event::FilesChanged(vec![file.clone()]));
        s.draw();
        saves.push(t.elapsed());
        s.prompt_ready();
    }
    std::fs::write(&file, &original_text).unwrap();
    s.h.action(Event::FilesChanged(vec![file.clone()]));
    s.prompt_ready();
    row(
        "a subject file saved outside (reload, walk patched)",
        n,
        &Samples(saves),
        "`walk_subjects` (1 thread)",
        &walk,
        "",
    );

    // The filter (issue 16): each typed character re-ranks every subject
    // with nucleo-matcher and draws the highlighted rows; Esc clears.
    let mut filter_keys = Vec::new();
    let began = Instant::now();
    while filter_keys.len() < reps && (filter_keys.len() < MIN_REPS || began.elapsed() < BUDGET) {
        s.key(KeyCode::Char('/'));
        for ch in ['t', 'a', 'r'] {
            filter_keys.push(s.key(KeyCode::Char(ch)));
        }
        s.key(KeyCode::Esc);
    }
    row(
        "filter: type one character (nucleo rank + highlight)",
        n,
        &Samples(filter_keys),
        "empty frame",
        &empty,
        if n >= 45_000 { "≤ 16 ms" } else { "" },
    );

    // Pattern tester: open, type one character, close (untimed).
    let mut opens = Vec::new();
    let mut types = Vec::new();
    let began = Instant::now();
    while opens.len() < reps && (opens.len() < MIN_REPS || began.elapsed() < BUDGET) {
        opens.push(s.key(KeyCode::Char('g')));
        types.push(s.key(KeyCode::Char('a')));
        s.key(KeyCode::Esc);
    }
    row(
        "open pattern tester (`g`)",
        n,
        &Samples(opens),
        "empty frame",
        &empty,
        "",
    );
    row(
        "type one character in the tester",
        n,
        &Samples(types),
        "empty frame",
        &empty,
        target,
    );

    speed::bench_tester_cost(&mut s, n, reps, &empty, target);

    // Preview tab to Prompt, and back to Subject (untimed).
    let prompt = repeat(reps, || {
        let d = s.key(KeyCode::Char('2'));
        s.key(KeyCode::Char('1'));
        d
    });
    row(
        "preview tab → Prompt (`2`)",
        n,
        &prompt,
        "empty frame",
        &empty,
        "",
    );

    speed::bench_filter(&mut s, n, reps, &empty);
    speed::bench_prompt_end(&mut s, n, reps, &empty);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "quick");
    let reps = args
        .iter()
        .find_map(|a| a.strip_prefix("reps="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let only: Option<usize> = args
        .iter()
        .find_map(|a| a.strip_prefix("only="))
        .and_then(|v| v.parse().ok());
    let sizes: Vec<usize> = match only {
        Some(n) => vec![n],
        None if quick => vec![1_000, 10_000],
        None => vec![1_000, 10_000, 100_000],
    };
    println!(
        "| measurement | subjects | median | max | runs | baseline (median) | ratio | target |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |");
    if args.iter().any(|a| a == "big") {
        speed::reuse::bench(reps);
        return;
    }
    let mut last = None;
    for &n in &sizes {
        let g = corpus::generate(&base, n).expect("generate corpus");
        assert_eq!(g.files.len(), n);
        bench_size(&g.root, &g.topic_dir, n, reps);
        last = Some(g.root);
    }
    if args.iter().any(|a| a == "real") || (only.is_none() && !quick) {
        speed::bench_real(reps);
    }
    if let Some(root) = last.filter(|_| !args.iter().any(|a| a == "nomem")) {
        // The peak depends on how the workers' runs overlap: 5 runs.
        let mut runs: Vec<(u64, u64)> = (0..5)
            .filter_map(|run| speed::peak_memory(&root, run))
            .collect();
        runs.sort_unstable();
        if let (Some(median), Some(max)) = (runs.get(runs.len() / 2), runs.last()) {
            println!(
                "peak memory (VmHWM) of `jp-kb tui` at {}: median {:.1} MB, max {:.1} MB over {} runs (VmRSS at the end of the median run {:.1} MB)",
                root.display(),
                median.0 as f64 / 1024.0,
                max.0 as f64 / 1024.0,
                runs.len(),
                median.1 as f64 / 1024.0
            );
        }
    }
}
