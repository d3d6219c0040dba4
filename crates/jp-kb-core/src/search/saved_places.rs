//! The index's files and the topics' subjects they are, saved beside the
//! index with what they were worked out from (`places.bin`), so that a
//! process that searches once (`jp-kb search`) ranks and names its hits
//! without decoding a saved walk or resolving a topic: those were most of
//! a warm search's process on the tldr tree, 45k subjects decoded and
//! resolved for ten hits (`docs/perf.md`, "Search", "Speed").
//!
//! It holds exactly while what it was made from holds (see
//! [`SavedPlaces::holds_for`]): the enabled topics' settings (id,
//! directory, `learned`, `disabled`), every directory their walks listed
//! keeping its modification time, an age under the saved walks'
//! [`MAX_AGE`], and the index being up to date with the files it lists
//! (the index's digest of them, [`jp_kb_search::Lexical::synced`]). That
//! is what the saved walks trust ([`super::walks`]): a file added,
//! removed or renamed changes its directory's time; one rewritten in
//! place is seen when the walks are taken again.
//!
//! A cache file (`jp_kb_search::cache_file`, kind `Places`) of two
//! sections: the header (the settings, when the walks were taken, the
//! files' digest, the directories and their times, the topics, the table
//! of blocks), then the blocks: the files sorted by key, [`PER_BLOCK`] a
//! block, each with the CRC its table entry gives. A search reads the
//! header and the blocks of its hits (57 KB of 3.3 MB on tldr); damage is
//! an error where it is read, never an answer.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use jp_kb_search::cache_file::{self, CacheError, CacheFile, Kind, Part};
use jp_kb_search::codec::{Corrupt, Reader, crc, put_string, put_varint};
use jp_kb_search::hash::FastMap;

use super::walks::{MAX_AGE, nanos};
use crate::KnowledgeBase;
use crate::subjects::WalkCache;

/// The file, in the index's directory.
pub const PLACES_FILE: &str = "places.bin";
/// Files a block: a hit reads one block (a few KB).
const PER_BLOCK: usize = 64;
/// Place flags.
const HIDDEN: u64 = 1;
const LEARNED: u64 = 2;

/// One place of a file: a topic's subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedPlace {
    /// The topic, by its position in [`SavedPlaces::topic`]'s list.
    pub topic: usize,
    pub slug: String,
    pub hidden: bool,
    pub learned: bool,
}

/// The file's sections.
const HEADER: usize = 0;
const BLOCKS: usize = 1;

/// A saved places file, its header read (see the module documentation).
#[derive(Debug)]
pub struct SavedPlaces {
    file: CacheFile,
    inputs: Vec<u8>,
    taken: i64,
    digest: u64,
    dirs: Vec<(PathBuf, i64)>,
    topics: Vec<String>,
    /// Each block's first key, and where it lies in the blocks section.
    blocks: Vec<(String, Part)>,
}

/// The settings a resolution of the enabled topics depends on, as bytes
/// to compare: the root, and for each enabled topic in order its id, its
/// directory (or that it has none) and its `learned` and `disabled`
/// lists. `None` when a path is not UTF-8 (nothing is saved then).
pub fn inputs(kb: &KnowledgeBase) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    put_string(&mut out, kb.root().to_str()?);
    put_varint(&mut out, kb.enabled_topics().count() as u64);
    for topic in kb.enabled_topics() {
        put_string(&mut out, topic.id());
        match &topic.dir {
            Ok(dir) => {
                put_varint(&mut out, 1);
                put_string(&mut out, dir.to_str()?);
            }
            Err(_) => put_varint(&mut out, 0),
        }
        for list in [
            topic.config.learned_patterns(),
            topic.config.disabled_entries(),
        ] {
            put_varint(&mut out, list.len() as u64);
            for item in &list {
                put_string(&mut out, item);
            }
        }
    }
    Some(out)
}

/// The file's bytes for `kb` as resolved through `cache`, for an index
/// whose digest of its files is `synced`; `None` when the places cannot
/// be saved so that they hold: a topic's walk not kept in `cache` (taken
/// too soon after a change to be trusted), the index not up to date with
/// `kb`'s files, a path that is not UTF-8.
pub fn encode(kb: &KnowledgeBase, cache: &WalkCache, synced: u64) -> Option<Vec<u8>> {
    let inputs = inputs(kb)?;
    let kept = cache.kept();
    let (mut dirs, mut taken) = (Vec::new(), i64::MAX);
    let mut topics = Vec::new();
    for topic in kb.enabled_topics() {
        let Ok(dir) = &topic.dir else { continue };
        // Resolved by the search that ran; never walked here.
        let resolution = topic.resolved()?;
        let walk = kept.iter().find(|k| {
            std::sync::Arc::ptr_eq(&k.walk, &resolution.walk)
                && &k.dir == dir
                && k.root == kb.root()
        })?;
        for (path, time) in &walk.dirs {
            dirs.push((path.to_str()?, nanos(*time)?));
        }
        taken = taken.min(nanos(walk.taken)?);
        topics.push((topic.id(), resolution));
    }
    dirs.sort_unstable();
    dirs.dedup();
    let targets = super::read::targets(kb);
    let stamps: Vec<_> = targets.iter().map(|t| t.stamp.clone()).collect();
    if jp_kb_search::FileStamp::digest(&stamps) != synced {
        return None;
    }
    // Every file's places, in topic order (the order hits are given in).
    let mut places: FastMap<&str, Vec<(usize, &str, u64)>> =
        FastMap::with_capacity_and_hasher(targets.len(), jp_kb_search::hash::FastState::default());
    for (t, (_, resolution)) in topics.iter().enumerate() {
        for (i, s) in resolution.subjects().iter().enumerate() {
            if resolution.is_disabled(i) {
                continue;
            }
            let mut flags = if s.hidden { HIDDEN } else { 0 };
            if resolution.is_learned(i) {
                flags |= LEARNED;
            }
            places
                .entry(s.path().to_str()?)
                .or_default()
                .push((t, s.slug(), flags));
        }
    }
    let mut keys: Vec<&str> = places.keys().copied().collect();
    keys.sort_unstable();
    let mut blocks = Vec::new();
    let mut table = Vec::new();
    for chunk in keys.chunks(PER_BLOCK) {
        let mut block = Vec::new();
        put_varint(&mut block, chunk.len() as u64);
        for key in chunk {
            put_string(&mut block, key);
            let list = places.get(key).map_or(&[][..], Vec::as_slice);
            put_varint(&mut block, list.len() as u64);
            for (t, slug, flags) in list {
                put_varint(&mut block, *t as u64);
                put_varint(&mut block, *flags);
                put_string(&mut block, slug);
            }
        }
        let first = chunk.first().copied().unwrap_or_default();
        table.push((first, blocks.len() as u64, block.len() as u64, crc(&block)));
        blocks.extend_from_slice(&block);
    }
    let mut header = Vec::new();
    put_varint(&mut header, inputs.len() as u64);
    header.extend_from_slice(&inputs);
    header.extend_from_slice(&taken.to_le_bytes());
    header.extend_from_slice(&synced.to_le_bytes());
    put_varint(&mut header, dirs.len() as u64);
    for (path, time) in &dirs {
        put_string(&mut header, path);
        header.extend_from_slice(&time.to_le_bytes());
    }
    put_varint(&mut header, topics.len() as u64);
    for (id, _) in &topics {
        put_string(&mut header, id);
    }
    put_varint(&mut header, table.len() as u64);
    for (first, at, len, sum) in &table {
        put_string(&mut header, first);
        put_varint(&mut header, *at);
        put_varint(&mut header, *len);
        header.extend_from_slice(&sum.to_le_bytes());
    }
    Some(cache_file::encode(Kind::Places, &[&header, &blocks]))
}

impl SavedPlaces {
    /// Opens the file at `path` and reads its header: `Ok(None)` when
    /// there is none, an error saying what is wrong with it otherwise.
    pub fn open(path: &Path) -> Result<Option<Self>, String> {
        match CacheFile::open(path, Kind::Places) {
            Ok(Some(file)) => Self::read(file).map(Some).map_err(|e| e.to_string()),
            Ok(None) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    fn read(file: CacheFile) -> Result<Self, CacheError> {
        if file.section_count() != 2 {
            return Err(CacheError::Corrupt("section count"));
        }
        let header = file.section(HEADER)?;
        let mut r = Reader::new(&header);
        let inputs_len = r.count(1)?;
        let inputs = r.take(inputs_len)?.to_vec();
        let taken = i64::from_le_bytes(r.u64()?.to_le_bytes());
        let digest = r.u64()?;
        let n = r.count(9)?;
        let mut dirs = Vec::with_capacity(n);
        for _ in 0..n {
            let path = PathBuf::from(r.str()?);
            dirs.push((path, i64::from_le_bytes(r.u64()?.to_le_bytes())));
        }
        let n = r.count(1)?;
        let mut topics = Vec::with_capacity(n);
        for _ in 0..n {
            topics.push(r.string()?);
        }
        let n = r.count(7)?;
        let mut blocks = Vec::with_capacity(n);
        for _ in 0..n {
            let first = r.string()?;
            let (at, len, crc) = (r.varint()?, r.varint()?, r.u32()?);
            blocks.push((first, Part { at, len, crc }));
        }
        if !r.is_done() {
            return Err(CacheError::Corrupt("trailing bytes"));
        }
        drop(header);
        Ok(Self {
            file,
            inputs,
            taken,
            digest,
            dirs,
            topics,
            blocks,
        })
    }

    /// These places are those of `kb` now: the same settings, every
    /// directory the walks listed with the time it had, not older than
    /// [`MAX_AGE`] at `now`. (The caller checks the index's digest.)
    pub fn holds_for(&self, kb: &KnowledgeBase, now: SystemTime) -> bool {
        let fresh = nanos(now)
            .and_then(|now| now.checked_sub(self.taken))
            .and_then(|age| u128::try_from(age).ok())
            .is_some_and(|age| age < MAX_AGE.as_nanos());
        fresh
            && inputs(kb).is_some_and(|inputs| inputs == self.inputs)
            && self.dirs.iter().all(|(dir, time)| {
                std::fs::metadata(dir)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(nanos)
                    == Some(*time)
            })
    }

    /// The index's digest of its files when these places were saved.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The id of the topic at `at` (see [`SavedPlace::topic`]).
    pub fn topic(&self, at: usize) -> Option<&str> {
        self.topics.get(at).map(String::as_str)
    }

    /// The places of the file whose index key is `key`, in topic order
    /// (none when it is not saved).
    pub fn places_of(&self, key: &str) -> Result<Vec<SavedPlace>, CacheError> {
        let at = self
            .blocks
            .partition_point(|(first, _)| first.as_str() <= key);
        let Some((_, block)) = at.checked_sub(1).and_then(|at| self.blocks.get(at)) else {
            return Ok(Vec::new());
        };
        let bytes = self.file.piece(BLOCKS, *block)?;
        let mut r = Reader::new(&bytes);
        for _ in 0..r.count(2)? {
            let found = r.str()? == key;
            let n = r.count(3)?;
            let mut out = Vec::with_capacity(if found { n } else { 0 });
            for _ in 0..n {
                let topic = usize::try_from(r.varint()?).map_err(|_| Corrupt("topic"))?;
                let flags = r.varint()?;
                let slug = r.str()?;
                if topic >= self.topics.len() || flags > (HIDDEN | LEARNED) {
                    return Err(CacheError::Corrupt("place"));
                }
                if found {
                    out.push(SavedPlace {
                        topic,
                        slug: slug.to_owned(),
                        hidden: flags & HIDDEN != 0,
                        learned: flags & LEARNED != 0,
                    });
                }
            }
            if found {
                return Ok(out);
            }
        }
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use std::fs::{File, FileTimes};
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::config::{Environment, LoadOptions};

    /// A settled workspace with two topics, one inside the other, loaded
    /// and resolved through a walk cache; the places' bytes for it.
    fn saved(tmp: &Path) -> (KnowledgeBase, Vec<u8>) {
        let root = tmp.canonicalize().expect("canonical");
        let files = [
            (
                ".jp/config.toml",
                "[kb.topic.all]\nsubjects = \"t\"\nlearned = [\"a/*\"]\ndisabled = [\"gone\"]\n[kb.topic.a]\nsubjects = \"t/a\"\n",
            ),
            ("t/a/one.md", "one"),
            ("t/a/.two.md", "two"),
            ("t/b/three.md", "three"),
            ("t/gone.md", "gone"),
        ];
        for (rel, text) in files {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
        }
        let past = SystemTime::now() - Duration::from_secs(60);
        for dir in ["t", "t/a", "t/b"] {
            File::open(root.join(dir))
                .and_then(|f| f.set_times(FileTimes::new().set_modified(past)))
                .expect("set mtime");
        }
        let cache = Arc::new(WalkCache::new());
        let options = LoadOptions {
            workspace: Some(root.clone()),
            ..LoadOptions::default()
        };
        let kb = KnowledgeBase::load_with(&Environment::workspace_only(&root), &options, &cache)
            .expect("load");
        kb.resolve_all();
        let targets = super::super::read::targets(&kb);
        let stamps: Vec<_> = targets.iter().map(|t| t.stamp.clone()).collect();
        let digest = jp_kb_search::FileStamp::digest(&stamps);
        assert!(encode(&kb, &cache, digest ^ 1).is_none(), "another digest");
        let bytes = encode(&kb, &cache, digest).expect("saved");
        (kb, bytes)
    }

    fn key(kb: &KnowledgeBase, rel: &str) -> String {
        kb.root().join(rel).to_str().expect("utf-8").to_owned()
    }

    /// Every file's places, read from `bytes` (an error where damaged).
    fn all_places(
        kb: &KnowledgeBase,
        bytes: &[u8],
        dir: &Path,
    ) -> Result<Vec<Vec<SavedPlace>>, String> {
        let path = dir.join(PLACES_FILE);
        std::fs::write(&path, bytes).expect("write");
        let saved = SavedPlaces::open(&path)?.ok_or("absent")?;
        [
            "t/a/one.md",
            "t/a/.two.md",
            "t/b/three.md",
            "t/gone.md",
            "t/none.md",
        ]
        .iter()
        .map(|rel| saved.places_of(&key(kb, rel)).map_err(|e| e.to_string()))
        .collect()
    }

    #[test]
    fn places_round_trip_and_hold_until_a_directory_changes() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let (kb, bytes) = saved(tmp.path());
        let places = all_places(&kb, &bytes, tmp.path()).expect("read");
        let place = |topic, slug: &str, hidden, learned| SavedPlace {
            topic,
            slug: slug.to_owned(),
            hidden,
            learned,
        };
        assert_eq!(
            places,
            [
                vec![
                    place(0, "a/one", false, true),
                    place(1, "one", false, false)
                ],
                // Globs skip hidden subjects.
                vec![place(0, "a/two", true, false), place(1, "two", true, false)],
                vec![place(0, "b/three", false, false)],
                // Disabled: not in the index, no place.
                vec![],
                vec![],
            ]
        );
        let saved = SavedPlaces::open(&tmp.path().join(PLACES_FILE))
            .expect("read")
            .expect("present");
        assert_eq!(
            (saved.topic(0), saved.topic(1), saved.topic(2)),
            (Some("all"), Some("a"), None)
        );
        assert!(saved.holds_for(&kb, SystemTime::now()));
        assert!(!saved.holds_for(&kb, SystemTime::now() + MAX_AGE));
        std::fs::write(kb.root().join("t/b/four.md"), "four").expect("write");
        assert!(!saved.holds_for(&kb, SystemTime::now()));
    }

    proptest::proptest! {
        /// Up to three flipped bits anywhere, or a cut anywhere: an error
        /// where the damage is read, never places that differ.
        #[test]
        fn damage_is_an_error_never_other_places(
            bits in proptest::collection::vec(0usize..1_000_000, 1..=3),
            cut in 0usize..1_000_000,
        ) {
            let tmp = tempfile::tempdir().expect("tempdir");
            let (kb, good) = saved(tmp.path());
            let right = all_places(&kb, &good, tmp.path()).expect("read");
            let mut bad = good.clone();
            let mut flipped = std::collections::BTreeSet::new();
            for bit in bits {
                let bit = bit % (good.len() * 8);
                if flipped.insert(bit) {
                    bad[bit / 8] ^= 1 << (bit % 8);
                }
            }
            let cut = cut % good.len();
            for damaged in [bad, good[..cut].to_vec()] {
                // An error is fine; places must be the right ones.
                if let Ok(places) = all_places(&kb, &damaged, tmp.path()) {
                    proptest::prop_assert_eq!(&places, &right);
                }
            }
        }
    }
}
