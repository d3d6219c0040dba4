//! The exact token count of a knowledge base's `<knowledge>` section, as
//! `jp-kb prompt --stats` counts it, made fast enough to count the section
//! a planned change would produce after every key.
//!
//! The section is counted in the segments [`crate::tokens::TokenTally`]
//! splits it at: before every pre-loaded subject (a `<subject …>` piece
//! after text ending in a newline), so the count of the whole is the sum
//! of the segments'. A segment is a subject and the template text after
//! it (`\n\n`, or the end of its topic and the heading of the next), so
//! its count depends only on the subject's file and that text: a
//! [`SectionCounter`] remembers it, and a planned state that pre-loads
//! what the current one does (one subject more or less) reads and counts
//! only the segments that differ. The memo is keyed by each file's size
//! and modification time as walked, so it holds across loads: a reload
//! after a change reads and counts only the files that changed, and
//! clones of a counter share one memo (the TUI's plan counts and its
//! prompt's count: the section a confirmed change produces was counted
//! by the first already).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use crate::content::Root;
use crate::kb::{KnowledgeBase, SubjectAt};
use crate::render::Piece;
use crate::tokens::count_tokens;

/// A segment: its subject's file, that file's size and modification time
/// as walked, its slug and the template text after it.
type Key = (PathBuf, u64, i64, String, String);

/// Counts sections, remembering each subject segment's count. Clones
/// share the memo (it may be used from several threads at once).
#[derive(Debug, Clone, Default)]
pub struct SectionCounter {
    memo: Arc<Mutex<Memo>>,
}

#[derive(Debug, Default)]
struct Memo {
    /// Each segment's tokens, and the count that last used it.
    counts: HashMap<Key, (usize, u64)>,
    /// Counts made so far.
    counts_made: u64,
}

/// Above this many entries beyond what the last count used, entries the
/// last two counts did not use are dropped (files since changed, subjects
/// no longer pre-loaded).
const SPARE: usize = 4096;

/// A run of the section counted as one text.
enum Segment {
    /// A subject and the template text after it.
    Subject(SubjectAt, String),
    /// Pieces that are not a subject segment (the section's start).
    Text(Vec<Piece<SubjectAt>>),
}

impl SectionCounter {
    pub fn new() -> Self {
        Self::default()
    }

    fn memo(&self) -> std::sync::MutexGuard<'_, Memo> {
        // A panic while holding the lock leaves whole entries only.
        self.memo.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The tokens of `kb`'s `<knowledge>` section (0 when it is absent).
    /// The lock is held only to look a segment up or to put it in: two
    /// threads count at once (each may count a segment the other is
    /// counting too).
    pub fn count(&self, kb: &KnowledgeBase) -> usize {
        let Some(pieces) = kb.knowledge_pieces() else {
            return 0;
        };
        let this = {
            let mut memo = self.memo();
            memo.counts_made += 1;
            memo.counts_made
        };
        let root = Root::new(kb.root());
        let mut total = 0;
        let mut used = 0;
        let mut text = String::new();
        for segment in segments(pieces) {
            text.clear();
            match segment {
                Segment::Text(pieces) => {
                    for piece in &pieces {
                        kb.push_piece_in(&root, piece, &mut text);
                    }
                    total += count_tokens(&text).unwrap_or(0);
                }
                Segment::Subject(at, after) => {
                    let Some(subject) = kb.subject_at(at) else {
                        total += count_tokens(&after).unwrap_or(0);
                        continue;
                    };
                    let key = (
                        subject.path().to_path_buf(),
                        subject.bytes,
                        subject.modified,
                        subject.slug().to_owned(),
                        after,
                    );
                    used += 1;
                    if let Some((n, last)) = self.memo().counts.get_mut(&key) {
                        *last = this;
                        total += *n;
                        continue;
                    }
                    kb.push_piece_in(&root, &Piece::Subject(at), &mut text);
                    text.push_str(&key.4);
                    let n = count_tokens(&text).unwrap_or(0);
                    self.memo().counts.insert(key, (n, this));
                    total += n;
                }
            }
        }
        let mut memo = self.memo();
        if memo.counts.len() > used + SPARE {
            memo.counts.retain(|_, (_, last)| *last + 1 >= this);
        }
        total
    }
}

/// The pieces grouped as `TokenTally` splits them: a new count starts at
/// a subject (whose piece starts with `<`) after text ending in a newline.
/// A subject piece always ends in `</subject>`, so where the splits fall
/// is known without reading any file.
fn segments(pieces: Vec<Piece<SubjectAt>>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for piece in pieces {
        let splits = out.last().is_none_or(ends_in_newline);
        match (piece, out.last_mut()) {
            (Piece::Subject(at), _) if splits => out.push(Segment::Subject(at, String::new())),
            (Piece::Text(t), Some(Segment::Subject(_, after))) => after.push_str(&t),
            (piece, _) => push_plain(&mut out, piece),
        }
    }
    out
}

fn ends_in_newline(segment: &Segment) -> bool {
    match segment {
        Segment::Subject(_, after) => after.ends_with('\n'),
        Segment::Text(pieces) => matches!(pieces.last(), Some(Piece::Text(t)) if t.ends_with('\n')),
    }
}

/// Adds a piece that does not start a count to the last segment. A
/// subject that does not start one (the renderer makes none) turns the
/// segment it joins into plain pieces, counted without the memo.
fn push_plain(out: &mut Vec<Segment>, piece: Piece<SubjectAt>) {
    match out.pop() {
        Some(Segment::Text(mut pieces)) => {
            pieces.push(piece);
            out.push(Segment::Text(pieces));
        }
        Some(Segment::Subject(at, after)) => out.push(Segment::Text(vec![
            Piece::Subject(at),
            Piece::Text(after),
            piece,
        ])),
        None => out.push(Segment::Text(vec![piece])),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::config::{Environment, LoadOptions};

    fn kb(config: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, KnowledgeBase) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut all = vec![(".jp/config.toml", config)];
        all.extend_from_slice(files);
        for (rel, text) in all {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let env = Environment::workspace_only(root.clone());
        let options = LoadOptions {
            workspace: Some(root),
            ..LoadOptions::default()
        };
        let kb = KnowledgeBase::load(&env, &options).unwrap();
        (dir, kb)
    }

    /// The counter agrees with a count of the whole rendered section, as
    /// `prompt --stats` makes it, on texts whose ends merge across the
    /// template (`>`, newlines, `/`, spaces) — and again from its memo.
    #[test]
    fn counts_what_the_whole_section_counts() {
        let config = "[kb.topic.a]\nsubjects = \"a\"\ntitle = \"A\"\ndescription = \"About a.\"\nlearned = [\"**\"]\n\
                      [kb.topic.b]\nsubjects = \"b\"\nlearned = [\"x\"]\n[kb.topic.c]\nsubjects = \"c\"\nintroduction = \"C things\"\n";
        let (_d, kb) = kb(
            config,
            &[
                ("a/one.md", "ends with a tag <b>\n"),
                ("a/two.md", "  trailing spaces  \n\n\n"),
                ("a/three.txt", "path/\n"),
                ("b/x.md", "---\ntitle: x\n---\n*/\n"),
                ("b/y.md", "not learned"),
                ("c/z.md", "menu only"),
            ],
        );
        let whole = count_tokens(&kb.knowledge_section().unwrap()).unwrap();
        let counter = SectionCounter::new();
        assert_eq!(counter.count(&kb), whole);
        assert_eq!(counter.count(&kb), whole, "from the memo");
    }

    /// The memo holds across loads: a file changed since (another size or
    /// modification time as walked) is counted again, the rest come from
    /// the memo, and a clone shares it.
    #[test]
    fn a_reload_counts_again_only_what_changed() {
        let config = "[kb.topic.a]\nsubjects = \"a\"\nlearned = [\"**\"]\n";
        let (dir, kb) = kb(config, &[("a/one.md", "one\n"), ("a/two.md", "two\n")]);
        let counter = SectionCounter::new();
        let first = counter.count(&kb);
        std::fs::write(
            dir.path().join("a/two.md"),
            "two, now much longer than it was\n",
        )
        .unwrap();
        let env = Environment::workspace_only(dir.path().canonicalize().unwrap());
        let options = LoadOptions {
            workspace: Some(dir.path().canonicalize().unwrap()),
            ..LoadOptions::default()
        };
        let reloaded = KnowledgeBase::load(&env, &options).unwrap();
        let whole = count_tokens(&reloaded.knowledge_section().unwrap()).unwrap();
        assert!(whole > first);
        assert_eq!(counter.clone().count(&reloaded), whole);
        assert_eq!(counter.memo().counts.len(), 3, "one.md once, two.md twice");
    }

    #[test]
    fn an_absent_section_is_zero() {
        let (_d, kb) = kb("[kb.topic.a]\nsubjects = \"a\"\n", &[]);
        assert_eq!(SectionCounter::new().count(&kb), 0);
    }
}
