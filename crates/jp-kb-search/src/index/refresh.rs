//! Bringing the index in line with the caller's files: nothing to do while
//! their digest is the one the index saved; otherwise every file is
//! compared with the index, changed and new ones read into a new delta
//! (or a new main segment, when the delta grew past a tenth of it).

use super::{Index, idx};
use crate::cache_file::CacheError;
use crate::document::{Document, FileStamp};
use crate::hash::{FastMap, FastSet};
use crate::indexer::index_files;
use crate::segment::{Builder, DocMeta, Head, Segment, encode_parts};

/// What [`Index::refresh`] did, and the segment files to write.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Change {
    /// Files read.
    pub indexed: usize,
    /// Files dropped.
    pub removed: usize,
    /// A new main segment's bytes, to save.
    pub main: Option<Vec<u8>>,
    /// A new delta segment's bytes, to save.
    pub delta: Option<Vec<u8>>,
}

impl Index {
    /// Brings the index in line with `files`: files that are new or whose
    /// size or time changed are read (through a reader `readers` makes,
    /// one per thread, given the file's position in `files`) and indexed,
    /// missing ones dropped. `now` is the current time in nanoseconds
    /// since the epoch. While `files` are those the index was last
    /// brought up to date with (their [`FileStamp::digest`]), nothing is
    /// compared nor read.
    pub fn refresh<R, F>(
        &mut self,
        files: &[FileStamp<'_>],
        now: i64,
        readers: &R,
    ) -> Result<Change, CacheError>
    where
        R: Fn() -> F + Sync,
        F: FnMut(usize) -> Document,
    {
        let digest = FileStamp::digest(files);
        if digest == self.synced() {
            return Ok(Change::default());
        }
        let main_docs = self.main.docs()?;
        let delta_docs = self.delta.docs()?;
        let (stale, gone) = self.compare(files, &main_docs, &delta_docs);
        let main_len = main_docs.len();
        let id = new_id(now);
        if stale.is_empty() && gone.is_empty() {
            // Up to date, under another digest (the first search after
            // an index of unsure files settled, or files listed in
            // another order by another walk): the delta is saved again
            // with it, so the next process compares nothing.
            let mut builder = Builder::default();
            builder.absorb(&self.delta, |_, _| true)?;
            builder.masked.clone_from(&self.delta.masked);
            let head = Head {
                id,
                base: self.main.id,
                digest,
            };
            let delta = builder.encode(head);
            self.delta = Segment::from_bytes(delta.clone())?;
            self.relink();
            return Ok(Change {
                delta: Some(delta),
                ..Change::default()
            });
        }
        let drop: FastSet<&str> = stale
            .iter()
            .map(|(_, f)| f.key())
            .chain(gone.iter().copied())
            .collect();
        let mut change = Change {
            indexed: stale.len(),
            removed: gone.len(),
            ..Change::default()
        };
        let pending = self.delta.doc_count() + self.delta.masked.len() + drop.len();
        let mut builder = Builder::default();
        let (main, delta) = if main_len == 0 || pending > (main_len / 10).max(256) {
            let masked = &self.masked;
            builder.absorb(&self.main, |i, d| {
                !masked.get(i).copied().unwrap_or(true) && !drop.contains(d.path.as_str())
            })?;
            builder.absorb(&self.delta, |_, d| !drop.contains(d.path.as_str()))?;
            let parts = index_files(builder, &stale, now, readers);
            let digest = digest_unless_unsure(&parts, digest);
            let main = encode_parts(
                &parts,
                Head {
                    id,
                    base: 0,
                    digest,
                },
            );
            let delta = Builder::default().encode(Head {
                id: id ^ 1,
                base: id,
                digest,
            });
            (Some(main), delta)
        } else {
            builder.absorb(&self.delta, |_, d| !drop.contains(d.path.as_str()))?;
            let mut masked = self.delta.masked.clone();
            masked.extend(
                main_docs
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| drop.contains(d.path.as_str()))
                    .map(|(i, _)| idx(i)),
            );
            builder.masked = masked;
            let parts = index_files(builder, &stale, now, readers);
            let head = Head {
                id,
                base: self.main.id,
                digest: digest_unless_unsure(&parts, digest),
            };
            (None, encode_parts(&parts, head))
        };
        if let Some(main) = main {
            self.main = Segment::from_bytes(main.clone())?;
            change.main = Some(main);
        }
        self.delta = Segment::from_bytes(delta.clone())?;
        change.delta = Some(delta);
        self.relink();
        Ok(change)
    }
}

impl Index {
    /// The files of `files` that are new or changed (with their
    /// positions), and the keys of the live documents no file is.
    fn compare<'f, 'd>(
        &self,
        files: &'f [FileStamp<'f>],
        main_docs: &'d [DocMeta],
        delta_docs: &'d [DocMeta],
    ) -> (Vec<(usize, &'f FileStamp<'f>)>, Vec<&'d str>) {
        let main_len = main_docs.len();
        let mut live: FastMap<&str, (usize, &DocMeta)> = FastMap::default();
        for (i, d) in main_docs.iter().enumerate() {
            if !self.masked.get(i).copied().unwrap_or(true) {
                live.insert(&d.path, (i, d));
            }
        }
        for (i, d) in delta_docs.iter().enumerate() {
            live.insert(&d.path, (main_len + i, d));
        }
        let mut seen = vec![false; main_len + delta_docs.len()];
        let mut stale = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let found = live.get(f.key());
            match found {
                Some((_, m)) if m.modified != 0 && (m.bytes, m.modified) == f.stamp() => {}
                _ => stale.push((i, f)),
            }
            if let Some(flag) = found.and_then(|(slot, _)| seen.get_mut(*slot)) {
                *flag = true;
            }
        }
        let gone = live
            .iter()
            .filter(|(_, (slot, _))| !seen.get(*slot).copied().unwrap_or(false))
            .map(|(path, _)| *path)
            .collect();
        (stale, gone)
    }
}

/// `digest`, or 0 when a file read was changed too recently to trust its
/// time (it is read again next time, so the files must be compared).
fn digest_unless_unsure(parts: &[Builder], digest: u64) -> u64 {
    let unsure = parts.iter().flat_map(|p| &p.docs).any(|d| d.modified == 0);
    if unsure { 0 } else { digest }
}

/// A segment id that differs between builds.
fn new_id(now: i64) -> u64 {
    let seed = [&now.to_le_bytes()[..], &std::process::id().to_le_bytes()].concat();
    crate::codec::checksum(&seed) | 2
}
