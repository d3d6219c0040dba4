//! Ranked lexical search (BM25) over the subjects of enabled topics: their
//! slugs, Markdown headings, YAML front-matter and bodies. Disabled
//! subjects are never indexed nor returned; hidden ones are returned only
//! when asked for (the CLI marks them, the MCP tool never shows them).
//!
//! The index is a cache (see [`store`]): kept per workspace under the
//! user's cache directory, brought up to date before every search by the
//! files' sizes and modification times. Nothing else depends on it.

#[cfg(feature = "semantic")]
pub mod background;
#[cfg(feature = "semantic")]
mod hybrid;
mod once;
mod places;
mod read;
mod saved_places;
#[cfg(feature = "semantic")]
pub mod semantic;
#[cfg(feature = "semantic")]
mod semantic_model;
pub mod walks;

use std::cell::OnceCell;
use std::path::Path;

#[cfg(feature = "semantic")]
pub use hybrid::Mode;
use jp_kb_search::{CacheError, DocRef, Lexical, Memo, Tokenizer};
pub use jp_kb_search::{Scoring, Snippet};
#[cfg(feature = "semantic")]
pub use once::search_in_mode_with_walks;
pub use once::{search_with_walks, with_saved_walks};
pub use read::index_dir;

use crate::KnowledgeBase;
use crate::content::{Content, Root, format_subject_owned, read_content};
use crate::frontmatter::{self, is_markdown};
use places::{Place, PlaceIndex};

/// Longest query accepted, in bytes (the MCP limits of `learn` are alike).
pub const MAX_QUERY_BYTES: usize = 4096;
/// Hits returned when no limit is given.
pub const DEFAULT_LIMIT: usize = 10;

/// What to search for.
#[derive(Debug, Clone)]
pub struct SearchRequest<'a> {
    /// The words to search for.
    pub query: &'a str,
    /// A topic id or title (resolved as `learn` does); `None`: all enabled.
    pub topic: Option<&'a str>,
    /// At most this many hits.
    pub limit: usize,
    /// Return hidden subjects too (marked).
    pub hidden: bool,
}

/// One found subject.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The topic's id.
    pub topic: String,
    /// The subject's slug.
    pub slug: String,
    /// A hidden subject (only with [`SearchRequest::hidden`]).
    pub hidden: bool,
    /// Pre-loaded: already in the `<knowledge>` section.
    pub learned: bool,
    /// The ranking's score (higher is better; comparable within one search).
    pub score: f32,
    /// `o200k_base` tokens of what `learn` returns for it; `None` when the
    /// content is not shown (binary, not UTF-8, unreadable).
    pub tokens: Option<usize>,
    /// Where the query's words are in it.
    pub snippet: Snippet,
}

/// Hits, best first, and notes for the user about the index.
#[derive(Debug, Default)]
pub struct SearchOutcome {
    /// The subjects found, best first.
    pub hits: Vec<Hit>,
    /// What a person should know about the index or the model (built now, stale, unavailable).
    pub notes: Vec<String>,
    /// The rankings that ran (semantic search built in).
    #[cfg(feature = "semantic")]
    pub mode: Mode,
}

/// A query that cannot be searched.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// No query.
    #[error("the query is empty: give one or more words to search for")]
    Empty,
    /// A query over the limit, with its length in bytes.
    #[error("the query is {0} bytes long; at most {MAX_QUERY_BYTES} are accepted")]
    TooLong(usize),
    /// A query with nothing to search for.
    #[error(
        "the query {0:?} has no letters or digits to search for (search is by words; glob and regex characters are ignored)"
    )]
    NoWords(String),
    /// The topic asked for is not one of the workspace's.
    #[error("{0}")]
    Topic(String),
    /// The embedding model failed (semantic and hybrid modes).
    #[cfg(feature = "semantic")]
    #[error("{0}")]
    Semantic(#[from] jp_kb_embed::ModelError),
}

/// The query's terms, or why it cannot be searched.
pub fn parse_query(tokenizer: &mut Tokenizer, query: &str) -> Result<Vec<String>, SearchError> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(SearchError::TooLong(query.len()));
    }
    if query.trim().is_empty() {
        return Err(SearchError::Empty);
    }
    let terms = tokenizer.query_terms(query);
    if terms.is_empty() {
        return Err(SearchError::NoWords(query.to_owned()));
    }
    Ok(terms)
}

/// A search index kept open between searches (the MCP server, the TUI):
/// each search still re-checks the files, but reads none that did not
/// change (the index itself is `jp_kb_search`'s [`Lexical`]).
#[derive(Debug)]
pub struct Searcher {
    lexical: Lexical,
    tokenizer: Tokenizer,
    notes: Vec<String>,
    /// The ranking's parameters (changed by measurements only).
    pub scoring: Scoring,
    /// The walks the index was last brought up to date with (held: by
    /// identity) and the subjects of their files: a search over the same
    /// walks compares nothing, and one over walks taken again compares
    /// them ([`places::Walks::same_files`]) before the index compares
    /// 38k files one by one (two thirds of a warm query on the tldr tree).
    /// (The subjects are mapped at the first search that needs them: a
    /// refresh alone, as after an edit, does not pay for it.)
    kept: Option<(places::Walks, OnceCell<PlaceIndex>)>,
    /// A process that searches once: the hits' places are found by one
    /// pass over the subjects instead of a map of them all.
    once: bool,
    /// Token counts of hits, by their text (read at the first hit).
    memo: Option<Memo>,
}

impl Searcher {
    /// Opens the saved index of the workspace at `root` (building nothing
    /// yet).
    pub fn open(root: &Path) -> Self {
        Self::open_in(read::index_dir(root))
    }

    /// Opens the index saved in `dir` (`None`: memory only).
    pub fn open_in(dir: Option<std::path::PathBuf>) -> Self {
        let mut lexical = Lexical::open(dir);
        let notes = lexical.take_notes();
        Self {
            lexical,
            tokenizer: Tokenizer::new(),
            notes,
            scoring: Scoring::default(),
            kept: None,
            once: false,
            memo: None,
        }
    }

    /// An index kept in memory only, saying nothing about it (a test
    /// harness; a process that chose not to write a cache).
    pub fn memory() -> Self {
        let mut searcher = Self::open_in(None);
        searcher.notes.clear();
        searcher
    }

    /// The index (for measurements).
    pub fn index(&self) -> &Lexical {
        &self.lexical
    }

    /// Brings the index up to date with `kb`'s files and saves what changed.
    /// Returns the number of files read.
    pub fn refresh(&mut self, kb: &KnowledgeBase) -> usize {
        let before = match self.kept.take() {
            Some((walks, places)) if walks.same(kb) => {
                self.kept = Some((walks, places));
                return 0;
            }
            other => other,
        };
        let walks = places::Walks::of(kb);
        // Walked again (a reload), the same files: up to date.
        if before.is_some_and(|(old, _)| old.same_files(kb)) {
            self.kept = Some((walks, OnceCell::new()));
            return 0;
        }
        let Some(read) = self.sync(kb) else {
            return 0;
        };
        // Kept only for an index brought up to date with these walks.
        self.kept = Some((walks, OnceCell::new()));
        read
    }

    /// Compares the index with `kb`'s files, reads the changed ones and
    /// saves what changed: the files read, or `None` when the index could
    /// not be brought up to date.
    fn sync(&mut self, kb: &KnowledgeBase) -> Option<usize> {
        let targets = read::targets(kb);
        let stamps: Vec<_> = targets.iter().map(|t| t.stamp.clone()).collect();
        let root = kb.root();
        // One guarded root per thread (it keeps its directory open).
        let readers = || {
            let root = Root::new(root);
            let targets = &targets;
            move |i: usize| {
                targets
                    .get(i)
                    .map_or_else(jp_kb_search::Document::unreadable, |t| {
                        read::document(&root, t.subject)
                    })
            }
        };
        let read = self.lexical.refresh(&stamps, now_nanos(), &readers);
        self.notes.append(&mut self.lexical.take_notes());
        read
    }

    /// Searches `kb` (refreshing the index first).
    pub fn search(
        &mut self,
        kb: &KnowledgeBase,
        request: &SearchRequest<'_>,
    ) -> Result<SearchOutcome, SearchError> {
        let (terms, ranked) = self.ranked(kb, request)?;
        let hits = ranked
            .iter()
            .map(|(place, score)| self.hit(place, *score, &terms))
            .collect();
        self.save_memo();
        Ok(SearchOutcome {
            hits,
            notes: std::mem::take(&mut self.notes),
            #[cfg(feature = "semantic")]
            mode: Mode::Lexical,
        })
    }

    /// The ranking alone, best first: `(topic, slug, score)` with no
    /// snippet nor token count (for measurements of the ranking).
    pub fn ranking(
        &mut self,
        kb: &KnowledgeBase,
        request: &SearchRequest<'_>,
    ) -> Result<Vec<(String, String, f32)>, SearchError> {
        let (_, ranked) = self.ranked(kb, request)?;
        Ok(ranked
            .into_iter()
            .map(|(p, score)| (p.topic.to_owned(), p.slug.to_owned(), score))
            .collect())
    }

    /// The query's terms and the places it finds, best first, at most
    /// `request.limit`.
    fn ranked<'k>(
        &mut self,
        kb: &'k KnowledgeBase,
        request: &SearchRequest<'_>,
    ) -> Result<(Vec<String>, Ranked<'k>), SearchError> {
        let terms = parse_query(&mut self.tokenizer, request.query)?;
        let scope = topic_scope(kb, request)?;
        self.refresh(kb);
        let prefix = Tokenizer::last_word(request.query);
        let prefix = prefix.as_deref();
        let ranked = match self.places(kb, &terms, prefix, scope, request) {
            Ok(ranked) => ranked,
            Err(e) => {
                // A part of the saved index is damaged: built anew, then
                // asked again.
                self.lexical.forget(&e);
                self.kept = None;
                self.refresh(kb);
                self.places(kb, &terms, prefix, scope, request)
                    .unwrap_or_default()
            }
        };
        self.notes.append(&mut self.lexical.take_notes());
        Ok((terms, ranked))
    }

    /// The places the ranked documents are, best first, at most
    /// `request.limit`, in topic `scope` when given.
    fn places<'k>(
        &self,
        kb: &'k KnowledgeBase,
        terms: &[String],
        prefix: Option<&str>,
        scope: Option<&str>,
        request: &SearchRequest<'_>,
    ) -> Result<Ranked<'k>, CacheError> {
        let scored: Vec<(DocRef, f32)> = self.lexical.ranked(terms, prefix, &self.scoring)?;
        if self.once {
            return self.places_once(kb, &scored, scope, request);
        }
        // Made for this search only when the index could not be kept.
        let made;
        let places = if let Some((_, places)) = &self.kept {
            places.get_or_init(|| PlaceIndex::new(kb))
        } else {
            made = PlaceIndex::new(kb);
            &made
        };
        let wanted = request.limit;
        let mut ranked = Vec::new();
        for (doc, score) in scored {
            if ranked.len() >= wanted {
                break;
            }
            let key = self.lexical.key(doc)?;
            for place in places.of(kb, key.as_bytes(), scope, request.hidden) {
                if ranked.len() < wanted {
                    ranked.push((place, score));
                }
            }
        }
        Ok(ranked)
    }

    /// [`Self::places`] for a process that searches once: the keys of the
    /// leaders in growing batches, each batch's places found by one pass.
    fn places_once<'k>(
        &self,
        kb: &'k KnowledgeBase,
        scored: &[(DocRef, f32)],
        scope: Option<&str>,
        request: &SearchRequest<'_>,
    ) -> Result<Ranked<'k>, CacheError> {
        let wanted = request.limit;
        let mut ranked = Vec::new();
        let (mut from, mut batch) = (0, wanted.saturating_mul(2).saturating_add(8));
        while ranked.len() < wanted && from < scored.len() {
            let to = from.saturating_add(batch).min(scored.len());
            let leaders = scored.get(from..to).unwrap_or_default();
            let keys = leaders
                .iter()
                .map(|(doc, _)| self.lexical.key(*doc))
                .collect::<Result<Vec<_>, _>>()?;
            let places = PlaceIndex::of_keys(kb, &keys);
            for ((_, score), key) in leaders.iter().zip(&keys) {
                for place in places.of(kb, key.as_bytes(), scope, request.hidden) {
                    if ranked.len() < wanted {
                        ranked.push((place, *score));
                    }
                }
            }
            from = to;
            batch = batch.saturating_mul(4);
        }
        Ok(ranked)
    }

    /// The tokens of `text`, remembered by its length and hash: the first
    /// count of a process builds the pre-split's regular expression
    /// (~3.5 ms, a third of a warm search's process), and the same hits
    /// come back.
    fn count_tokens(&mut self, text: &str) -> Option<usize> {
        use std::hash::BuildHasher as _;
        let hash = jp_kb_search::hash::FastState::default().hash_one(text);
        let key = format!("{}:{hash:016x}", text.len());
        let memo = self.memo.get_or_insert_with(|| {
            self.lexical
                .memo_file()
                .map_or_else(Memo::default, |path| Memo::load(&path))
        });
        if let Some(n) = memo.get(&key).and_then(|n| usize::try_from(n).ok()) {
            return Some(n);
        }
        let n = crate::tokens::count_tokens(text)?;
        memo.put(key, n as u64);
        Some(n)
    }

    /// Saves the token counts this searcher made (see
    /// [`Self::count_tokens`]); a memo that cannot be saved is counted
    /// again next time.
    fn save_memo(&mut self) {
        if let (Some(memo), Some(path)) = (&mut self.memo, self.lexical.memo_file())
            && memo.is_changed()
        {
            let _ = memo.save(&path);
        }
    }

    fn hit(&mut self, place: &Place<'_>, score: f32, terms: &[String]) -> Hit {
        let content = read_content(&Root::new(place.root), place.path);
        let extension = place.extension;
        let markdown = is_markdown(extension);
        let (tokens, snippet) = match content {
            Content::Text(text) => {
                let body = if markdown {
                    frontmatter::split(&text).map_or(text.as_str(), |(_, end)| {
                        text.get(end..).unwrap_or_default()
                    })
                } else {
                    &text
                };
                let snippet = jp_kb_search::snippet(&mut self.tokenizer, body, terms);
                let formatted = format_subject_owned(place.slug, extension, Content::Text(text));
                (self.count_tokens(&formatted), snippet)
            }
            Content::Skipped(reason) => (
                None,
                Snippet {
                    text: format!("(content not shown: {reason})"),
                    marks: Vec::new(),
                },
            ),
        };
        Hit {
            topic: place.topic.to_owned(),
            slug: place.slug.to_owned(),
            hidden: place.hidden,
            learned: place.learned,
            score,
            tokens,
            snippet,
        }
    }
}

/// Why `query` cannot be searched, if it cannot.
pub fn check_query(query: &str) -> Result<(), SearchError> {
    parse_query(&mut Tokenizer::new(), query).map(drop)
}

/// Searches `kb` with the index saved for its workspace.
pub fn search(
    kb: &KnowledgeBase,
    request: &SearchRequest<'_>,
) -> Result<SearchOutcome, SearchError> {
    // A bad query fails before any index is read or built.
    check_query(request.query)?;
    Searcher::open(kb.root()).search(kb, request)
}

/// The id of the topic `request` is limited to, if any (an unknown name
/// is an error listing the valid ones).
fn topic_scope<'k>(
    kb: &'k KnowledgeBase,
    request: &SearchRequest<'_>,
) -> Result<Option<&'k str>, SearchError> {
    request
        .topic
        .map(|name| {
            kb.resolve_topic(name)
                .map(crate::topic::TopicState::id)
                .map_err(|e| SearchError::Topic(e.to_string()))
        })
        .transpose()
}

/// Places found, best first, with their scores.
type Ranked<'a> = Vec<(Place<'a>, f32)>;

fn now_nanos() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}
