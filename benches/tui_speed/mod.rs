//! The rows of issue 16 ("Speed"): typing in the filter, keys near the
//! end of a long prompt, and start-up and filter on the real tldr corpus.

use std::path::Path;
use std::time::Instant;

use jp_kb::tui::app::App;
use jp_kb::tui::theme::Theme;
use jp_kb::tui::view;
use jp_kb_core::internal::subjects::walk::walk_subjects_in_one_thread;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

mod big_prompt;
mod memory;
pub mod reuse;

pub use memory::peak_memory;

use super::{BUDGET, HEIGHT, MIN_REPS, Samples, Session, WIDTH, ms, repeat, row, start};

/// The filter (`/`, issue 16): every typed character filters the rows
/// again and draws them. The first character of a query is matched
/// against every subject; the next ones extend the query. `Esc` clears
/// the filter (untimed).
pub fn bench_filter(s: &mut Session, n: usize, reps: usize, empty: &Samples) {
    let all = s.h.rows().len();
    let mut firsts = Vec::new();
    let mut nexts = Vec::new();
    let began = Instant::now();
    while firsts.len() < reps && (firsts.len() < MIN_REPS || began.elapsed() < BUDGET) {
        s.key(KeyCode::Char('/'));
        firsts.push(s.key(KeyCode::Char('d')));
        for c in "ocs".chars() {
            nexts.push(s.key(KeyCode::Char(c)));
        }
        let shown = s.h.rows().len();
        assert!(shown > 0 && shown < all, "{shown} of {all} rows for /docs");
        s.key(KeyCode::Esc);
        assert_eq!(s.h.rows().len(), all);
    }
    row(
        "filter: type the first character (`/d`)",
        n,
        &Samples(firsts),
        "empty frame",
        empty,
        "< 16 ms",
    );
    row(
        "filter: type the next characters (`/docs`)",
        n,
        &Samples(nexts),
        "empty frame",
        empty,
        "< 16 ms",
    );
}

/// Keys near the end of the Prompt tab (issue 16): `G`, then `PgUp`
/// and `k` from there. The first `G` reads the section's pieces (once;
/// not counted in the rows).
pub fn bench_prompt_end(s: &mut Session, n: usize, reps: usize, empty: &Samples) {
    let Some(layout) = s.h.model().and_then(|m| m.prompt.clone()) else {
        println!("(no prompt at {n}: prompt keys not measured)");
        return;
    };
    let tokens = s.h.model().and_then(|m| m.prompt_tokens);
    s.key(KeyCode::Char('2'));
    s.key(KeyCode::Tab);
    let read = s.key(KeyCode::Char('G'));
    let what = format!(
        "{:.1} MB, {} tokens, {} lines",
        layout.bytes as f64 / 1e6,
        tokens.unwrap_or(0),
        layout.newlines
    );
    println!(
        "(prompt at {n}: {what}; the first `G` read its pieces in {})",
        ms(read)
    );
    keys_near_end(s, (n, reps), empty, &format!("Prompt tab ({what})"));
    bench_client_view_end(s, n, reps, empty);
    s.key(KeyCode::Tab);
    s.key(KeyCode::Char('1'));
}

/// The same keys on a client's view of the prompt (`c` three times:
/// what Codex's model receives, annotated and word-wrapped). Codex is
/// the client to measure: it receives the whole section, so its view is
/// as long as the prompt (JP drops the instructions without its own
/// configuration, and Claude Code cuts them at 2,048 characters). The
/// view is computed once (not counted).
fn bench_client_view_end(s: &mut Session, n: usize, reps: usize, empty: &Samples) {
    for _ in 0..3 {
        s.key(KeyCode::Char('c'));
    }
    while s.h.model().and_then(|m| m.client_prompt("codex")).is_none() {
        let action = s.rendered.recv().expect("client view worker");
        s.h.action(action);
    }
    s.draw();
    let first = s.key(KeyCode::Char('G'));
    println!(
        "(Codex's view at {n}: the first `G` laid out all its rows in {})",
        ms(first)
    );
    let lines = s.screen();
    assert!(
        lines.contains("Codex") && !lines.contains("nothing arrives"),
        "not Codex's whole view:\n{lines}"
    );
    keys_near_end(s, (n, reps), empty, "Prompt tab, Codex's view (`c`)");
    // Back to the RFD's view: Codex → RFD.
    s.key(KeyCode::Char('c'));
}

/// Times `G`, then `PgUp` and `k` from there, on the preview at its end,
/// and prints a row for each key, named after `what`.
fn keys_near_end(s: &mut Session, (n, reps): (usize, usize), empty: &Samples, what: &str) {
    let (mut ends, mut pgups, mut ups) = (Vec::new(), Vec::new(), Vec::new());
    let began = Instant::now();
    while ends.len() < reps && (ends.len() < MIN_REPS || began.elapsed() < BUDGET) {
        ends.push(s.key(KeyCode::Char('G')));
        pgups.push(s.key(KeyCode::PageUp));
        ups.push(s.key(KeyCode::Char('k')));
        ups.push(s.key(KeyCode::Char('k')));
        pgups.push(s.key(KeyCode::PageUp));
    }
    for (label, samples) in [("`G`", ends), ("`PgUp`", pgups), ("`k`", ups)] {
        row(
            &format!("{what}: {label} near the end"),
            n,
            &Samples(samples),
            "empty frame",
            empty,
            "< 16 ms",
        );
    }
}

/// The real tldr corpus beside the checkout (`../shared/corpora`, read
/// only): topics `tldr` (all pages) and `tldr-en` (a subtree of it).
pub fn bench_real(reps: usize) {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    if !corpora.join(".jp/config.toml").exists() {
        println!("(../shared/corpora missing: the tldr rows not measured)");
        return;
    }
    let root = corpora.canonicalize().unwrap();
    let dirs = [root.join("tldr"), root.join("tldr/pages")];
    let mut n = 0;
    let mut walks = Vec::new();
    let mut finds = Vec::new();
    let mut rows = Vec::new();
    let mut loads = Vec::new();
    let mut terminal_rows = Vec::new();
    let mut terminal_loads = Vec::new();
    // Interleaved (find, walk, start, …): load from other processes on
    // the machine hits all three alike.
    let starts = repeat(reps.min(10), || {
        let t = Instant::now();
        let listed = std::process::Command::new("find")
            .args(&dirs)
            .args(["-type", "f"])
            .output()
            .expect("find");
        assert!(listed.status.success());
        finds.push(t.elapsed());
        let t = Instant::now();
        n = dirs
            .iter()
            .map(|d| walk_subjects_in_one_thread(d, &root).subjects.len())
            .sum();
        walks.push(t.elapsed());
        let (_, first, listed, loaded, _) = start(&root);
        rows.push(listed);
        loads.push(loaded);
        let (listed, loaded) = first_rows_like_terminal(&root);
        terminal_rows.push(listed);
        terminal_loads.push(loaded);
        first
    });
    let walk = Samples(walks);
    let find = Samples(finds);
    let base = "`walk_subjects` of both topics (1 thread)";
    row("tldr: start → first frame", n, &starts, base, &walk, "");
    row(
        "tldr: … → first frame with subject rows (the listing; from start)",
        n,
        &Samples(rows.clone()),
        base,
        &walk,
        "≤ 1.0x",
    );
    row(
        "tldr: … → first frame with subject rows (the listing; from start)",
        n,
        &Samples(rows),
        "`find` of both trees (a process)",
        &find,
        "≤ 1.5x",
    );
    row(
        "tldr: … the same, every worker of the terminal running",
        n,
        &Samples(terminal_rows),
        "`find` of both trees (a process)",
        &find,
        "≤ 1.5x",
    );
    row(
        "tldr: … → the loaded frame (sizes, counts; from start)",
        n,
        &Samples(loads),
        "`find` of both trees (a process)",
        &find,
        "",
    );
    row(
        "tldr: … the same, every worker of the terminal running",
        n,
        &Samples(terminal_loads),
        "`find` of both trees (a process)",
        &find,
        "",
    );
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
    let (mut s, _, _, _, _) = start(&root);
    s.key(KeyCode::Tab);
    let shown = s.h.rows().len();
    bench_filter(&mut s, shown, reps, &empty);
    drop(s);
    big_prompt::bench(&root, reps, &empty);
}

/// From nothing to the first frame with subject rows (the listing's),
/// then to the loaded frame, as the terminal starts: every worker
/// running (the rows' token counts among them, so the frame reads no
/// subject file).
fn first_rows_like_terminal(root: &Path) -> (std::time::Duration, std::time::Duration) {
    let t = Instant::now();
    let (h, rendered) = jp_kb::tui::harness::Harness::open_like_terminal(root, WIDTH, HEIGHT);
    let mut s = Session {
        h,
        terminal: Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap(),
        rendered,
    };
    s.draw();
    s.rows_shown();
    let rows = t.elapsed();
    s.loaded();
    (rows, t.elapsed())
}

/// The tester's cost line in disabled mode (issue 14 item 6): every key
/// re-plans the entry, counting what it newly disables (hidden ones
/// apart) and the prompt's token change; `**` selects every subject.
pub fn bench_tester_cost(s: &mut Session, n: usize, reps: usize, empty: &Samples, target: &str) {
    let mut costs = Vec::new();
    let began = Instant::now();
    while costs.len() < reps && (costs.len() < MIN_REPS || began.elapsed() < BUDGET) {
        s.key(KeyCode::Char('g'));
        s.key(KeyCode::Tab);
        costs.push(s.key(KeyCode::Char('*')));
        costs.push(s.key(KeyCode::Char('*')));
        assert!(
            s.h.tester()
                .is_some_and(|t| t.to_disabled && !t.cost.is_empty()),
            "the tester shows a cost in disabled mode"
        );
        s.key(KeyCode::Esc);
    }
    row(
        "tester, disabled mode: type `*` (re-plan + cost of `**`)",
        n,
        &Samples(costs),
        "empty frame",
        empty,
        target,
    );
}
