//! A plain, untuned BM25 (k1 = 1.2, b = 0.75, Lucene's IDF) over the
//! pages of one topic, with jp-kb's own tokenizer: the baseline the
//! quality of `jp-kb search` is compared with (issue 26 item 9). One
//! field (the file's whole text), no name boost, no prefixes, no prior.
#![allow(clippy::cast_precision_loss)]

use std::collections::HashMap;

use jp_kb_core::KnowledgeBase;
use jp_kb_search::Tokenizer;

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// The index: each page's slug and length, and each term's postings.
pub struct Bm25 {
    slugs: Vec<String>,
    lens: Vec<u32>,
    avg: f32,
    postings: HashMap<String, Vec<(u32, u32)>>,
    tokenizer: Tokenizer,
}

impl Bm25 {
    /// Indexes every non-disabled subject of `topic` in `kb` (read as
    /// text; unreadable files have no terms).
    pub fn new(kb: &KnowledgeBase, topic: &str) -> Self {
        let mut tokenizer = Tokenizer::new();
        let (mut slugs, mut lens) = (Vec::new(), Vec::new());
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let resolution = kb
            .topics
            .iter()
            .find(|t| t.id() == topic)
            .and_then(|t| t.resolution())
            .expect("the topic resolves");
        for (i, s) in resolution.subjects().iter().enumerate() {
            if resolution.is_disabled(i) {
                continue;
            }
            let text = std::fs::read_to_string(s.path()).unwrap_or_default();
            let doc = u32::try_from(slugs.len()).expect("fewer than 2^32 pages");
            let mut tfs: HashMap<String, u32> = HashMap::new();
            let mut len = 0;
            tokenizer.terms(&text, |t, _| {
                *tfs.entry(t.to_owned()).or_default() += 1;
                len += 1;
            });
            for (term, tf) in tfs {
                postings.entry(term).or_default().push((doc, tf));
            }
            slugs.push(s.slug().to_owned());
            lens.push(len);
        }
        let avg = lens.iter().map(|&l| l as f32).sum::<f32>() / lens.len().max(1) as f32;
        Self {
            slugs,
            lens,
            avg: avg.max(1.0),
            postings,
            tokenizer,
        }
    }

    /// The slugs of the best `limit` pages for `query`, best first.
    pub fn search(&mut self, query: &str, limit: usize) -> Vec<String> {
        let n = self.slugs.len() as f32;
        let mut scores = vec![0f32; self.slugs.len()];
        for term in self.tokenizer.query_terms(query) {
            let Some(list) = self.postings.get(&term) else {
                continue;
            };
            let df = list.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in list {
                let tf = tf as f32;
                let norm = 1.0 - B + B * self.lens[doc as usize] as f32 / self.avg;
                scores[doc as usize] += idf * tf * (K1 + 1.0) / (tf + K1 * norm);
            }
        }
        let mut ranked: Vec<(usize, f32)> = scores
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
            .into_iter()
            .take(limit)
            .map(|(doc, _)| self.slugs[doc].clone())
            .collect()
    }
}

/// Recall@5 and MRR (first right page in the top ten) of `ranked` for
/// `queries`, counted as `search_quality_support::measure_set` counts.
pub fn quality(
    queries: &[(String, Vec<String>)],
    mut ranked: impl FnMut(&str) -> Vec<String>,
) -> (f64, f64) {
    let (mut found, mut rr) = (0usize, 0f64);
    for (query, wanted) in queries {
        let slugs = ranked(query);
        let rank = slugs.iter().position(|s| wanted.contains(s));
        found += usize::from(rank.is_some_and(|r| r < 5));
        rr += rank
            .filter(|r| *r < 10)
            .map_or(0.0, |r| 1.0 / (r + 1) as f64);
    }
    let n = queries.len().max(1) as f64;
    (found as f64 / n, rr / n)
}
