//! What the caller gives the index: each file's stamp as its walk saw it
//! ([`FileStamp`]), and, for a file the index reads, its text
//! ([`Document`]); and how a document's words fall into the fields the
//! ranking weighs.

use std::borrow::Cow;
use std::hash::BuildHasher as _;

use crate::rank;
use crate::segment::{BODY, MENTION, NAME, SUMMARY};
use crate::tokenize::Tokenizer;

/// A file that belongs in the index, as the caller's walk saw it. The
/// index compares `(key, bytes, modified)` with what it holds and asks
/// for the text of the files that differ.
#[derive(Debug, Clone)]
pub struct FileStamp<'a> {
    key: Cow<'a, str>,
    slug: &'a str,
    bytes: u64,
    modified: i64,
}

impl<'a> FileStamp<'a> {
    /// A file known by `key` (unique within the index: its path), named
    /// `slug` (its name field and summary come from it), of `bytes` bytes,
    /// modified at `modified` nanoseconds after the epoch.
    pub fn new(key: Cow<'a, str>, slug: &'a str, bytes: u64, modified: i64) -> Self {
        Self {
            key,
            slug,
            bytes,
            modified,
        }
    }

    /// The index key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The slug.
    pub fn slug(&self) -> &str {
        self.slug
    }

    /// The size and the modification time, as given.
    pub fn stamp(&self) -> (u64, i64) {
        (self.bytes, self.modified)
    }

    /// A digest of the files' keys, sizes and times, the same in any
    /// order: an index saved with the digest of the files it was last
    /// brought up to date with needs no comparison, file by file, while
    /// the digest is unchanged (64 bits: two different sets meet by
    /// chance once in 2^64). Never 0, which means "unknown".
    pub fn digest(files: &[FileStamp<'_>]) -> u64 {
        let state = crate::hash::FastState::default();
        let sum = files.iter().fold(0u64, |sum, f| {
            sum.wrapping_add(state.hash_one((f.key.as_ref(), f.bytes, f.modified)))
        });
        sum.max(1)
    }
}

/// A file's text as the caller read it: the whole text (or none, when
/// it cannot be shown: binary, not UTF-8, unreadable; the file is then
/// found by its slug only), whether it is Markdown (its first heading
/// names it, its other headings summarise it), and what its front matter
/// says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Document {
    text: Option<String>,
    markdown: bool,
    body_at: usize,
    title: String,
    about: String,
}

impl Document {
    /// A file with no text to index.
    pub fn unreadable() -> Self {
        Self::default()
    }

    /// A plain text file's text.
    pub fn text(text: String) -> Self {
        Self {
            text: Some(text),
            ..Self::default()
        }
    }

    /// A Markdown file's text, all of it body.
    pub fn markdown(text: String) -> Self {
        Self {
            text: Some(text),
            markdown: true,
            ..Self::default()
        }
    }

    /// The same text with its front matter parsed by the caller: the body
    /// starts at byte `body_at`; `title` (front-matter `name`, `title`)
    /// names the file, `about` (`description`, `tags`) summarises it.
    #[must_use]
    pub fn with_front_matter(mut self, body_at: usize, title: String, about: String) -> Self {
        self.body_at = body_at;
        self.title = title;
        self.about = about;
        self
    }

    /// The body: the text after the front matter.
    fn body(&self) -> Option<&str> {
        let text = self.text.as_deref()?;
        Some(text.get(self.body_at..).unwrap_or(text))
    }
}

/// Calls `add` with each term of a file as `(term, field)`: its slug,
/// front matter, headings and body, the fields the ranking weighs, and
/// the names it mentions in code ([`MENTION`]).
pub(crate) fn file_terms(
    tokenizer: &mut Tokenizer,
    slug: &str,
    doc: &Document,
    add: &mut dyn FnMut(&str, usize),
) {
    let markdown = doc.markdown;
    let own_name = rank::subject_name(slug);
    // The subject's own name names it; the directories above it
    // (`linux/` in `linux/df`) only place it, like tags: as a name,
    // "free" would begin `freebsd` and every FreeBSD page would rank
    // as named by it.
    let (dirs, name) = slug.rsplit_once('/').unwrap_or(("", slug));
    tokenizer.terms(dirs, |t, _| add(t, SUMMARY));
    tokenizer.terms(name, |t, _| add(t, NAME));
    let Some(body) = doc.body() else {
        return;
    };
    tokenizer.terms(&doc.title, |t, _| add(t, NAME));
    tokenizer.terms(&doc.about, |t, _| add(t, SUMMARY));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_ignores_order_and_sees_any_change() {
        let a = FileStamp::new("a.md".into(), "a", 1, 2);
        let b = FileStamp::new("b.md".into(), "b", 3, 4);
        let ab = FileStamp::digest(&[a.clone(), b.clone()]);
        assert_eq!(ab, FileStamp::digest(&[b.clone(), a.clone()]));
        let b2 = FileStamp::new("b.md".into(), "b", 3, 5);
        assert_ne!(ab, FileStamp::digest(&[a.clone(), b2]));
        assert_ne!(ab, FileStamp::digest(&[a]));
        assert_ne!(FileStamp::digest(&[]), 0);
    }

    #[test]
    fn front_matter_terms_come_from_the_caller() {
        let doc = Document::markdown("---\nx: y\n---\nbody words".into()).with_front_matter(
            13,
            "Title".into(),
            "tags here".into(),
        );
        let mut got = Vec::new();
        file_terms(&mut Tokenizer::new(), "dir/slug", &doc, &mut |t, f| {
            got.push((t.to_owned(), f));
        });
        assert!(got.contains(&("titl".to_owned(), NAME)));
        assert!(got.contains(&("tag".to_owned(), SUMMARY)));
        assert!(got.contains(&("bodi".to_owned(), SUMMARY)));
        assert!(!got.iter().any(|(t, _)| t == "x"));
    }
}
