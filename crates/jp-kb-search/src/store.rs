//! Where an index is saved: two segment files (`main.idx`, `delta.idx`) in
//! a directory the caller chooses. Files are replaced atomically
//! (temporary file, then rename), so a reader sees an old or a new
//! segment, never half of one; an open segment keeps reading the file it
//! opened. A missing, damaged, foreign or old index is rebuilt; a
//! directory that cannot be written leaves the index in memory.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::cache_file::{CacheError, CacheFile, Kind};
use crate::index::{Change, Index};
use crate::segment::Segment;

const MAIN_FILE: &str = "main.idx";
const DELTA_FILE: &str = "delta.idx";

/// The directory an index is saved in, and whether it can be written.
#[derive(Debug)]
pub(crate) struct Store {
    dir: Option<PathBuf>,
    /// False once a write failed: the index is kept in memory only.
    writable: bool,
}

impl Store {
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self {
            writable: dir.is_some(),
            dir,
        }
    }

    /// False when there is no directory or a write to it failed.
    pub fn is_writable(&self) -> bool {
        self.writable
    }

    /// The main segment's file (for measurements and messages).
    pub fn main_file(&self) -> Option<PathBuf> {
        self.file(MAIN_FILE)
    }

    /// The file `name` in the directory, when it can be written.
    pub fn file(&self, name: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .filter(|_| self.writable)
            .map(|d| d.join(name))
    }

    /// Opens the saved index (its files are read as queries need them).
    /// Problems are returned as notes for the user and give an empty
    /// index (rebuilt by the next refresh).
    pub fn open(&self) -> (Index, Vec<String>) {
        let mut notes = Vec::new();
        let Some(dir) = &self.dir else {
            notes.push("no cache directory on this system: searching an in-memory index".into());
            return (Index::default(), notes);
        };
        let main = match open_segment(&dir.join(MAIN_FILE)) {
            Ok(Some(main)) => main,
            Ok(None) => return (Index::default(), notes),
            Err(why) => {
                notes.push(format!(
                    "the search index {} is {why}; rebuilding it",
                    dir.join(MAIN_FILE).display()
                ));
                return (Index::default(), notes);
            }
        };
        let delta = match open_segment(&dir.join(DELTA_FILE)) {
            Ok(Some(delta)) => delta,
            Ok(None) => Segment::empty(0, main.id),
            Err(why) => {
                notes.push(format!(
                    "the search index {} is {why}; re-reading the files it covered",
                    dir.join(DELTA_FILE).display()
                ));
                // Id 0 matches no main segment: the delta is dropped.
                Segment::empty(0, 0)
            }
        };
        (Index::new(main, delta), notes)
    }

    /// Writes what a refresh changed; on failure says so once and keeps
    /// the index in memory from then on.
    pub fn save(&mut self, change: &Change, notes: &mut Vec<String>) {
        let Some(dir) = self.dir.as_ref().filter(|_| self.writable) else {
            return;
        };
        let result = std::fs::create_dir_all(dir).and_then(|()| {
            // Main first: a delta written for a main that did not land
            // is dropped on open (its base id differs).
            if let Some(bytes) = &change.main {
                write_atomic(&dir.join(MAIN_FILE), bytes)?;
            }
            if let Some(bytes) = &change.delta {
                write_atomic(&dir.join(DELTA_FILE), bytes)?;
            }
            Ok(())
        });
        if let Err(e) = result {
            self.writable = false;
            notes.push(format!(
                "cannot write the search index to {} ({e}); searching an in-memory index instead (check the directory's permissions, or set XDG_CACHE_HOME)",
                dir.display()
            ));
        }
    }
}

/// `Ok(None)` when the file does not exist (no index yet; a cache path
/// through a file is reported once, by the write that fails).
fn open_segment(path: &Path) -> Result<Option<Segment>, String> {
    let open = CacheFile::open(path, Kind::Segment).and_then(|f| f.map(Segment::open).transpose());
    open.map_err(|e: CacheError| e.to_string())
}

/// Writes `bytes` to `path` through a temporary file renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    // No fsync: a cache lost in a crash is rebuilt; a torn file fails its
    // checksum.
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
