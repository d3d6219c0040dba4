//! The chunks' vectors of every subject file, kept in the user's cache
//! beside the lexical index and brought up to date file by file.
//!
//! The file (little-endian):
//!
//! ```text
//! "JPKBVEC\0"  u32 version  u32 dims  u32 model fingerprint  u64 entries
//! entry:  u32 key length, key (UTF-8), u64 size, i64 modified (ns),
//!         u64 content hash, u32 chunks, chunks × dims f32
//! u32 CRC-32 of every byte before it, then the end of the file
//! ```
//!
//! Every read checks the whole file against its checksum and every length
//! against its bound before one vector is used: a truncated or flipped
//! file is [`VectorsError::Damaged`] (the caller rebuilds), never a wrong
//! ranking. Memory is the vectors themselves: at most
//! [`crate::MAX_CHUNKS`] chunks a file, `dims` floats a chunk (tldr's
//! 7,425 pages: ~15 MB).

use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::chunk::chunks;
use crate::error::ModelError;
use crate::model::Model;
use entries::EntryReader;

const MAGIC: &[u8; 8] = b"JPKBVEC\0";
const VERSION: u32 = 1;
/// The longest key accepted in a file (a path).
const MAX_KEY: usize = 64 << 10;
/// The largest vectors file read: ~700,000 chunks of 384 floats, a
/// hundred times tldr's pages. A larger one is not one jp-kb saved.
pub const MAX_VECTORS_BYTES: u64 = 1 << 30;
/// Chunks embedded per call of the model: progress is reported, and what
/// is done saved, between calls (four of the model's batches, shared by
/// two cores: a build killed at any time loses at most a few seconds' work;
/// 128 lost a whole first build of 150 tldr pages killed at half time).
const EMBED_BATCH: usize = 32;
/// How often a first build hands what it made to be saved: every eighth
/// of the time it has run, within these bounds (early saves are small and
/// cheap; a kill loses at most the larger bound's work).
pub const CHECKPOINT_EVERY: (Duration, Duration) = (Duration::from_secs(1), Duration::from_secs(5));

/// Why the saved vectors cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum VectorsError {
    /// The file cannot be read.
    #[error("cannot read {0}")]
    Io(#[from] std::io::Error),
    /// The file is not what was written (truncated, changed, another
    /// format): rebuild.
    #[error("damaged ({0})")]
    Damaged(String),
    /// The vectors were made by another model (or another version of it):
    /// not comparable, rebuild.
    #[error("made by another model")]
    OtherModel,
}

impl VectorsError {
    /// A file not read for what it is (a FIFO, a link to nothing, too
    /// large) is as good as damaged: rebuilt, with the reason.
    pub fn refused(e: std::io::Error) -> Self {
        match jp_kb_fs::refusal(&e) {
            Some(why) => Self::Damaged(why.to_string()),
            None => Self::Io(e),
        }
    }
}

/// A file that belongs in the index, as the caller's walk saw it.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// The file's key (its path): one entry per key.
    pub key: &'a str,
    /// The slug it is embedded under (its first topic's).
    pub slug: &'a str,
    /// Markdown: chunked by heading.
    pub markdown: bool,
    /// Its size and modification time as walked: unchanged ones are not
    /// read again.
    pub bytes: u64,
    /// Modification time, nanoseconds since the epoch.
    pub modified: i64,
    /// Embedded now when new or changed; out of scope (another topic than
    /// the one searched), it keeps what it had, stale or absent.
    pub in_scope: bool,
}

/// One file's vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The file's key.
    pub key: String,
    bytes: u64,
    modified: i64,
    hash: u64,
    /// `chunks × dims` floats, each chunk's vector unit length.
    vectors: Vec<f32>,
}

/// A file's similarity to a query: its best chunk's cosine.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The file's key.
    pub key: String,
    /// The cosine similarity of its closest chunk.
    pub score: f32,
}

/// What an update did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Update {
    /// Files embedded (new or changed).
    pub embedded: usize,
    /// Chunks embedded.
    pub chunks: usize,
    /// Files gone from the index.
    pub removed: usize,
    /// Files touched (new size or time) with the same content: kept, with
    /// their new stamps.
    pub touched: usize,
}

impl Update {
    /// Whether anything changed (the file needs saving).
    pub fn changed(&self) -> bool {
        self.embedded > 0 || self.removed > 0 || self.touched > 0
    }
}

/// Every file's vectors, for one model.
#[derive(Debug, Clone)]
pub struct Vectors {
    dims: usize,
    fingerprint: u32,
    entries: Vec<Entry>,
}

impl Vectors {
    /// No vectors yet, for `model`.
    pub fn empty(model: &Model) -> Self {
        Self::for_model(model.dims(), model.fingerprint())
    }

    fn for_model(dims: usize, fingerprint: u32) -> Self {
        Self {
            dims,
            fingerprint,
            entries: Vec::new(),
        }
    }

    /// Files held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No file held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Chunks held.
    pub fn chunks(&self) -> usize {
        self.entries.iter().map(|e| e.vectors.len()).sum::<usize>() / self.dims.max(1)
    }

    /// The vectors saved at `path` for `model`.
    pub fn load(path: &Path, model: &Model) -> Result<Self, VectorsError> {
        Self::load_with_metadata(path, model).map(|(vectors, _)| vectors)
    }

    /// [`Vectors::load`], and the metadata of the very file read (which
    /// says whether it is still the file at `path` later).
    pub fn load_with_metadata(
        path: &Path,
        model: &Model,
    ) -> Result<(Self, std::fs::Metadata), VectorsError> {
        // Never blocking on a FIFO, never reading a file larger than any
        // vectors jp-kb saves.
        let opened = jp_kb_fs::open_regular(path).map_err(VectorsError::refused)?;
        if opened.len() > MAX_VECTORS_BYTES {
            return Err(VectorsError::refused(
                jp_kb_fs::Refusal::TooLarge {
                    size: opened.len(),
                    limit: MAX_VECTORS_BYTES,
                }
                .into(),
            ));
        }
        let (file, metadata) = (opened.file, opened.metadata);
        // Read in large pieces: the file is ~13 MB for tldr's pages.
        let reader = BufReader::with_capacity(1 << 20, file);
        let vectors = Self::read_from(reader, model.dims(), model.fingerprint())?;
        Ok((vectors, metadata))
    }

    fn read_from(reader: impl Read, dims: usize, fingerprint: u32) -> Result<Self, VectorsError> {
        let mut r = EntryReader::open(reader, dims, fingerprint)?;
        let mut out = Self::for_model(dims, fingerprint);
        while let Some(head) = r.next_head()? {
            // Read straight into the floats kept (one allocation, no
            // conversion pass).
            let mut vectors = vec![0f32; head.chunks * dims];
            r.vectors(&mut vectors)?;
            out.entries.push(Entry {
                key: head.key,
                bytes: head.bytes,
                modified: head.modified,
                hash: head.hash,
                vectors,
            });
        }
        r.finish()?;
        Ok(out)
    }

    /// Writes the vectors to `path` whole: a temporary file in its
    /// directory, then a rename (a reader sees the old file or the new).
    /// Returns the metadata of the file written.
    pub fn save(&self, path: &Path) -> std::io::Result<std::fs::Metadata> {
        save_entries(path, self.dims, self.fingerprint, self.entries.iter())
    }

    #[cfg(test)]
    fn write_to(&self, w: &mut impl Write) -> std::io::Result<()> {
        write_entries(w, self.dims, self.fingerprint, self.entries.iter())
    }

    /// Brings the vectors up to date with `sources`: files gone are
    /// dropped, files in scope whose size or time changed are read (`read`
    /// gives their text, `None` for one that is not text) and embedded
    /// again unless their content is the same; a file out of scope keeps
    /// what it had. `progress(done, total)` counts the chunks to embed
    /// (called once with 0 before the first); `checkpoint` is given what
    /// is done so far every few seconds ([`CHECKPOINT_EVERY`]) (the
    /// caller saves it: a build killed halfway keeps what it made, and the
    /// next one embeds the rest).
    pub fn update(
        &mut self,
        sources: &[Source<'_>],
        mut read: impl FnMut(&Source<'_>) -> Option<String>,
        model: &Model,
        mut progress: impl FnMut(usize, usize),
        mut checkpoint: impl FnMut(Checkpoint<'_>),
    ) -> Result<Update, ModelError> {
        let mut old: HashMap<String, Entry> =
            self.entries.drain(..).map(|e| (e.key.clone(), e)).collect();
        let mut update = Update::default();
        let mut kept = Vec::with_capacity(sources.len());
        // (place in `kept`, its chunks' texts) of the files to embed.
        let mut pending: Vec<(usize, Vec<String>)> = Vec::new();
        for s in sources {
            let previous = match old.remove(s.key) {
                // Unchanged, or not asked for now: moved over, not copied
                // (every search of a long-running process refreshes; its
                // vectors are MBs).
                Some(e) if !s.in_scope || (e.bytes == s.bytes && e.modified == s.modified) => {
                    kept.push(e);
                    continue;
                }
                _ if !s.in_scope => continue,
                previous => previous,
            };
            let text = read(s);
            let hash = text.as_deref().map_or(0, content_hash);
            let mut entry = Entry {
                key: s.key.to_owned(),
                bytes: s.bytes,
                modified: s.modified,
                hash,
                vectors: Vec::new(),
            };
            if let Some(prev) = previous.filter(|e| e.hash == hash) {
                // Touched, not changed.
                entry.vectors = prev.vectors;
                update.touched += 1;
                kept.push(entry);
                continue;
            }
            kept.push(entry);
            update.embedded += 1;
            if let Some(text) = text {
                pending.push((kept.len() - 1, chunks(s.slug, &text, s.markdown)));
            }
        }
        update.removed = old.len();
        // Files of similar chunk lengths embedded together: each call's
        // batches pad little although a call is small.
        pending.sort_by_cached_key(|(_, cs)| {
            cs.iter().map(String::len).sum::<usize>() / cs.len().max(1)
        });
        let total: usize = pending.iter().map(|(_, c)| c.len()).sum();
        // Chunks still to embed of each entry: one with some left is not
        // saved by a checkpoint (it would read as up to date).
        let mut left = vec![0usize; kept.len()];
        for (at, cs) in &pending {
            left[*at] = cs.len();
        }
        if total > 0 {
            progress(0, total);
        }
        let mut done = 0;
        let started = Instant::now();
        let mut saved_at = started;
        let all: Vec<(usize, &str)> = pending
            .iter()
            .flat_map(|(at, cs)| cs.iter().map(move |c| (*at, c.as_str())))
            .collect();
        for batch in even_pace(all.chunks(EMBED_BATCH).collect()) {
            done += embed_into(&mut kept, batch, model)?;
            for (at, _) in batch {
                left[*at] -= 1;
            }
            progress(done, total);
            let every = (started.elapsed() / 8).clamp(CHECKPOINT_EVERY.0, CHECKPOINT_EVERY.1);
            if done < total && saved_at.elapsed() >= every {
                checkpoint(Checkpoint {
                    dims: self.dims,
                    fingerprint: self.fingerprint,
                    entries: &kept,
                    left: &left,
                });
                saved_at = Instant::now();
            }
        }
        update.chunks = total;
        self.entries = kept;
        Ok(update)
    }

    /// Every file with a chunk, by its closest chunk's cosine similarity
    /// to `query` (a unit vector of the same model), best first.
    pub fn search(&self, query: &[f32]) -> Vec<Scored> {
        let dims = self.dims.max(1);
        let mut out: Vec<Scored> = self
            .entries
            .iter()
            .filter(|e| !e.vectors.is_empty())
            .map(|e| Scored {
                key: e.key.clone(),
                score: best_chunk(&e.vectors, dims, query),
            })
            .collect();
        sort_scored(&mut out);
        out
    }
}

/// The cosine of the chunk of `vectors` closest to `query`.
fn best_chunk(vectors: &[f32], dims: usize, query: &[f32]) -> f32 {
    vectors
        .chunks_exact(dims)
        .map(|v| dot(v, query))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Best first; equal scores by key.
fn sort_scored(scored: &mut [Scored]) {
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.key.cmp(&b.key)));
}

/// What an update has done so far: the entries up to date (the files
/// whose chunks are all embedded, the ones unchanged), to be saved.
pub struct Checkpoint<'a> {
    dims: usize,
    fingerprint: u32,
    entries: &'a [Entry],
    left: &'a [usize],
}

impl Checkpoint<'_> {
    /// Writes the entries up to date to `path` as [`Vectors::save`] does.
    pub fn save(&self, path: &Path) -> std::io::Result<std::fs::Metadata> {
        let done = self
            .entries
            .iter()
            .zip(self.left)
            .filter(|(_, left)| **left == 0)
            .map(|(e, _)| e);
        save_entries(path, self.dims, self.fingerprint, done)
    }
}

/// Writes `entries` to `path`: a temporary file in its directory, then a
/// rename (a reader sees the old file or the new).
fn save_entries<'e>(
    path: &Path,
    dims: usize,
    fingerprint: u32,
    entries: impl Iterator<Item = &'e Entry> + Clone,
) -> std::io::Result<std::fs::Metadata> {
    let dir = path.parent().unwrap_or(Path::new("."));
    // The first search by meaning alone may come before the lexical
    // index made the directory.
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut w = BufWriter::new(temp.as_file_mut());
        write_entries(&mut w, dims, fingerprint, entries)?;
        w.flush()?;
    }
    temp.as_file().sync_all()?;
    let metadata = temp.as_file().metadata()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(metadata)
}

fn write_entries<'e>(
    w: &mut impl Write,
    dims: usize,
    fingerprint: u32,
    entries: impl Iterator<Item = &'e Entry> + Clone,
) -> std::io::Result<()> {
    let mut crc = crc32fast::Hasher::new();
    let mut put = |bytes: &[u8]| -> std::io::Result<()> {
        crc.update(bytes);
        w.write_all(bytes)
    };
    put(MAGIC)?;
    put(&VERSION.to_le_bytes())?;
    put(&u32::try_from(dims).unwrap_or(u32::MAX).to_le_bytes())?;
    put(&fingerprint.to_le_bytes())?;
    put(&(entries.clone().count() as u64).to_le_bytes())?;
    for e in entries {
        put(&u32::try_from(e.key.len()).unwrap_or(u32::MAX).to_le_bytes())?;
        put(e.key.as_bytes())?;
        put(&e.bytes.to_le_bytes())?;
        put(&e.modified.to_le_bytes())?;
        put(&e.hash.to_le_bytes())?;
        let n = e.vectors.len() / dims.max(1);
        put(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes())?;
        let mut raw = Vec::with_capacity(e.vectors.len() * 4);
        for v in &e.vectors {
            raw.extend_from_slice(&v.to_le_bytes());
        }
        put(&raw)?;
    }
    let sum = crc.finalize();
    w.write_all(&sum.to_le_bytes())
}

/// The calls of a build (shortest chunks first) taken from both ends in
/// turn: the chunks embedded a second stay about even over the build, so
/// the time left said from them holds (shortest first, a build of tldr's
/// pages said "2 min left" at 672 of 8,027 chunks; it took 9.3 min).
fn even_pace<T>(calls: Vec<T>) -> impl Iterator<Item = T> {
    let mut calls = std::collections::VecDeque::from(calls);
    let mut back = true;
    std::iter::from_fn(move || {
        back = !back;
        if back {
            calls.pop_back()
        } else {
            calls.pop_front()
        }
    })
}

/// Embeds `batch`'s chunk texts onto the vectors of their entries.
fn embed_into(
    kept: &mut [Entry],
    batch: &[(usize, &str)],
    model: &Model,
) -> Result<usize, ModelError> {
    let texts: Vec<&str> = batch.iter().map(|(_, t)| *t).collect();
    let vectors = model.embed(&texts)?;
    for ((at, _), v) in batch.iter().zip(vectors) {
        kept[*at].vectors.extend_from_slice(&v);
    }
    Ok(batch.len())
}

/// Eight running sums, added at the end: one sum makes every addition
/// wait for the one before (no SIMD), 4x slower over 384 floats; a
/// one-off search scores all 13 MB of tldr's vectors.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for i in 0..8 {
            sums[i] += x[i] * y[i];
        }
    }
    sums.iter().sum::<f32>() + tail
}

/// A content's identity: its length and CRC-32 (a touched file whose
/// bytes did not change keeps its vectors).
fn content_hash(text: &str) -> u64 {
    ((text.len() as u64) << 32) | u64::from(crc32fast::hash(text.as_bytes()))
}

mod entries;
#[cfg(test)]
mod tests;
