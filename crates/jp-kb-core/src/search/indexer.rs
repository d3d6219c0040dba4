//! Reading files into a segment builder: each file's slug, headings,
//! front-matter and body, tokenized into the fields the ranking weighs
//! (see [`super::segment`] for the fields, [`super::rank`] for the
//! weights), on every core when there are many files.

use std::borrow::Cow;
use std::path::Path;

use super::rank;
use super::segment::{BODY, Builder, DocMeta, FIELDS, MENTION, NAME, SUMMARY};
use super::tokenize::Tokenizer;
use crate::content::{Content, Root, read_content};
use crate::frontmatter;

/// A file that should be in the index, as the walk saw it.
#[derive(Debug, Clone)]
pub struct IndexedFile<'a> {
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

/// A file changed less than this before it was read may change again
/// within the same timestamp; its stamp is not trusted (read again).
const UNSURE_NANOS: i64 = 2_000_000_000;
/// Below this many files one thread indexes; above, one per core.
const PARALLEL_FROM: usize = 512;

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

/// Reads and indexes `files` after what `builder` holds, on every core
/// when there are many: the parts of one segment, in order (see
/// [`super::segment::encode_parts`]).
pub(super) fn index_files(
    mut builder: Builder,
    files: &[&IndexedFile<'_>],
    now: i64,
) -> Vec<Builder> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if files.len() < PARALLEL_FROM || threads < 2 {
        let mut tokenizer = Tokenizer::new();
        let mut roots = Roots::default();
        for t in files {
            index_file(&mut builder, &mut tokenizer, roots.of(t.root), t, now);
        }
        return vec![builder];
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
    let mut all = Vec::with_capacity(parts.len() + 1);
    all.push(builder);
    all.extend(parts);
    all
}

/// Indexes one file: its slug, its headings and front-matter, its body.
/// A file whose text cannot be read (binary, not UTF-8, unreadable) is
/// still found by its slug.
fn index_file(
    builder: &mut Builder,
    tokenizer: &mut Tokenizer,
    root: &Root<'_>,
    target: &IndexedFile<'_>,
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
        lens: [0; FIELDS],
    };
    builder.add(meta, |add| {
        file_terms(tokenizer, target.slug, &content, target.markdown, add);
    });
}

/// Calls `add` with each term of a file as `(term, field)`: its slug,
/// front-matter, headings and body, the fields the ranking weighs, and
/// the names it mentions in code ([`MENTION`]). A file that cannot be
/// read as text has only its slug.
pub(super) fn file_terms(
    tokenizer: &mut Tokenizer,
    slug: &str,
    content: &Content,
    markdown: bool,
    add: &mut dyn FnMut(&str, usize),
) {
    let own_name = rank::subject_name(slug);
    // The subject's own name names it; the directories above it
    // (`linux/` in `linux/df`) only place it, like tags: as a name,
    // "free" would begin `freebsd` and every FreeBSD page would rank
    // as named by it.
    let (dirs, name) = slug.rsplit_once('/').unwrap_or(("", slug));
    tokenizer.terms(dirs, |t, _| add(t, SUMMARY));
    tokenizer.terms(name, |t, _| add(t, NAME));
    let Content::Text(text) = content else {
        return;
    };
    let mut body = text.as_str();
    if markdown && let Some((yaml, end)) = frontmatter::split(text) {
        // A block that is not YAML stays part of the body.
        if let Ok(value) = serde_norway::from_str::<serde_json::Value>(yaml) {
            let name = frontmatter::scalar_text(&value, &["name", "title"]);
            tokenizer.terms(&name, |t, _| add(t, NAME));
            let about = frontmatter::scalar_text(&value, &["description", "tags"]);
            tokenizer.terms(&about, |t, _| add(t, SUMMARY));
            body = text.get(end..).unwrap_or_default();
        }
    }
    // The first heading names the subject (tldr's `# tar`); the first
    // paragraph after it usually says what the subject is about
    // (tldr's `> description` lines).
    let mut summary = Summary::Before;
    let mut titled = false;
    for line in body.lines() {
        let heading = markdown && line.starts_with('#');
        summary = match (summary, line.trim().is_empty(), heading) {
            (Summary::Before, false, false) => Summary::In,
            (Summary::In, true, _) => Summary::After,
            (state, _, _) => state,
        };
        let field = if heading && !titled && summary == Summary::Before {
            titled = true;
            NAME
        } else if heading || summary == Summary::In {
            SUMMARY
        } else {
            BODY
        };
        tokenizer.terms(line, |t, _| add(t, field));
        rank::mentions(line, |name| {
            if !name.eq_ignore_ascii_case(own_name) {
                add(&rank::mention_term(name), MENTION);
            }
        });
    }
}

/// Where a line is relative to the body's first paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Summary {
    Before,
    In,
    After,
}
