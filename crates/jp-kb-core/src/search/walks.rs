//! The topic walks of the last search, saved next to the index so that the
//! next `jp-kb search` process does not list every directory and `stat`
//! every file again: a saved walk is used while every directory it listed
//! keeps its modification time (see [`crate::subjects::cache`]), which
//! costs one `stat` per directory instead of one per file.
//!
//! What that trusts, and for how long: creating, removing or renaming a
//! file changes its directory's time, so the walk is taken again; a file
//! rewritten in place (same name, same directory) keeps its directory's
//! time, so its new size and time are not seen until the walk is taken
//! again, at the latest [`MAX_AGE`] after it was taken. Until then the
//! index keeps the file's old words (its hits still show the file as it
//! is now: snippets and token counts are read from the file).
//! `docs/decisions.md` ("Search, second pass") says why.
//!
//! A cache file (`jp_kb_search::cache_file`, kind `Walks`) of one
//! section: the walk count, then the walks. A file that fails any check
//! is ignored (the walks are taken again and the file replaced).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::subjects::cache::KeptWalk;
use crate::subjects::{Collision, Subject, WalkCache, WalkResult, WalkWarning};
use jp_kb_search::cache_file::{self, CacheFile, Kind};
use jp_kb_search::codec::{Reader, put_string, put_varint, read_varint};

/// The file, in the index's directory.
pub const WALKS_FILE: &str = "walks.bin";
/// A saved walk older than this is taken again (what bounds how long a
/// file rewritten in place can go unseen).
pub const MAX_AGE: Duration = Duration::from_secs(600);

/// Puts the walks saved in `dir` into `cache`. Returns why the file was
/// not used, if it exists and was not (the caller rebuilds it quietly).
pub fn load(dir: &Path, cache: &WalkCache, now: SystemTime) -> Result<usize, String> {
    let file = match CacheFile::open(&dir.join(WALKS_FILE), Kind::Walks) {
        Ok(Some(file)) => file,
        Ok(None) => return Ok(0),
        Err(e) => return Err(e.to_string()),
    };
    let walks = read(&file, now)?;
    let n = walks.len();
    for walk in walks {
        cache.keep(walk);
    }
    Ok(n)
}

/// Saves `cache`'s walks in `dir` (atomically: a reader sees the old file
/// or the new one).
pub fn save(dir: &Path, cache: &WalkCache) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    jp_kb_search::write_atomic(&dir.join(WALKS_FILE), &encode(&cache.kept()))
}

/// `t` in nanoseconds since the epoch.
pub(super) fn nanos(t: SystemTime) -> Option<i64> {
    i64::try_from(t.duration_since(UNIX_EPOCH).ok()?.as_nanos()).ok()
}

fn time(n: i64) -> Option<SystemTime> {
    UNIX_EPOCH.checked_add(Duration::from_nanos(u64::try_from(n).ok()?))
}

fn put_i64(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_path(out: &mut Vec<u8>, path: &Path) -> Option<()> {
    put_string(out, path.to_str()?);
    Some(())
}

/// The file's bytes. Walks that cannot be saved exactly (a name that is
/// not UTF-8, a warning about a special file) are left out: they are
/// walked again by each process.
pub fn encode(walks: &[KeptWalk]) -> Vec<u8> {
    let mut entries = Vec::new();
    let mut count = 0u64;
    for walk in walks {
        let mut one = Vec::new();
        if encode_walk(&mut one, walk).is_some() {
            entries.extend_from_slice(&one);
            count += 1;
        }
    }
    let mut out = Vec::with_capacity(entries.len() + 10);
    put_varint(&mut out, count);
    out.extend_from_slice(&entries);
    cache_file::encode(Kind::Walks, &[&out])
}

/// Subject flags.
const HIDDEN: u64 = 1;
const REL_IS_TAIL: u64 = 2;
const SLUG_IS_HEAD: u64 = 4;

fn encode_walk(out: &mut Vec<u8>, kept: &KeptWalk) -> Option<()> {
    put_i64(out, nanos(kept.taken)?);
    put_path(out, &kept.dir)?;
    put_path(out, &kept.root)?;
    put_varint(out, kept.dirs.len() as u64);
    for (dir, mtime) in &kept.dirs {
        put_path(out, dir)?;
        put_i64(out, nanos(*mtime)?);
    }
    let walk = &kept.walk;
    put_varint(out, walk.subjects.len() as u64);
    for s in &walk.subjects {
        let path = s.path().to_str()?;
        let (rel, slug) = (s.rel_path(), s.slug());
        let mut flags = if s.hidden { HIDDEN } else { 0 };
        flags |= if path.ends_with(rel) { REL_IS_TAIL } else { 0 };
        flags |= if rel.starts_with(slug) {
            SLUG_IS_HEAD
        } else {
            0
        };
        put_varint(out, flags);
        put_string(out, path);
        if flags & REL_IS_TAIL == 0 {
            put_string(out, rel);
        } else {
            put_varint(out, rel.len() as u64);
        }
        if flags & SLUG_IS_HEAD == 0 {
            put_string(out, slug);
        } else {
            put_varint(out, slug.len() as u64);
        }
        put_varint(out, s.bytes);
        put_i64(out, s.modified);
    }
    put_varint(out, walk.collisions.len() as u64);
    for c in &walk.collisions {
        for text in [&c.slug, &c.kept, &c.dropped] {
            put_string(out, text);
        }
    }
    put_varint(out, walk.warnings.len() as u64);
    for w in &walk.warnings {
        match w {
            WalkWarning::SymlinkOutside { path, target } => {
                put_varint(out, 0);
                put_path(out, path)?;
                put_path(out, target)?;
            }
            WalkWarning::BrokenSymlink { path } => {
                put_varint(out, 1);
                put_path(out, path)?;
            }
            WalkWarning::NonUtf8Name { path } => {
                put_varint(out, 2);
                put_path(out, path)?;
            }
            WalkWarning::Io { path, message } => {
                put_varint(out, 3);
                put_path(out, path)?;
                put_string(out, message);
            }
            WalkWarning::SpecialFile { .. } => return None,
        }
    }
    Some(())
}

/// The saved walks in `bytes` taken less than [`MAX_AGE`] before `now`.
#[cfg(test)]
fn decode(bytes: Vec<u8>, now: SystemTime) -> Result<Vec<KeptWalk>, String> {
    let file = CacheFile::from_bytes(bytes, Kind::Walks).map_err(|e| e.to_string())?;
    read(&file, now)
}

/// The saved walks of `file` taken less than [`MAX_AGE`] before `now`.
fn read(file: &CacheFile, now: SystemTime) -> Result<Vec<KeptWalk>, String> {
    if file.section_count() != 1 {
        return Err("damaged (section count)".to_owned());
    }
    let bytes = file.section(0).map_err(|e| e.to_string())?;
    let mut r = Cursor {
        reader: Reader::new(&bytes),
    };
    let count = r.varint()?;
    let mut out = Vec::new();
    for _ in 0..count {
        let kept = decode_walk(&mut r)?;
        let fresh = now
            .duration_since(kept.taken)
            .is_ok_and(|age| age < MAX_AGE);
        if fresh {
            out.push(kept);
        }
    }
    if !r.reader.is_done() {
        return Err("damaged (trailing bytes)".to_owned());
    }
    Ok(out)
}

struct Cursor<'a> {
    reader: Reader<'a>,
}

impl<'a> Cursor<'a> {
    fn varint(&mut self) -> Result<u64, &'static str> {
        let rest = self.reader.data.get(self.reader.at..).ok_or("truncated")?;
        let (v, after) = read_varint(rest).ok_or("damaged (number)")?;
        self.reader.at += rest.len() - after.len();
        Ok(v)
    }
    fn len(&mut self) -> Result<usize, &'static str> {
        let v = self.varint()?;
        let left = self.reader.data.len().saturating_sub(self.reader.at);
        // Every counted item takes at least a byte: a larger count is damage.
        usize::try_from(v)
            .ok()
            .filter(|n| *n <= left)
            .ok_or("damaged (count)")
    }
    /// A length into text already read (checked where it is used, by
    /// `get`): unlike [`Self::len`], it says nothing of the bytes to come.
    fn back_len(&mut self) -> Result<usize, &'static str> {
        usize::try_from(self.varint()?).map_err(|_| "damaged (length)")
    }
    fn i64(&mut self) -> Result<i64, &'static str> {
        let v = self.reader.u64().map_err(|_| "truncated")?;
        Ok(i64::from_le_bytes(v.to_le_bytes()))
    }
    fn string(&mut self) -> Result<String, &'static str> {
        self.str().map(str::to_owned)
    }
    fn str(&mut self) -> Result<&'a str, &'static str> {
        self.reader.str().map_err(|_| "damaged (text)")
    }
    fn time(&mut self) -> Result<SystemTime, &'static str> {
        time(self.i64()?).ok_or("damaged (time)")
    }
}

fn decode_walk(r: &mut Cursor<'_>) -> Result<KeptWalk, &'static str> {
    let taken = r.time()?;
    let dir = PathBuf::from(r.string()?);
    let root = PathBuf::from(r.string()?);
    let n = r.len()?;
    let mut dirs = Vec::with_capacity(n);
    for _ in 0..n {
        let path = PathBuf::from(r.string()?);
        dirs.push((path, r.time()?));
    }
    let n = r.len()?;
    let mut subjects = Vec::with_capacity(n);
    for _ in 0..n {
        // Borrowed from the file's bytes: `Subject::new` makes the one
        // copy it keeps (owned strings here were half of the load).
        let flags = r.varint()?;
        let path = r.str()?;
        let rel = if flags & REL_IS_TAIL == 0 {
            r.str()?
        } else {
            let len = r.back_len()?;
            path.len()
                .checked_sub(len)
                .and_then(|at| path.get(at..))
                .ok_or("damaged (path)")?
        };
        let slug = if flags & SLUG_IS_HEAD == 0 {
            r.str()?
        } else {
            rel.get(..r.back_len()?).ok_or("damaged (slug)")?
        };
        let bytes = r.varint()?;
        let modified = r.i64()?;
        subjects.push(Subject::new(
            slug,
            rel,
            Path::new(path),
            flags & HIDDEN != 0,
            bytes,
            modified,
        ));
    }
    let n = r.len()?;
    let mut collisions = Vec::with_capacity(n);
    for _ in 0..n {
        collisions.push(Collision {
            slug: r.string()?,
            kept: r.string()?,
            dropped: r.string()?,
        });
    }
    let n = r.len()?;
    let mut warnings = Vec::with_capacity(n);
    for _ in 0..n {
        let tag = r.varint()?;
        let path = PathBuf::from(r.string()?);
        warnings.push(match tag {
            0 => WalkWarning::SymlinkOutside {
                path,
                target: PathBuf::from(r.string()?),
            },
            1 => WalkWarning::BrokenSymlink { path },
            2 => WalkWarning::NonUtf8Name { path },
            3 => WalkWarning::Io {
                path,
                message: r.string()?,
            },
            _ => return Err("damaged (warning)"),
        });
    }
    Ok(KeptWalk {
        dir,
        root,
        walk: Arc::new(WalkResult {
            subjects,
            collisions,
            warnings,
        }),
        dirs,
        taken,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(taken: SystemTime) -> KeptWalk {
        let subjects = vec![
            Subject::new(
                "a/one",
                "a/one.md",
                Path::new("/w/t/a/one.md"),
                false,
                12,
                34,
            ),
            Subject::new(".h", ".h.txt", Path::new("/w/t/.h.txt"), true, 1, 2),
            // A slug that is not a prefix of its path (a collision's winner).
            Subject::new("x", "y/x.md", Path::new("/elsewhere/x.md"), false, 5, 6),
        ];
        KeptWalk {
            dir: "/w/t".into(),
            root: "/w".into(),
            walk: Arc::new(WalkResult {
                subjects,
                collisions: vec![Collision {
                    slug: "a/one".into(),
                    kept: "a/one.md".into(),
                    dropped: "a/one.txt".into(),
                }],
                warnings: vec![
                    WalkWarning::BrokenSymlink {
                        path: "/w/t/gone".into(),
                    },
                    WalkWarning::Io {
                        path: "/w/t/locked".into(),
                        message: "permission denied".into(),
                    },
                ],
            }),
            dirs: vec![("/w/t".into(), taken), ("/w/t/a".into(), taken)],
            taken,
        }
    }

    #[test]
    fn round_trips_recent_walks_and_drops_old_ones() {
        let now = SystemTime::now();
        let kept = sample(now);
        let back = decode(encode(std::slice::from_ref(&kept)), now).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].walk, kept.walk);
        assert_eq!(back[0].dirs, kept.dirs);
        assert_eq!((&back[0].dir, &back[0].root), (&kept.dir, &kept.root));
        let later = now + MAX_AGE + Duration::from_secs(1);
        assert!(decode(encode(&[kept]), later).unwrap().is_empty());
    }

    /// A regression: the lengths that point back into a path read before
    /// them (`REL_IS_TAIL`, `SLUG_IS_HEAD`) were checked as counts of the
    /// bytes still to come, so a file whose last subject had a slug
    /// longer than the bytes after it (every real workspace: the numbers,
    /// then two empty lists) was "damaged (count)" and every process
    /// walked the topics again.
    #[test]
    fn a_long_last_slug_round_trips() {
        let now = SystemTime::now();
        let mut kept = sample(now);
        kept.walk = Arc::new(WalkResult {
            subjects: vec![Subject::new(
                "pages/common/a-rather-long-page-name",
                "pages/common/a-rather-long-page-name.md",
                Path::new("/w/t/pages/common/a-rather-long-page-name.md"),
                false,
                700,
                1_700_000_000,
            )],
            ..WalkResult::default()
        });
        let back = decode(encode(std::slice::from_ref(&kept)), now).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].walk, kept.walk);
    }

    #[test]
    fn walks_that_cannot_be_saved_exactly_are_left_out() {
        let now = SystemTime::now();
        let mut special = sample(now);
        special.walk = Arc::new(WalkResult {
            warnings: vec![WalkWarning::SpecialFile {
                path: "/w/t/fifo".into(),
                kind: "FIFO",
            }],
            ..WalkResult::default()
        });
        let bytes = encode(&[special, sample(now)]);
        assert_eq!(decode(bytes, now).unwrap().len(), 1);
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        let now = SystemTime::now();
        let good = encode(&[sample(now)]);
        assert!(decode(b"nonsense".to_vec(), now).is_err());
        for cut in 0..good.len() {
            assert!(decode(good[..cut].to_vec(), now).is_err(), "cut at {cut}");
        }
        // Damage behind a checksum that matches it: still no panic.
        let body = CacheFile::from_bytes(good, Kind::Walks)
            .and_then(|f| f.section(0).map(std::borrow::Cow::into_owned))
            .expect("a good file");
        for i in 0..body.len() {
            for flip in [0x01, 0x80, 0xFF] {
                let mut bad = body.clone();
                bad[i] ^= flip;
                let _ = decode(cache_file::encode(Kind::Walks, &[&bad]), now);
            }
        }
    }

    proptest::proptest! {
        /// Up to three flipped bits anywhere, or a cut anywhere, is always
        /// an error, never a walk that differs from the one saved.
        #[test]
        fn any_small_damage_is_an_error(
            bits in proptest::collection::vec(0usize..100_000, 1..=3),
            cut in 0usize..100_000,
        ) {
            let now = SystemTime::now();
            let good = encode(&[sample(now)]);
            let mut bad = good.clone();
            let mut flipped = std::collections::BTreeSet::new();
            for bit in bits {
                let bit = bit % (good.len() * 8);
                if flipped.insert(bit) {
                    bad[bit / 8] ^= 1 << (bit % 8);
                }
            }
            proptest::prop_assert!(decode(bad, now).is_err());
            let cut = cut % good.len();
            proptest::prop_assert!(decode(good[..cut].to_vec(), now).is_err());
        }
    }
}
