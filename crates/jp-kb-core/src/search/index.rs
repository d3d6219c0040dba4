//! The live index: a main segment plus a small delta segment of the files
//! added or changed since, with the main documents the delta replaces or
//! removes masked. Bringing it up to date re-reads only the files whose
//! size or modification time changed; the delta is folded into a new main
//! segment once it grows past a tenth of it, without reading any file.

use std::borrow::Cow;
use std::path::Path;

use super::hash::{FastMap, FastSet};

use super::segment::{Builder, DocMeta, Segment, SegmentError};
use super::tokenize::Tokenizer;
use crate::content::{Content, Root, read_content};
use crate::frontmatter;

/// BM25 parameters (the usual ones).
const K1: f32 = 1.2;
/// Length normalisation, lower than the usual 0.75: a command's main page
/// is long (many examples) and must not lose to a short page that merely
/// mentions the words (measured on the labelled tldr queries).
const B: f32 = 0.3;
/// Term weights by where the term is: the slug names the subject, headings
/// and front-matter summarise it.
const SLUG_WEIGHT: u32 = 3;
const HEADING_WEIGHT: u32 = 2;
const BODY_WEIGHT: u32 = 1;
/// A file changed less than this before it was read may change again
/// within the same timestamp; its stamp is not trusted (read again).
const UNSURE_NANOS: i64 = 2_000_000_000;
/// Below this many files one thread indexes; above, one per core.
const PARALLEL_FROM: usize = 512;

/// A file that should be in the index, as the walk saw it.
#[derive(Debug, Clone)]
pub struct Target<'a> {
    /// The key: the file's path (the index is kept per workspace root).
    pub path: Cow<'a, str>,
    pub abs: &'a Path,
    /// The workspace root: every read goes through the guarded open.
    pub root: &'a Path,
    /// The slug under the first topic that holds the file.
    pub slug: &'a str,
    pub markdown: bool,
    pub bytes: u64,
    pub modified: i64,
}

/// A document of the live index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocRef {
    Main(u32),
    Delta(u32),
}

/// What [`Index::refresh`] did, and the segment files to write.
#[derive(Debug, Default)]
pub struct Change {
    pub indexed: usize,
    pub removed: usize,
    pub main: Option<Vec<u8>>,
    pub delta: Option<Vec<u8>>,
}

/// The searchable index.
#[derive(Debug, Default)]
pub struct Index {
    main: Segment,
    delta: Segment,
    masked: Vec<bool>,
    live: FastMap<String, DocRef>,
    total_len: u64,
}

impl Index {
    /// The index made of these segments; a delta made for another main
    /// segment is dropped (its files are found stale and read again).
    pub fn new(main: Segment, delta: Segment) -> Self {
        let delta = if delta.base == main.id {
            delta
        } else {
            Segment::empty(0, main.id)
        };
        let mut index = Self {
            main,
            delta,
            ..Self::default()
        };
        index.relink();
        index
    }

    fn relink(&mut self) {
        let replaced: FastSet<&str> = self
            .delta
            .removed
            .iter()
            .map(String::as_str)
            .chain(self.delta.docs.iter().map(|d| d.path.as_str()))
            .collect();
        self.masked = self
            .main
            .docs
            .iter()
            .map(|d| replaced.contains(d.path.as_str()))
            .collect();
        self.live.clear();
        self.total_len = 0;
        for (i, d) in self.main.docs.iter().enumerate() {
            if !self.masked[i] {
                self.live.insert(d.path.clone(), DocRef::Main(idx(i)));
                self.total_len += u64::from(d.len);
            }
        }
        for (i, d) in self.delta.docs.iter().enumerate() {
            self.live.insert(d.path.clone(), DocRef::Delta(idx(i)));
            self.total_len += u64::from(d.len);
        }
    }

    /// Number of live documents.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    pub fn meta(&self, doc: DocRef) -> Option<&DocMeta> {
        match doc {
            DocRef::Main(i) => self.main.docs.get(i as usize),
            DocRef::Delta(i) => self.delta.docs.get(i as usize),
        }
    }

    /// The live document for a path.
    pub fn doc(&self, path: &str) -> Option<DocRef> {
        self.live.get(path).copied()
    }

    /// Brings the index in line with `targets`: files that are new or whose
    /// size or time changed are read and indexed, missing ones dropped.
    /// `now` is the current time in nanoseconds since the epoch.
    pub fn refresh(&mut self, targets: &[Target<'_>], now: i64) -> Result<Change, SegmentError> {
        let main_len = self.main.docs.len();
        let mut seen = vec![false; main_len + self.delta.docs.len()];
        let mut stale: Vec<&Target<'_>> = Vec::new();
        for t in targets {
            let doc = self.doc(&t.path);
            match doc.and_then(|d| self.meta(d)) {
                Some(m) if m.modified != 0 && m.bytes == t.bytes && m.modified == t.modified => {}
                _ => stale.push(t),
            }
            let slot = match doc {
                Some(DocRef::Main(i)) => Some(i as usize),
                Some(DocRef::Delta(i)) => Some(main_len + i as usize),
                None => None,
            };
            if let Some(flag) = slot.and_then(|s| seen.get_mut(s)) {
                *flag = true;
            }
        }
        let gone: Vec<String> = self
            .live
            .iter()
            .filter(|(_, doc)| {
                let slot = match doc {
                    DocRef::Main(i) => *i as usize,
                    DocRef::Delta(i) => main_len + *i as usize,
                };
                !seen.get(slot).copied().unwrap_or(false)
            })
            .map(|(path, _)| path.clone())
            .collect();
        if stale.is_empty() && gone.is_empty() {
            return Ok(Change::default());
        }
        let drop: FastSet<&str> = stale
            .iter()
            .map(|t| t.path.as_ref())
            .chain(gone.iter().map(String::as_str))
            .collect();
        let mut change = Change {
            indexed: stale.len(),
            removed: gone.len(),
            ..Change::default()
        };
        let pending = self.delta.docs.len() + self.delta.removed.len() + drop.len();
        let id = new_id(now);
        let mut builder = Builder::default();
        if self.main.docs.is_empty() || pending > (self.main.docs.len() / 10).max(256) {
            let masked = &self.masked;
            builder.absorb(&self.main, |i, d| {
                !masked.get(i).copied().unwrap_or(true) && !drop.contains(d.path.as_str())
            })?;
            builder.absorb(&self.delta, |_, d| !drop.contains(d.path.as_str()))?;
            index_files(&mut builder, &stale, now);
            let main = builder.encode(id, 0);
            let delta = Builder::default().encode(id ^ 1, id);
            self.main = Segment::decode(main.clone())?;
            self.delta = Segment::decode(delta.clone())?;
            change.main = Some(main);
            change.delta = Some(delta);
        } else {
            builder.absorb(&self.delta, |_, d| !drop.contains(d.path.as_str()))?;
            let in_main: FastSet<&str> = self.main.docs.iter().map(|d| d.path.as_str()).collect();
            let mut removed: Vec<String> = self.delta.removed.clone();
            removed.extend(
                drop.iter()
                    .filter(|p| in_main.contains(**p))
                    .map(|p| (*p).to_owned()),
            );
            removed.sort_unstable();
            removed.dedup();
            builder.removed = removed;
            index_files(&mut builder, &stale, now);
            let delta = builder.encode(id, self.main.id);
            self.delta = Segment::decode(delta.clone())?;
            change.delta = Some(delta);
        }
        self.relink();
        Ok(change)
    }

    /// BM25 scores of the live documents that hold any of `terms`.
    #[allow(clippy::cast_precision_loss)] // counts far below 2^23 matter
    pub fn score(&self, terms: &[String]) -> Vec<(DocRef, f32)> {
        let n = self.live.len() as f32;
        if self.live.is_empty() {
            return Vec::new();
        }
        let avg = (self.total_len as f32 / n).max(1.0);
        let main_len = self.main.docs.len();
        let mut scores = vec![0f32; main_len + self.delta.docs.len()];
        let mut hits = Vec::new();
        for term in terms {
            hits.clear();
            if let Some(p) = self.main.postings(term) {
                hits.extend(
                    p.filter(|(d, _)| !self.masked.get(*d as usize).copied().unwrap_or(true))
                        .map(|(d, tf)| (d as usize, tf)),
                );
            }
            if let Some(p) = self.delta.postings(term) {
                hits.extend(p.map(|(d, tf)| (main_len + d as usize, tf)));
            }
            let df = hits.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(slot, tf) in &hits {
                let dl = self.slot_meta(slot).map_or(avg, |m| m.len as f32);
                let tf = tf as f32;
                if let Some(s) = scores.get_mut(slot) {
                    *s += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * dl / avg));
                }
            }
        }
        scores
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .map(|(slot, s)| {
                let doc = if slot < main_len {
                    DocRef::Main(idx(slot))
                } else {
                    DocRef::Delta(idx(slot - main_len))
                };
                (doc, s)
            })
            .collect()
    }

    fn slot_meta(&self, slot: usize) -> Option<&DocMeta> {
        let main_len = self.main.docs.len();
        if slot < main_len {
            self.main.docs.get(slot)
        } else {
            self.delta.docs.get(slot - main_len)
        }
    }
}

fn idx(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// A segment id that differs between builds.
fn new_id(now: i64) -> u64 {
    let seed = now.to_le_bytes();
    super::segment::checksum(&[&seed[..], &std::process::id().to_le_bytes()].concat()) | 2
}

/// The guarded-open handle of the workspace root, opened once per thread
/// (a `Root` keeps its directory handle in a cell, so it is not shared
/// between threads); all targets of one index share one root.
#[derive(Default)]
struct Roots<'a> {
    root: Option<Root<'a>>,
}

impl<'a> Roots<'a> {
    fn of(&mut self, path: &'a Path) -> &Root<'a> {
        if self.root.as_ref().is_some_and(|r| r.path() != path) {
            self.root = None;
        }
        self.root.get_or_insert_with(|| Root::new(path))
    }
}

/// Reads and indexes `files`, on every core when there are many.
fn index_files(builder: &mut Builder, files: &[&Target<'_>], now: i64) {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if files.len() < PARALLEL_FROM || threads < 2 {
        let mut tokenizer = Tokenizer::new();
        let mut roots = Roots::default();
        for t in files {
            index_file(builder, &mut tokenizer, roots.of(t.root), t, now);
        }
        return;
    }
    let chunk = files.len().div_ceil(threads.min(8));
    let parts: Vec<Builder> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut b = Builder::default();
                    let mut tokenizer = Tokenizer::new();
                    let mut roots = Roots::default();
                    for t in part {
                        index_file(&mut b, &mut tokenizer, roots.of(t.root), t, now);
                    }
                    b
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for part in parts {
        builder.append(part);
    }
}

/// Indexes one file: its slug, its headings and front-matter, its body.
/// A file whose text cannot be read (binary, not UTF-8, unreadable) is
/// still found by its slug.
fn index_file(
    builder: &mut Builder,
    tokenizer: &mut Tokenizer,
    root: &Root<'_>,
    target: &Target<'_>,
    now: i64,
) {
    let content = read_content(root, target.abs);
    let modified = if now.saturating_sub(target.modified) < UNSURE_NANOS {
        0
    } else {
        target.modified
    };
    let meta = DocMeta {
        path: target.path.clone().into_owned(),
        bytes: target.bytes,
        modified,
        len: 0,
    };
    builder.add(meta, |add| {
        tokenizer.terms(target.slug, |t, _| add(t, SLUG_WEIGHT));
        let Content::Text(text) = &content else {
            return;
        };
        let mut body = text.as_str();
        if target.markdown
            && let Some((yaml, end)) = frontmatter::split(text)
        {
            // A block that is not YAML stays part of the body.
            if let Ok(value) = serde_norway::from_str::<serde_json::Value>(yaml) {
                let fields = frontmatter::searchable_fields(&value);
                tokenizer.terms(&fields, |t, _| add(t, HEADING_WEIGHT));
                body = text.get(end..).unwrap_or_default();
            }
        }
        // The first paragraph after the title usually says what the
        // subject is about (tldr's `> description` lines): weighted like
        // a heading.
        let mut summary = Summary::Before;
        for line in body.lines() {
            let heading = target.markdown && line.starts_with('#');
            summary = match (summary, line.trim().is_empty(), heading) {
                (Summary::Before, false, false) => Summary::In,
                (Summary::In, true, _) => Summary::After,
                (state, _, _) => state,
            };
            let weight = if heading || summary == Summary::In {
                HEADING_WEIGHT
            } else {
                BODY_WEIGHT
            };
            tokenizer.terms(line, |t, _| add(t, weight));
        }
    });
}

/// Where a line is relative to the body's first paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Summary {
    Before,
    In,
    After,
}
