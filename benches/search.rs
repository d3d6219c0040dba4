//! Search benchmark (issue 17) on the tldr corpus (`../shared/corpora`):
//! quality of a labelled query set (recall@5, MRR) and speed as ratios
//! against standard tools in the same run, each pair run alternately:
//!
//! - a warm query (`jp-kb search`, and the same search in process as a
//!   long-running server does it) against `grep -ril WORD` over the tree;
//! - the first index build (`jp-kb search` with an empty cache) against
//!   `cat` of every file (`find -exec cat {} +`);
//! - the update after one file changed against that first build.
//!
//! `cargo bench --bench search` (`-- quality` for the labelled queries
//! only). Prints Markdown; docs/perf.md quotes it.
//!
//! `-- jp-docs=DIR`: recall@5 and MRR of jp-kb and of the plain BM25 on
//! JP's documentation (`DIR`: the `docs/` of github.com/dcdpr/jp at the
//! commit the sets name, copied into a workspace of its own as topic
//! `jp-docs`): the tuning set `benches/tuning/jp_docs_named.tsv` and the
//! held-out `benches/heldout3/jp_docs.tsv`; `-- skills=DIR` the same on
//! a skills tree (`skills/` of github.com/anthropics/skills) and
//! `benches/heldout4/skills.tsv`. With `sweep`, the ranking's variants
//! on the tuning sets of tldr and JP's documentation (`-- sweep` alone:
//! tldr's); `misses` lists what the tuning sets did not find in the top
//! 5; `tuning` leaves the held-out sets out.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_precision_loss,
    clippy::too_many_lines
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::search::Scoring;
use jp_kb_core::search::{SearchRequest, Searcher};

const RUNS: usize = 7;
const WORD: &str = "archive";

fn time(cmd: &mut Command) -> Duration {
    // grep exits 1 when nothing matches; anything else is a failure.
    time_accepting(cmd, |status| status.code().is_some_and(|c| c <= 1))
}

fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn jp_kb(corpora: &Path, cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jp-kb"));
    c.env("JP_GLOBAL_CONFIG_DIR", cache.join(".no-global"))
        .env("JP_USER_DATA_DIR", cache.join(".no-data"))
        .env("XDG_CACHE_HOME", cache)
        .arg("--workspace")
        .arg(corpora);
    c
}

#[path = "search_support/bm25.rs"]
mod bm25;
#[path = "../tests/search_quality_support/mod.rs"]
mod labelled;

use labelled::{load, measure, queries};

#[path = "bench_support/process.rs"]
mod process;
use process::{median, ms, time_accepting};

fn quality(kb: &KnowledgeBase, cache: &Path) {
    let mut searcher = Searcher::open_in(Some(cache.join("quality")));
    if std::env::args().any(|a| a == "sweep") {
        sweep(&[(kb, labelled::TOPIC, tuning_sets())]);
        return;
    }
    let q = measure(kb, &mut searcher);
    println!(
        "## Quality ({} labelled queries, topic tldr-en, 7,425 pages)\n",
        queries().len()
    );
    println!("| measure | value | target |");
    println!("| --- | ---: | --- |");
    println!("| recall@5 | {:.3} | ≥ 0.9 |", q.recall);
    println!(
        "| MRR (first right answer in the top 10) | {:.3} | |",
        q.mrr
    );
    println!(
        "| recall@5, any platform's page of the command | {:.3} | ≥ 0.9 |",
        q.cmd_recall
    );
    println!(
        "| MRR, any platform's page of the command | {:.3} | |",
        q.cmd_mrr
    );
    let held = labelled::measure_set(kb, &mut searcher, &labelled::held_out());
    println!(
        "| recall@5, {} held-out queries (never tuned on) | {:.3} | |",
        labelled::held_out().len(),
        held.recall
    );
    println!("| MRR, held-out queries | {:.3} | |", held.mrr);
    against_bm25(kb, &mut searcher);
    for (title, misses) in [
        ("Not in the top 5", q.misses),
        ("Held-out, not in the top 5", held.misses),
    ] {
        if !misses.is_empty() {
            println!("\n{title}:\n");
            for m in misses {
                println!("- {m}");
            }
        }
    }
}

/// Queries, each with the slugs that answer it.
type QuerySet = Vec<(String, Vec<String>)>;

/// The query sets, each with its name: the labelled one (tuned on), the
/// first held-out one, and every file in `benches/heldout/` (held-out
/// sets written by someone else, measured once).
fn query_sets() -> Vec<(String, QuerySet)> {
    let mut sets = vec![
        ("labelled (tuned on)".to_owned(), queries()),
        ("held-out, first set".to_owned(), labelled::held_out()),
    ];
    for dir in ["benches/heldout", "benches/heldout2"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "tsv"));
        files.sort();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            sets.push((format!("held-out `{name}`"), read_set(&file)));
        }
    }
    sets
}

/// A query file: `query<TAB>slug,slug`, `#` comments.
fn read_set(file: &Path) -> QuerySet {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (q, slugs) = l.split_once('\t')?;
            Some((
                q.to_owned(),
                slugs.split(',').map(|s| s.trim().to_owned()).collect(),
            ))
        })
        .collect()
}

/// The topic of JP's documentation in its bench workspace.
const JP_DOCS: &str = "jp-docs";

/// A workspace `name` under `target/bench-data` holding a copy of `from`
/// as topic `topic`, made again each run.
fn corpus_workspace(name: &str, from: &Path, topic: &str) -> KnowledgeBase {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/bench-data")
        .join(name);
    let _ = std::fs::remove_dir_all(&ws);
    std::fs::create_dir_all(ws.join(".jp")).unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(ws.join("pages"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(
        ws.join(".jp/config.toml"),
        format!("[kb.topic.{topic}]\nsubjects = \"pages\"\n"),
    )
    .unwrap();
    load(&ws.canonicalize().unwrap())
}

/// Recall@5 and MRR of jp-kb and of the plain BM25 on topic `topic` of
/// `kb` for each named query file.
fn labelled_corpus(kb: &KnowledgeBase, topic: &str, title: &str, sets: &[(&str, &str)]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut searcher = Searcher::memory();
    let mut plain = bm25::Bm25::new(kb, topic);
    println!("## {title} (topic {topic})\n");
    println!("| set | queries | jp-kb recall@5 | jp-kb MRR | BM25 recall@5 | BM25 MRR |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut all_misses = Vec::new();
    // `tuning`: the tuning sets only, while the ranking is being chosen.
    let tuning_only = std::env::args().any(|a| a == "tuning");
    for (name, file) in sets {
        if tuning_only && !name.starts_with("tuning") {
            continue;
        }
        let set = read_set(&root.join(file));
        let ours = labelled::measure_in(kb, &mut searcher, topic, &set);
        let (recall, mrr) = bm25::quality(&set, |q| plain.search(q, 10));
        println!(
            "| {name} | {} | {:.3} | {:.3} | {recall:.3} | {mrr:.3} |",
            set.len(),
            ours.recall,
            ours.mrr
        );
        all_misses.push((name, ours.misses));
    }
    // Held-out sets' misses are never printed: they are measured, not read.
    if std::env::args().any(|a| a == "misses") {
        for (name, misses) in all_misses
            .into_iter()
            .filter(|(n, _)| n.starts_with("tuning"))
        {
            println!("\n{name}, not in the top 5:\n");
            for m in misses {
                println!("- {m}");
            }
        }
    }
    println!();
}

/// Recall@5 and MRR of jp-kb and of a plain BM25 (k1 1.2, b 0.75, the
/// same tokenizer, untuned) on every query set.
fn against_bm25(kb: &KnowledgeBase, searcher: &mut Searcher) {
    let mut plain = bm25::Bm25::new(kb, labelled::TOPIC);
    println!("\n### Against a plain BM25 (k1 = 1.2, b = 0.75, the same tokenizer)\n");
    println!("| set | queries | jp-kb recall@5 | jp-kb MRR | BM25 recall@5 | BM25 MRR |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (name, set) in query_sets() {
        let ours = labelled::measure_set(kb, searcher, &set);
        let (recall, mrr) = bm25::quality(&set, |q| plain.search(q, 10));
        println!(
            "| {name} | {} | {:.3} | {:.3} | {recall:.3} | {mrr:.3} |",
            set.len(),
            ours.recall,
            ours.mrr
        );
    }
}

/// The tldr sets the ranking is tuned on: the labelled queries, the first
/// held-out ones and `benches/heldout/` (all measured before; the
/// mixed set of `benches/heldout2/` is only measured).
fn tuning_sets() -> Vec<QuerySet> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        queries(),
        labelled::held_out(),
        read_set(&root.join("benches/heldout/tldr_keywords.tsv")),
        read_set(&root.join("benches/heldout/tldr_own_words.tsv")),
    ]
}

/// The ranking's variants tried by `-- sweep`: the coordination factor,
/// the weight of the last word's prefixes, the body's length
/// normalisation.
fn variants(base: Scoring) -> Vec<(String, Scoring)> {
    let mut out = vec![("default".to_owned(), base)];
    for coord in [0.0, 0.5, 1.0, 2.0] {
        for coord_idf in [0.5, 1.0] {
            for prefix in [0.0, 0.3] {
                for body_b in [0.3, 0.5, 0.75] {
                    let mut s = base;
                    s.coord = coord;
                    s.coord_idf = coord_idf;
                    s.prefix_boost = prefix;
                    s.b[2] = body_b;
                    out.push((
                        format!("coord {coord} idf {coord_idf} prefix {prefix} body b {body_b}"),
                        s,
                    ));
                }
            }
        }
    }
    out
}

/// `-- sweep`: recall@5 of each variant of the ranking on the tuning sets
/// of each corpus (`(knowledge base, topic, sets)`), to choose the
/// defaults; the held-out sets are never looked at here.
#[allow(clippy::cast_precision_loss)]
fn sweep(corpora: &[(&KnowledgeBase, &str, Vec<QuerySet>)]) {
    let mut searchers: Vec<Searcher> = corpora.iter().map(|_| Searcher::memory()).collect();
    for ((kb, _, _), searcher) in corpora.iter().zip(&mut searchers) {
        searcher.refresh(kb);
    }
    let mut results = Vec::new();
    for (label, scoring) in variants(Scoring::default()) {
        let mut figures = Vec::new();
        let (mut found, mut rr, mut total) = (0.0, 0.0, 0usize);
        let mut misses = Vec::new();
        for ((kb, topic, sets), searcher) in corpora.iter().zip(&mut searchers) {
            searcher.scoring = scoring;
            for set in sets {
                let (recall, mrr, set_misses) = ranking_quality(kb, searcher, topic, set);
                figures.push(recall);
                found += recall * set.len() as f64;
                rr += mrr * set.len() as f64;
                total += set.len();
                misses.extend(set_misses);
            }
        }
        let n = total.max(1) as f64;
        results.push((found / n, rr / n, figures, label, misses));
    }
    results.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    println!("recall@5 MRR | recall@5 of each set | ranking");
    for (all, mrr, figures, label, _) in &results {
        let each: Vec<String> = figures.iter().map(|f| format!("{f:.3}")).collect();
        println!("{all:.3} {mrr:.3} | {} | {label}", each.join(" "));
    }
    if std::env::args().any(|a| a == "misses") {
        for (_, _, _, label, misses) in results.iter().take(1) {
            println!("\nmisses of {label}:");
            for m in misses {
                println!("- {m}");
            }
        }
    }
}

/// Recall@5, MRR (top ten) and the misses of the ranking alone on `set`.
#[allow(clippy::cast_precision_loss)]
fn ranking_quality(
    kb: &KnowledgeBase,
    searcher: &mut Searcher,
    topic: &str,
    set: &[(String, Vec<String>)],
) -> (f64, f64, Vec<String>) {
    let (mut found, mut rr, mut misses) = (0usize, 0f64, Vec::new());
    for (query, wanted) in set {
        let request = SearchRequest {
            query,
            topic: Some(topic),
            limit: 10,
            hidden: false,
        };
        let ranked = searcher.ranking(kb, &request).expect("query");
        let rank = ranked.iter().position(|(_, slug, _)| wanted.contains(slug));
        let in_top_5 = rank.is_some_and(|r| r < 5);
        found += usize::from(in_top_5);
        rr += rank.map_or(0.0, |r| 1.0 / (r + 1) as f64);
        if !in_top_5 {
            let top: Vec<&str> = ranked.iter().take(5).map(|(_, s, _)| s.as_str()).collect();
            misses.push(format!(
                "{query:?} wants {wanted:?} (at {rank:?}); top 5: {top:?}"
            ));
        }
    }
    let n = set.len().max(1) as f64;
    (found as f64 / n, rr / n, misses)
}

fn main() {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    assert!(
        corpora.join(".jp/config.toml").is_file(),
        "the tldr corpus is not at {}",
        corpora.display()
    );
    let corpora = corpora.canonicalize().unwrap();
    let tldr = corpora.join("tldr");
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/search-cache");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).unwrap();

    let dir_arg = |key: &str| std::env::args().find_map(|a| a.strip_prefix(key).map(PathBuf::from));
    let (docs, skills) = (dir_arg("jp-docs="), dir_arg("skills="));
    if docs.is_some() || skills.is_some() {
        let docs_kb = docs.map(|d| corpus_workspace("jp-docs", &d, JP_DOCS));
        if std::env::args().any(|a| a == "sweep") {
            let kb = load(&corpora);
            let tuning = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/tuning");
            let mut corpora = vec![(&kb, labelled::TOPIC, tuning_sets())];
            if let Some(docs_kb) = &docs_kb {
                let sets = ["jp_docs_named.tsv", "jp_docs_questions.tsv"];
                corpora.push((
                    docs_kb,
                    JP_DOCS,
                    sets.map(|f| read_set(&tuning.join(f))).to_vec(),
                ));
            }
            sweep(&corpora);
            return;
        }
        if let Some(docs_kb) = &docs_kb {
            labelled_corpus(
                docs_kb,
                JP_DOCS,
                "JP's documentation",
                &[
                    (
                        "tuning `tuning/jp_docs_named.tsv`",
                        "benches/tuning/jp_docs_named.tsv",
                    ),
                    (
                        "tuning `tuning/jp_docs_questions.tsv`",
                        "benches/tuning/jp_docs_questions.tsv",
                    ),
                    (
                        "held-out `heldout3/jp_docs.tsv`",
                        "benches/heldout3/jp_docs.tsv",
                    ),
                ],
            );
        }
        if let Some(skills) = skills {
            let kb = corpus_workspace("skills", &skills, "skills");
            labelled_corpus(
                &kb,
                "skills",
                "A skills tree",
                &[(
                    "held-out `heldout4/skills.tsv`",
                    "benches/heldout4/skills.tsv",
                )],
            );
        }
        return;
    }
    let kb = load(&corpora);
    quality(&kb, &cache);
    if std::env::args().any(|a| a == "quality" || a == "sweep") {
        return;
    }

    println!("\n## Speed (topic tldr, 38,406 pages, 18 MB; medians of {RUNS} alternating pairs)\n");
    println!("| what | jp-kb | baseline | ratio | target |");
    println!("| --- | ---: | --- | ---: | --- |");

    // First build: a process with an empty cache against cat of all files.
    let build_cache = cache.join("build");
    let search_cli = |dir: &Path| {
        let mut c = jp_kb(&corpora, dir);
        c.args(["search", "--topic", "tldr", WORD]);
        c
    };
    let cat_all = || {
        let mut c = Command::new("find");
        c.arg(&tldr).args(["-type", "f", "-exec", "cat", "{}", "+"]);
        c
    };
    let (mut builds, mut cats, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    time(&mut cat_all());
    for _ in 0..RUNS {
        let _ = std::fs::remove_dir_all(&build_cache);
        let b = time(&mut search_cli(&build_cache));
        let c = time(&mut cat_all());
        ratios.push(b.as_secs_f64() / c.as_secs_f64());
        builds.push(b);
        cats.push(c);
    }
    let build = median(builds.clone());
    println!(
        "| first search, whole process (`jp-kb search {WORD}`, empty cache: the index is built) | {} | `find -exec cat` {} | {:.2}x | ≤ 2x |",
        ms(build),
        ms(median(cats)),
        median_f(ratios)
    );

    // Warm query, whole process (walk, stamps, open, query, snippets).
    let grep = || {
        let mut c = Command::new("grep");
        c.args(["-ril", WORD]).arg(&tldr);
        c
    };
    let (mut warm, mut greps, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    time(&mut search_cli(&build_cache));
    time(&mut grep());
    for _ in 0..RUNS {
        let a = time(&mut search_cli(&build_cache));
        let g = time(&mut grep());
        ratios.push(a.as_secs_f64() / g.as_secs_f64());
        warm.push(a);
        greps.push(g);
    }
    let grep_median = median(greps);
    println!(
        "| warm search, whole process (`jp-kb search {WORD}`) | {} | `grep -ril {WORD}` {} | {:.3}x | ≤ 0.1x |",
        ms(median(warm)),
        ms(grep_median),
        median_f(ratios)
    );
    // The same with the hits' token counts forgotten before each run (a
    // query whose hits were never shown: the vocabulary is indexed).
    let memo = build_cache_file(&build_cache).with_file_name("memo.bin");
    let (mut fresh, mut greps, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let _ = std::fs::remove_file(&memo);
        let a = time(&mut search_cli(&build_cache));
        let g = time(&mut grep());
        ratios.push(a.as_secs_f64() / g.as_secs_f64());
        fresh.push(a);
        greps.push(g);
    }
    println!(
        "| warm search, whole process, hits never shown before (no token counts kept) | {} | `grep -ril {WORD}` {} | {:.3}x | ≤ 0.1x |",
        ms(median(fresh)),
        ms(median(greps)),
        median_f(ratios)
    );

    // Warm query in process: an open index (the MCP server, the TUI),
    // re-checked against the loaded walk before the query.
    let mut searcher = Searcher::open_in(Some(build_cache.clone()));
    let request = SearchRequest {
        query: WORD,
        topic: Some("tldr"),
        limit: 10,
        hidden: true,
    };
    searcher.search(&kb, &request).unwrap();
    let (mut inproc, mut greps, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let start = Instant::now();
        let hits = searcher.search(&kb, &request).unwrap().hits;
        let a = start.elapsed();
        assert!(!hits.is_empty());
        let g = time(&mut grep());
        ratios.push(a.as_secs_f64() / g.as_secs_f64());
        inproc.push(a);
        greps.push(g);
    }
    println!(
        "| warm query, open index (in process, files re-checked) | {} | `grep -ril {WORD}` {} | {:.3}x | ≤ 0.1x |",
        ms(median(inproc)),
        ms(median(greps)),
        median_f(ratios)
    );

    // One file changed: the next search re-reads it alone.
    let scratch = cache.join("incremental");
    let (mut updates, mut fulls, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    // The corpus is read-only for benchmarks: change a copy of its config
    // pointing at a private copy of one language's pages instead.
    let copy = cache.join("copy");
    let copy_ws = prepare_copy(&corpora, &copy);
    let changed = copy_ws.join("tldr/pages/common/tar.md");
    for run in 0..RUNS {
        let _ = std::fs::remove_dir_all(&scratch);
        let full = time(&mut search_cli_at(&copy_ws, &scratch));
        // Saved as editors save: a new file renamed over the old one (its
        // directory's time changes, so a saved walk is not trusted). An
        // mtime more than 2 s old is trusted; make the change look so.
        let tmp = changed.with_extension("md.tmp");
        std::fs::write(&tmp, format!("# tar\n\nchange {run}\n")).unwrap();
        set_old_mtime(&tmp, run);
        std::fs::rename(&tmp, &changed).unwrap();
        let update = time(&mut search_cli_at(&copy_ws, &scratch));
        ratios.push(update.as_secs_f64() / full.as_secs_f64());
        updates.push(update);
        fulls.push(full);
    }
    println!(
        "| update after one file changed (`jp-kb search`, {} pages) | {} | its first build {} | {:.3}x | ≤ 0.05x |",
        count_files(&copy_ws.join("tldr")),
        ms(median(updates)),
        ms(median(fulls)),
        median_f(ratios)
    );
    // The same in process: the walk is given (a server's or the TUI's),
    // the index brings itself up to date.
    let copy_kb_before = load(&copy_ws);
    let mut s = Searcher::open_in(Some(scratch.clone()));
    s.refresh(&copy_kb_before);
    let (mut updates, mut fulls, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..RUNS {
        let fresh_dir = cache.join(format!("inproc-full-{run}"));
        let kb_full = load(&copy_ws);
        let _ = kb_full
            .topics
            .iter()
            .map(jp_kb_core::subjects::TopicState::resolution)
            .count();
        let start = Instant::now();
        let mut full = Searcher::open_in(Some(fresh_dir.clone()));
        let read = full.refresh(&kb_full);
        let f = start.elapsed();
        assert!(read > 1000);
        std::fs::write(&changed, format!("# tar\n\nin process {run}\n")).unwrap();
        set_old_mtime(&changed, run + 100);
        let kb_now = load(&copy_ws);
        let _ = kb_now
            .topics
            .iter()
            .map(jp_kb_core::subjects::TopicState::resolution)
            .count();
        let start = Instant::now();
        let read = s.refresh(&kb_now);
        let u = start.elapsed();
        assert_eq!(read, 1);
        ratios.push(u.as_secs_f64() / f.as_secs_f64());
        updates.push(u);
        fulls.push(f);
        let _ = std::fs::remove_dir_all(&fresh_dir);
    }
    println!(
        "| update after one file changed (in process, walk given) | {} | full build in process {} | {:.4}x | ≤ 0.05x |",
        ms(median(updates)),
        ms(median(fulls)),
        median_f(ratios)
    );
    let size = std::fs::metadata(build_cache_file(&build_cache)).map_or(0, |m| m.len());
    println!(
        "\nIndex size for all 38,406 pages: {:.1} MB.",
        size as f64 / 1e6
    );
}

fn search_cli_at(ws: &Path, cache: &Path) -> Command {
    let mut c = jp_kb(ws, cache);
    c.args(["search", WORD]);
    c
}

/// A writable workspace with a copy of all 38k pages.
fn prepare_copy(corpora: &Path, copy: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(copy);
    std::fs::create_dir_all(copy.join(".jp")).unwrap();
    std::fs::write(
        copy.join(".jp/config.toml"),
        "[kb.topic.tldr]\nsubjects = \"tldr\"\n",
    )
    .unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(corpora.join("tldr"))
        .arg(copy.join("tldr"))
        .status()
        .unwrap();
    assert!(status.success());
    // Files changed within 2 s of indexing are re-read next time; the
    // copy must look as settled as the real corpus.
    let status = Command::new("find")
        .arg(copy.join("tldr"))
        .args(["-exec", "touch", "-d", "2020-01-01", "{}", "+"])
        .status()
        .unwrap();
    assert!(status.success());
    copy.canonicalize().unwrap()
}

fn set_old_mtime(path: &Path, run: usize) {
    let status = Command::new("touch")
        .arg("-d")
        .arg(format!("2020-01-01 00:00:{:02}", run % 60))
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

fn count_files(dir: &Path) -> usize {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_type().is_file()))
        .count()
}

fn build_cache_file(dir: &Path) -> PathBuf {
    let search = dir.join("jp-kb/search");
    std::fs::read_dir(&search)
        .ok()
        .and_then(|mut d| d.next())
        .and_then(Result::ok)
        .map_or(search, |e| e.path().join("main.idx"))
}
