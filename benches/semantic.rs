//! Search by meaning (contract §10) on tldr's English pages (7,425, copied
//! from `../shared/corpora` into `target/bench-semantic`), with the
//! all-MiniLM-L6-v2 of `tests/semantic/setup.sh`:
//!
//! - quality: recall@5 of the lexical, semantic and hybrid modes on the
//!   held-out questions of `benches/heldout/` (written by someone who never
//!   saw the ranking, before any measurement; measured once);
//! - speed, as whole processes, on the first 500 pages of tldr's
//!   `pages/common` as a workspace of their own (the size of JP's
//!   documentation with a skills tree): a warm one-off hybrid query
//!   (target ≤ 0.15 s, model included), a lexical one beside it, and the
//!   query after one changed subject (target ≤ 1 s);
//! - `cargo bench --bench semantic -- first-build`: the first build of the
//!   embeddings (minutes; not run by default);
//! - `cargo bench --bench semantic -- jp-docs=DIR`: recall@5 of the three
//!   modes on `benches/heldout3/` (questions over JP's documentation),
//!   with `DIR` the `docs/` of a checkout of github.com/dcdpr/jp (the set
//!   names its commit) copied into a workspace of its own.
//!
//! The indexes are this user's cache of that workspace, kept between runs.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::cast_precision_loss)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::search::index_dir;
use jp_kb_core::search::semantic::Semantic;
use jp_kb_core::search::{Mode, SearchRequest, Searcher};
use jp_kb_core::{Environment, LoadOptions};

#[path = "bench_support/process.rs"]
mod process;
use process::{median, ms, time};

#[path = "semantic_support/sweep.rs"]
mod sweep;

const RUNS: usize = 9;
const QUERY: &str = "is that server answering at all";
/// A new question each run: pages read for one question must not
/// flatter the figure.
const QUESTIONS: [&str; RUNS] = [
    "is that server answering at all",
    "show what is filling up my disk",
    "read the system logs from the last boot",
    "pack a folder into one compressed file",
    "which program is listening on a port",
    "turn a picture into another format",
    "rename a lot of files at once",
    "replace words inside a text file",
    "download a web page from a terminal",
];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let pages = root.join("../shared/corpora/tldr/pages");
    let model = root.join("target/models/all-minilm-l6-v2");
    if !pages.is_dir() || !model.join("model.safetensors").is_file() {
        println!("semantic: skipped (needs ../shared/corpora and bash tests/semantic/setup.sh)");
        return;
    }
    let base = root.join("target/bench-semantic");
    if let Some(docs) = std::env::args().find_map(|a| a.strip_prefix("jp-docs=").map(PathBuf::from))
    {
        let ws = prepare(
            &docs,
            &base.join("jp-docs"),
            "jp-docs",
            "JP's documentation",
        );
        // Built before anything is measured.
        time(&mut search(&ws, &model, "hybrid", QUERY));
        quality(&ws, &model, &[root.join("benches/heldout3")], "jp-docs");
        return;
    }
    let ws = prepare(&pages, &base.join("ws"), "tldr-en", "tldr pages, English");
    if std::env::args().any(|a| a == "sweep") {
        let (kb, mut searcher, mut semantic) = open(&ws, &model);
        sweep::sweep(&root, &kb, &mut searcher, &mut semantic);
        return;
    }
    let first_build = std::env::args().any(|a| a == "first-build");
    if first_build && let Some(dir) = index_dir(&ws) {
        let _ = std::fs::remove_dir_all(dir);
    }
    // Built (or brought up to date) before anything is timed.
    let built = time(&mut search(&ws, &model, "hybrid", QUERY));
    if first_build {
        println!(
            "first build of the embeddings, 7,425 pages: {:.1} min",
            built.as_secs_f64() / 60.0
        );
    }
    let small = prepare_first(&pages.join("common"), 500, &base.join("ws500"));
    time(&mut search(&small, &model, "hybrid", QUERY));
    speed(&small, &model);
    quality(
        &ws,
        &model,
        &[root.join("benches/heldout"), root.join("benches/heldout2")],
        "tldr-en",
    );
}

/// A workspace holding a copy of the directory `from` as one topic,
/// `topic` (tldr's English pages as `tldr-en`), made once.
fn prepare(from: &Path, ws: &Path, topic: &str, title: &str) -> PathBuf {
    let name = from.file_name().unwrap().to_string_lossy().into_owned();
    let config = format!("[kb.topic.{topic}]\ntitle = \"{title}\"\nsubjects = \"{name}\"\n");
    let made = std::fs::read_to_string(ws.join(".jp/config.toml")).is_ok_and(|c| c == config);
    if !made || !ws.join(&name).is_dir() {
        let _ = std::fs::remove_dir_all(ws);
        std::fs::create_dir_all(ws.join(".jp")).unwrap();
        let status = Command::new("cp")
            .arg("-r")
            .arg(from)
            .arg(ws.join(&name))
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::write(ws.join(".jp/config.toml"), config).unwrap();
    }
    ws.to_owned()
}

/// A workspace holding the first `count` files of the directory `from`
/// (by name) as one topic, `tldr`, made once.
fn prepare_first(from: &Path, count: usize, ws: &Path) -> PathBuf {
    let pages = ws.join("pages");
    let config = "[kb.topic.tldr]\ntitle = \"tldr pages\"\nsubjects = \"pages\"\n";
    let made = std::fs::read_dir(&pages).is_ok_and(|d| d.count() == count);
    if !made {
        let _ = std::fs::remove_dir_all(ws);
        std::fs::create_dir_all(&pages).unwrap();
        std::fs::create_dir_all(ws.join(".jp")).unwrap();
        let mut names: Vec<_> = std::fs::read_dir(from)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        for name in names.into_iter().take(count) {
            std::fs::copy(from.join(&name), pages.join(&name)).unwrap();
        }
        std::fs::write(ws.join(".jp/config.toml"), config).unwrap();
    }
    ws.to_owned()
}

/// `jp-kb search` over `ws`; the index is in this user's cache
/// directory, where the in-process measurement below finds it too.
fn search(ws: &Path, model: &Path, mode: &str, query: &str) -> Command {
    let mut c = jp_kb(ws);
    c.arg("--workspace")
        .arg(ws)
        .args(["search", "--limit", "5", "--mode", mode, "--model"])
        .arg(model)
        .arg(query);
    c
}

/// `jp-kb` with the bench's environment: no global configuration.
fn jp_kb(ws: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jp-kb"));
    c.env("JP_GLOBAL_CONFIG_DIR", ws.join(".no-global"))
        .env("JP_USER_DATA_DIR", ws.join(".no-data"));
    c
}

fn speed(ws: &Path, model: &Path) {
    let (mut lexical, mut hybrid) = (Vec::new(), Vec::new());
    // Interleaved, so both see the same machine; each run a new question.
    for query in QUESTIONS {
        lexical.push(time(&mut search(ws, model, "lexical", query)));
        hybrid.push(time(&mut search(ws, model, "hybrid", query)));
    }
    let (lexical, hybrid) = (median(lexical), median(hybrid));
    println!(
        "warm one-off query, whole process, 500 pages (median of {RUNS}, a new question each): hybrid {} (target <= 150 ms), lexical {}",
        ms(hybrid),
        ms(lexical),
    );
    let page = ws.join("pages/adb.md");
    let original = std::fs::read(&page).unwrap();
    let mut updates = Vec::new();
    for run in 0..3 {
        let mut changed = original.clone();
        changed
            .extend_from_slice(format!("\n- Change {run}:\n\n`adb -s {run} shell`\n").as_bytes());
        // Saved as editors save: a new file renamed over the page.
        let new = page.with_extension("md.new");
        std::fs::write(&new, changed).unwrap();
        std::fs::rename(&new, &page).unwrap();
        updates.push(time(&mut search(ws, model, "hybrid", QUERY)));
    }
    let new = page.with_extension("md.new");
    std::fs::write(&new, &original).unwrap();
    std::fs::rename(&new, &page).unwrap();
    time(&mut search(ws, model, "hybrid", QUERY));
    println!(
        "hybrid query after one changed subject, whole process (median of 3): {} (target <= 1 s)",
        ms(median(updates)),
    );
}

/// The workspace's knowledge base, and its search indexes as the
/// processes above left them (they share this environment).
fn open(ws: &Path, model: &Path) -> (KnowledgeBase, Searcher, Semantic) {
    let env = Environment::workspace_only(ws);
    let options = LoadOptions::default().workspace(ws);
    let kb = KnowledgeBase::load(&env, &options).unwrap();
    let dir = index_dir(kb.root());
    let searcher = Searcher::open_in(dir.clone());
    let semantic = Semantic::open(model, dir.as_deref()).unwrap();
    (kb, searcher, semantic)
}

fn quality(ws: &Path, model: &Path, heldout: &[PathBuf], topic: &str) {
    let (kb, mut searcher, mut semantic) = open(ws, model);
    // Each query's time in this process, which stays up as the MCP server
    // and the TUI do (model and vectors loaded once).
    let mut took: BTreeMap<&str, Vec<Duration>> = BTreeMap::new();
    let mut files: Vec<PathBuf> = heldout
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    files.sort();
    for file in files {
        let labelled = parse(&std::fs::read_to_string(&file).unwrap());
        let name = |p: Option<&Path>| {
            p.and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let mut row = format!(
            "recall@5, {}/{} ({} questions):",
            name(file.parent()),
            name(Some(&file)),
            labelled.len()
        );
        for mode in [Mode::Lexical, Mode::Semantic, Mode::Hybrid] {
            let mut found = 0;
            for (query, answers) in &labelled {
                let request = SearchRequest {
                    query,
                    topic: Some(topic),
                    limit: 5,
                    hidden: false,
                };
                let start = Instant::now();
                let Ok(outcome) = searcher.search_in_mode(
                    &kb,
                    &request,
                    Some(&mut semantic),
                    mode,
                    &mut |_, _| {},
                ) else {
                    continue;
                };
                took.entry(mode.name()).or_default().push(start.elapsed());
                if outcome.hits.iter().any(|h| answers.contains(&h.slug)) {
                    found += 1;
                }
            }
            let _ = write!(
                row,
                " {mode} {:.3}",
                f64::from(found) / labelled.len() as f64
            );
        }
        println!("{row}");
    }
    let medians: Vec<String> = took
        .into_iter()
        .map(|(mode, runs)| format!("{mode} {}", ms(median(runs))))
        .collect();
    println!(
        "a query in a process that stays up (MCP, TUI), median over the questions above: {}",
        medians.join(", ")
    );
}

/// `query<TAB>slug,slug` lines; `#` lines are comments.
pub(crate) fn parse(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(q, slugs)| {
            (
                q.to_owned(),
                slugs.split(',').map(|s| s.trim().to_owned()).collect(),
            )
        })
        .collect()
}
