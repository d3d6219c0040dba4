//! CLI benchmarks (issue 6): whole-process wall time of `jp-kb` commands
//! against a baseline doing the same I/O with standard tools, run
//! alternately in the same process so machine drift affects both.
//!
//! `cargo bench --bench cli` (add `-- quick` for 1k/10k only). Prints a
//! Markdown table; the figures in docs/perf.md come from it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

mod corpus;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 7;

fn time(cmd: &mut Command) -> Duration {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("command starts");
    let elapsed = start.elapsed();
    assert!(
        status.success(),
        "{} failed: {status}",
        cmd.get_program().to_string_lossy()
    );
    elapsed
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs `a` and `b` alternately (one warm-up each), returns the medians
/// and the median of the per-pair ratios.
fn pair(
    mut a: impl FnMut() -> Command,
    mut b: impl FnMut() -> Command,
) -> (Duration, Duration, f64) {
    time(&mut a());
    time(&mut b());
    let (mut ta, mut tb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let x = time(&mut a());
        let y = time(&mut b());
        ratios.push(x.as_secs_f64() / y.as_secs_f64());
        ta.push(x);
        tb.push(y);
    }
    ratios.sort_by(f64::total_cmp);
    (median(ta), median(tb), ratios[ratios.len() / 2])
}

fn jp_kb(root: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jp-kb"));
    c.env("JP_GLOBAL_CONFIG_DIR", root.join(".no-global"))
        .env("JP_USER_DATA_DIR", root.join(".no-data"))
        .arg("--workspace")
        .arg(root);
    c
}

fn row(what: &str, n: usize, baseline: &str, (a, b, r): (Duration, Duration, f64), target: &str) {
    println!(
        "| {what} | {n} | {:.1} ms | {baseline} {:.1} ms | {r:.2}x | {target} |",
        a.as_secs_f64() * 1e3,
        b.as_secs_f64() * 1e3
    );
}

fn cat_files(files: &[PathBuf]) -> Command {
    let mut c = Command::new("cat");
    c.args(files);
    c
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let sizes: &[usize] = if quick {
        &[1_000, 10_000]
    } else {
        &[1_000, 10_000, 100_000]
    };
    println!("| command | subjects | jp-kb | baseline | ratio | target |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for &n in sizes {
        let g = corpus::generate(&base, n).expect("generate corpus");
        let root = g.root.clone();
        let dir = g.topic_dir.clone();
        row(
            "`list bench --all --json`",
            n,
            "`find -printf '%s %p'`",
            pair(
                || {
                    let mut c = jp_kb(&root);
                    c.args(["list", "bench", "--all", "--json"]);
                    c
                },
                || {
                    let mut c = Command::new("find");
                    c.arg(&dir).args(["-type", "f", "-printf", "%s %p\\n"]);
                    c
                },
            ),
            if n == 100_000 { "≤ 1.5x" } else { "" },
        );
        if n > 10_000 {
            continue;
        }
        // Every non-hidden subject: what `learned = ["**"]` pre-loads.
        let visible: Vec<PathBuf> = g
            .files
            .iter()
            .filter(|p| {
                !p.strip_prefix(&dir)
                    .unwrap()
                    .components()
                    .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
            })
            .cloned()
            .collect();
        row(
            "`prompt` (`learned = [\"**\"]`)",
            n,
            "`cat` of the files",
            pair(
                || {
                    let mut c = jp_kb(&root);
                    c.args([
                        "--cfg",
                        "kb.topic.all.enable=true",
                        "--cfg",
                        "kb.topic.bench.enable=false",
                        "prompt",
                    ]);
                    c
                },
                || cat_files(&visible),
            ),
            if n == 10_000 { "≤ 2x" } else { "" },
        );
        row(
            "`learn bench '**'`",
            n,
            "`cat` of the files",
            pair(
                || {
                    let mut c = jp_kb(&root);
                    c.args(["learn", "bench", "**"]);
                    c
                },
                || cat_files(&visible),
            ),
            "",
        );
    }
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    if corpora.join(".jp/config.toml").exists() {
        let tldr = corpora.join("tldr");
        row(
            "`list tldr --all --json` (real corpus)",
            38_406,
            "`find -printf '%s %p'`",
            pair(
                || {
                    let mut c = jp_kb(&corpora);
                    c.args(["list", "tldr", "--all", "--json"]);
                    c
                },
                || {
                    let mut c = Command::new("find");
                    c.arg(&tldr).args(["-type", "f", "-printf", "%s %p\\n"]);
                    c
                },
            ),
            "",
        );
        let en = corpora.join("tldr/pages");
        let files: Vec<PathBuf> = walkdir::WalkDir::new(&en)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(walkdir::DirEntry::into_path)
            .collect();
        row(
            "`learn tldr-en '**'` (real corpus)",
            files.len(),
            "`cat` of the files",
            pair(
                || {
                    let mut c = jp_kb(&corpora);
                    c.args(["learn", "tldr-en", "**"]);
                    c
                },
                || cat_files(&files),
            ),
            "",
        );
    }
}
