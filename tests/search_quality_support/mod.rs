//! The labelled tldr queries (`benches/search_queries.tsv`) and how they
//! are scored: recall@5 (a right page among the first five hits) and the
//! mean reciprocal rank of the first right page in the top ten. Shared by
//! `tests/it/search_quality.rs` (which asserts the target) and
//! `benches/search.rs` (which reports it), so both count the same way.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

#[path = "../needs/mod.rs"]
mod needs;

use std::path::{Path, PathBuf};

use jp_kb_core::KnowledgeBase;
use jp_kb_core::search::{SearchRequest, Searcher};
use jp_kb_core::{Environment, LoadOptions};

/// The topic the labels name pages of.
pub const TOPIC: &str = "tldr-en";

/// The corpora workspace (`../shared/corpora`), canonical; panics with
/// the reason when it is missing (see `tests/needs/mod.rs`).
pub fn corpora() -> PathBuf {
    needs::require(needs::Need::Corpora).canonicalize().unwrap()
}

/// The workspace at `root`, with no user configuration.
pub fn load(root: &Path) -> KnowledgeBase {
    let env = Environment::workspace_only(root);
    let options = LoadOptions::default().workspace(root);
    KnowledgeBase::load(&env, &options).expect("the corpora workspace loads")
}

/// The labelled queries: `(query, slugs that answer it)`.
pub fn queries() -> Vec<(String, Vec<String>)> {
    parse(include_str!("../../benches/search_queries.tsv"))
}

/// The held-out queries (`benches/search_queries_heldout.tsv`): written
/// before the third pass's ranking changes were measured, never used to
/// choose a parameter.
pub fn held_out() -> Vec<(String, Vec<String>)> {
    parse(include_str!("../../benches/search_queries_heldout.tsv"))
}

/// A query file (`query<TAB>slug,slug`, `#` comments).
pub fn parse(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (q, slugs) = l.split_once('\t').expect("query TAB slugs");
            (q.to_owned(), slugs.split(',').map(str::to_owned).collect())
        })
        .collect()
}

/// Recall@5, MRR, the same two counting any platform's page of the
/// command (`linux/head` for `common/head`), and the misses.
pub struct Quality {
    pub recall: f64,
    pub mrr: f64,
    pub cmd_recall: f64,
    pub cmd_mrr: f64,
    pub misses: Vec<String>,
}

/// Runs every labelled query through `searcher` on `kb`.
pub fn measure(kb: &KnowledgeBase, searcher: &mut Searcher) -> Quality {
    measure_set(kb, searcher, &queries())
}

/// Runs the queries `qs` through `searcher` on `kb`.
pub fn measure_set(
    kb: &KnowledgeBase,
    searcher: &mut Searcher,
    qs: &[(String, Vec<String>)],
) -> Quality {
    measure_in(kb, searcher, TOPIC, qs)
}

/// Runs the queries `qs` through `searcher` on topic `topic` of `kb`.
#[allow(clippy::cast_precision_loss)]
pub fn measure_in(
    kb: &KnowledgeBase,
    searcher: &mut Searcher,
    topic: &str,
    qs: &[(String, Vec<String>)],
) -> Quality {
    let (mut found5, mut rr, mut misses) = (0usize, 0f64, Vec::new());
    let (mut cmd5, mut cmd_rr) = (0usize, 0f64);
    let command = |slug: &str| slug.rsplit('/').next().unwrap_or(slug).to_owned();
    for (query, wanted) in qs {
        let request = SearchRequest {
            query,
            topic: Some(topic),
            limit: 50,
            hidden: false,
        };
        let hits = searcher.search(kb, &request).expect("query").hits;
        let rank = hits.iter().position(|h| wanted.contains(&h.slug));
        if rank.is_some_and(|r| r < 5) {
            found5 += 1;
        } else {
            let top: Vec<&str> = hits.iter().take(5).map(|h| h.slug.as_str()).collect();
            let at = rank.map_or("not in the top 50".to_owned(), |r| format!("at {}", r + 1));
            misses.push(format!("{query:?} wants {wanted:?} ({at}); top 5: {top:?}"));
        }
        rr += rank
            .filter(|r| *r < 10)
            .map_or(0.0, |r| 1.0 / (r + 1) as f64);
        let commands: Vec<String> = wanted.iter().map(|w| command(w)).collect();
        let cmd_rank = hits
            .iter()
            .position(|h| commands.contains(&command(&h.slug)));
        if cmd_rank.is_some_and(|r| r < 5) {
            cmd5 += 1;
        }
        cmd_rr += cmd_rank
            .filter(|r| *r < 10)
            .map_or(0.0, |r| 1.0 / (r + 1) as f64);
    }
    let n = qs.len() as f64;
    Quality {
        recall: found5 as f64 / n,
        mrr: rr / n,
        cmd_recall: cmd5 as f64 / n,
        cmd_mrr: cmd_rr / n,
        misses,
    }
}
