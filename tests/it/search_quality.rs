#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Search quality on the labelled tldr queries
//! (`benches/search_queries.tsv`, topic `tldr-en` of `../shared/corpora`):
//! recall@5 must not fall below [`FLOOR`], the level the ranking reaches,
//! with the mean reciprocal rank printed (and the held-out queries'
//! figures, printed only). Issue 17's target is 0.9, met with nothing to
//! spare: the misses left are vocabulary gaps and platform copies of a
//! page (`docs/perf.md`, "Search, fourth pass"); raise the floor when the
//! ranking improves, never lower it to pass. The index is built in memory
//! from the corpus as `jp-kb search` builds it (both topics, so the same
//! document frequencies as the benchmark). Needs the corpus: ignored
//! without it, failed under `CI` (as `tokens_oracle`).

#[path = "../search_quality_support/mod.rs"]
mod search_quality_support;

use jp_kb_core::search::Searcher;
use search_quality_support::{corpora, held_out, load, measure, measure_set, queries};

/// Recall@5 the ranking reaches on the labelled queries (72 of 80, the
/// issue's target; "Search, fourth pass" in `docs/perf.md`).
const FLOOR: f64 = 0.9;

#[test]
#[cfg_attr(
    lacks = "corpora",
    ignore = "needs the tldr corpus in ../shared/corpora beside the checkout (then touch build.rs)"
)]
fn labelled_tldr_queries_keep_their_recall_at_5() {
    assert!(queries().len() >= 80, "the labelled set shrank");
    let kb = load(&corpora());
    let mut searcher = Searcher::memory();
    let q = measure(&kb, &mut searcher);
    eprintln!(
        "recall@5 {:.3}, MRR {:.3} (any platform's page: {:.3}, {:.3})",
        q.recall, q.mrr, q.cmd_recall, q.cmd_mrr
    );
    for miss in &q.misses {
        eprintln!("miss: {miss}");
    }
    // Reported, not asserted: queries the ranking was never tuned on.
    let held = measure_set(&kb, &mut searcher, &held_out());
    eprintln!("held-out: recall@5 {:.3}, MRR {:.3}", held.recall, held.mrr);
    for miss in &held.misses {
        eprintln!("held-out miss: {miss}");
    }
    assert!(
        q.recall >= FLOOR,
        "recall@5 is {:.3}, below the floor {FLOOR} (MRR {:.3}); misses:\n{}",
        q.recall,
        q.mrr,
        q.misses.join("\n")
    );
}
