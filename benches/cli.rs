//! CLI benchmarks (issue 6): whole-process wall time of `jp-kb` commands
//! against a baseline doing the same I/O with standard tools, run
//! alternately in the same process so machine drift affects both.
//!
//! `cargo bench --bench cli` (add `-- quick` for 1k/10k only, `-- check`
//! for only `check` against `list` with 16k/100k findings). Prints a
//! Markdown table; the figures in docs/perf.md come from it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

mod corpus;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[path = "bench_support/process.rs"]
mod process;
use process::{median, time};

const RUNS: usize = 7;

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

/// A workspace whose topic `t` (20 subjects) has `n` `learned` entries
/// that select nothing: `n` KB102 findings, all in one config file.
fn unmatched_patterns_workspace(base: &Path, n: usize) -> PathBuf {
    let root = base.join(format!("unmatched-{n}"));
    let config = root.join(".jp/config.toml");
    if config.exists() {
        return root;
    }
    std::fs::create_dir_all(root.join(".jp")).unwrap();
    std::fs::create_dir_all(root.join("kb")).unwrap();
    for i in 0..20 {
        std::fs::write(root.join(format!("kb/subject-{i}.md")), format!("# {i}\n")).unwrap();
    }
    let mut text = String::from(
        "[kb.topic.t]\ntitle = \"T\"\nintroduction = \"Unmatched entries.\"\nsubjects = \"kb\"\nlearned = [\n",
    );
    for i in 0..n {
        let _ = writeln!(text, "  \"missing/entry-{i}\",");
    }
    text.push_str("]\n");
    std::fs::write(&config, text).unwrap();
    root
}

/// Issue 12, item 12: `check` against `list` on a config whose `n`
/// entries each become a finding. Linear `check` keeps the ratio flat as
/// `n` grows.
fn check_rows(base: &Path, quick: bool) {
    let sizes: &[usize] = if quick { &[16_000] } else { &[16_000, 100_000] };
    for &n in sizes {
        let root = unmatched_patterns_workspace(base, n);
        for (what, args) in [
            ("`check --json` (KB102 per entry)", &["check", "--json"][..]),
            ("`check` (human, a snippet per entry)", &["check"][..]),
        ] {
            row(
                what,
                n,
                "`list --json`",
                pair(
                    || {
                        let mut c = jp_kb(&root);
                        c.args(args);
                        c
                    },
                    || {
                        let mut c = jp_kb(&root);
                        c.args(["list", "--json"]);
                        c
                    },
                ),
                "linear: ratio flat in n",
            );
        }
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    if std::env::args().any(|a| a == "check") {
        // Only the `check` rows: `cargo bench --bench cli -- check`.
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
        println!("| command | learned entries | jp-kb | baseline | ratio | target |");
        println!("| --- | --- | --- | --- | --- | --- |");
        check_rows(&base, quick);
        return;
    }
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
    check_rows(&base, quick);
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
