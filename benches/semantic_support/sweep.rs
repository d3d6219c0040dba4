//! `cargo bench --bench semantic -- sweep`: recall@5 of fusions of the
//! lexical and semantic rankings, on the tuning questions only (the
//! lexical search's own sets and the first held-out sets, all measured
//! before): this is where the fusion is chosen. The held-out set written
//! for the choice (`benches/heldout2/`) is measured once, by the default
//! run, with the fusion the search uses.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use jp_kb_core::KnowledgeBase;
use jp_kb_core::search::semantic::Semantic;
use jp_kb_core::search::{Mode, SearchRequest, Searcher};

/// The questions the fusion may be tuned on.
const TUNING: [&str; 4] = [
    "benches/search_queries.tsv",
    "benches/search_queries_heldout.tsv",
    "benches/heldout/tldr_keywords.tsv",
    "benches/heldout/tldr_own_words.tsv",
];

/// One question's two rankings, best first: (slug, score).
struct Rankings {
    answers: Vec<String>,
    lexical: Vec<(String, f32)>,
    semantic: Vec<(String, f32)>,
}

type Fusion = Box<dyn Fn(&Rankings) -> Vec<String>>;

pub fn sweep(root: &Path, kb: &KnowledgeBase, searcher: &mut Searcher, semantic: &mut Semantic) {
    let mut sets = Vec::new();
    for file in TUNING {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let mut questions = Vec::new();
        for (query, answers) in super::parse(&text) {
            let mut ranked = |mode| {
                let request = SearchRequest {
                    query: &query,
                    topic: Some("tldr-en"),
                    limit: 100,
                    hidden: false,
                };
                searcher
                    .search_in_mode(kb, &request, Some(&mut *semantic), mode, &mut |_, _| {})
                    .map(|o| o.hits.into_iter().map(|h| (h.slug, h.score)).collect())
                    .unwrap_or_default()
            };
            let lexical = ranked(Mode::Lexical);
            let semantic = ranked(Mode::Semantic);
            questions.push(Rankings {
                answers,
                lexical,
                semantic,
            });
        }
        sets.push((file, questions));
    }
    for (name, fusion) in fusions() {
        let mut row = format!("{name:<34}");
        let mut all = (0, 0);
        for (_, questions) in &sets {
            let found = questions
                .iter()
                .filter(|q| fusion(q).iter().take(5).any(|s| q.answers.contains(s)))
                .count();
            all = (all.0 + found, all.1 + questions.len());
            let _ = write!(row, " {:.3}", found as f64 / questions.len() as f64);
        }
        println!("{row}  all {:.3}", all.0 as f64 / all.1 as f64);
    }
    println!("columns: {}", TUNING.join(", "));
}

/// Reciprocal rank fusion with a weight for each ranking.
fn rrf(k: f32, lexical: f32, semantic: f32) -> Fusion {
    Box::new(move |r: &Rankings| {
        let mut scores: HashMap<&str, f32> = HashMap::new();
        for (list, weight) in [(&r.lexical, lexical), (&r.semantic, semantic)] {
            for (rank, (slug, _)) in list.iter().enumerate() {
                *scores.entry(slug).or_default() += weight / (k + 1.0 + rank as f32);
            }
        }
        best(scores)
    })
}

/// A convex combination of min-max normalised scores: `alpha` of the
/// lexical one.
fn convex(alpha: f32) -> Fusion {
    Box::new(move |r: &Rankings| {
        let mut scores: HashMap<&str, f32> = HashMap::new();
        for (list, weight) in [(&r.lexical, alpha), (&r.semantic, 1.0 - alpha)] {
            let max = list.iter().map(|x| x.1).fold(f32::MIN, f32::max);
            let min = list.iter().map(|x| x.1).fold(f32::MAX, f32::min);
            let span = (max - min).max(1e-6);
            for (slug, score) in list {
                *scores.entry(slug).or_default() += weight * (score - min) / span;
            }
        }
        best(scores)
    })
}

/// Lexical scores divided by the best one (BM25 has no upper bound),
/// cosines as they are: `alpha` of the lexical one.
fn convex_by_top(alpha: f32) -> Fusion {
    Box::new(move |r: &Rankings| {
        let mut scores: HashMap<&str, f32> = HashMap::new();
        let top = r.lexical.first().map_or(1.0, |x| x.1).max(1e-6);
        for (slug, score) in &r.lexical {
            *scores.entry(slug).or_default() += alpha * score / top;
        }
        for (slug, score) in &r.semantic {
            *scores.entry(slug).or_default() += (1.0 - alpha) * score;
        }
        best(scores)
    })
}

fn best(scores: HashMap<&str, f32>) -> Vec<String> {
    let mut out: Vec<(&str, f32)> = scores.into_iter().collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    out.into_iter().map(|(s, _)| s.to_owned()).collect()
}

fn fusions() -> Vec<(String, Fusion)> {
    let mut out: Vec<(String, Fusion)> = vec![
        (
            "lexical alone".to_owned(),
            Box::new(|r: &Rankings| r.lexical.iter().map(|x| x.0.clone()).collect()),
        ),
        (
            "semantic alone".to_owned(),
            Box::new(|r: &Rankings| r.semantic.iter().map(|x| x.0.clone()).collect()),
        ),
    ];
    out.push((
        "the search's own (jp_kb_embed::fuse)".to_owned(),
        Box::new(|r: &Rankings| {
            jp_kb_embed::fuse(&r.lexical, &r.semantic)
                .into_iter()
                .map(|x| x.0)
                .collect()
        }),
    ));
    for k in [10.0, 60.0] {
        for (l, s) in [(1.0, 1.0), (1.0, 1.5), (1.0, 2.0), (1.0, 3.0)] {
            out.push((format!("rrf k={k} lexical {l} semantic {s}"), rrf(k, l, s)));
        }
    }
    for alpha in [0.1, 0.2, 0.3, 0.4, 0.5] {
        out.push((format!("convex min-max alpha={alpha}"), convex(alpha)));
        out.push((format!("convex by-top alpha={alpha}"), convex_by_top(alpha)));
    }
    out
}
