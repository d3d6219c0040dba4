//! An index with the directory it is saved in: opened lazily from its
//! files, brought up to date and saved, rebuilt with a note for the user
//! when a part of it turns out damaged.

use std::path::PathBuf;

use crate::cache_file::CacheError;
use crate::document::{Document, FileStamp};
use crate::index::{DocRef, Index};
use crate::rank::Scoring;
use crate::store::Store;

/// A lexical (BM25F) index saved in a directory, or kept in memory.
#[derive(Debug)]
pub struct Lexical {
    store: Store,
    index: Index,
    notes: Vec<String>,
}

impl Lexical {
    /// Opens the index saved in `dir` (`None`: memory only). Nothing but
    /// the files' headers and small tables is read; a damaged, foreign or
    /// older index is noted (see [`Self::take_notes`]) and rebuilt by the
    /// next [`Self::refresh`].
    pub fn open(dir: Option<PathBuf>) -> Self {
        let store = Store::new(dir);
        let (index, notes) = store.open();
        Self {
            store,
            index,
            notes,
        }
    }

    /// Notes for the user about the index (rebuilt, kept in memory) since
    /// the last call.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// False when there is no directory or a write to it failed (the index
    /// lives in memory for this process).
    pub fn is_writable(&self) -> bool {
        self.store.is_writable()
    }

    /// The file of a memo kept beside the index (see [`crate::Memo`]),
    /// if the index is saved.
    pub fn memo_file(&self) -> Option<PathBuf> {
        self.store.file("memo.bin")
    }

    /// The main segment's file, if the index is saved (measurements).
    pub fn main_file(&self) -> Option<PathBuf> {
        self.store.main_file()
    }

    /// The digest of the files the index was last brought up to date
    /// with ([`FileStamp::digest`]; 0: unknown): while a caller's files
    /// have this digest, the index is up to date with them.
    pub fn synced(&self) -> u64 {
        self.index.synced()
    }

    /// The index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// Brings the index up to date with `files` (see [`Index::refresh`])
    /// and saves what changed. Returns the number of files read, or `None`
    /// when the index could not be brought up to date.
    pub fn refresh<R, F>(&mut self, files: &[FileStamp<'_>], now: i64, readers: &R) -> Option<usize>
    where
        R: Fn() -> F + Sync,
        F: FnMut(usize) -> Document,
    {
        let change = match self.index.refresh(files, now, readers) {
            Ok(change) => change,
            Err(e) => {
                self.forget(&e);
                self.index.refresh(files, now, readers).ok()?
            }
        };
        self.store.save(&change, &mut self.notes);
        Some(change.indexed)
    }

    /// The ranked lexical hits, best first (see [`Index::ranked`]).
    pub fn ranked(
        &self,
        terms: &[String],
        prefix: Option<&str>,
        scoring: &Scoring,
    ) -> Result<Vec<(DocRef, f32)>, CacheError> {
        self.index.ranked(terms, prefix, scoring)
    }

    /// The key of a ranked document.
    pub fn key(&self, doc: DocRef) -> Result<String, CacheError> {
        self.index.key(doc)
    }

    /// Drops an index found damaged (`why`), with a note: the next
    /// [`Self::refresh`] builds it anew and saves it over the damaged
    /// files.
    pub fn forget(&mut self, why: &CacheError) {
        self.notes
            .push(format!("the search index was {why}; rebuilding it"));
        self.index = Index::default();
    }
}
