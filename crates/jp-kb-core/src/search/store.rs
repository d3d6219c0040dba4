//! Where the index lives: `$XDG_CACHE_HOME/jp-kb/search/<root name>-<hash>/`
//! (else the platform cache directory), one directory per workspace root,
//! never inside the workspace. Files are replaced atomically (temporary
//! file, then rename), so a reader sees an old or a new segment, never
//! half of one. A missing, damaged, foreign or old index is rebuilt; a
//! cache directory that cannot be written leaves the index in memory.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::index::{Change, Index};
use super::segment::{Segment, SegmentError, checksum};

const MAIN_FILE: &str = "main.idx";
const DELTA_FILE: &str = "delta.idx";

/// The cache directory for the index of the workspace at `root`, or `None`
/// when the platform has no cache directory.
pub fn index_dir(root: &Path) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(dirs::cache_dir)?;
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = checksum(root.as_os_str().as_encoded_bytes());
    Some(
        base.join("jp-kb")
            .join("search")
            .join(format!("{name}-{hash:016x}")),
    )
}

/// An index with the place it is saved to.
#[derive(Debug)]
pub struct Store {
    pub dir: Option<PathBuf>,
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

    /// False when there is no cache directory or a write to it failed.
    pub fn is_writable(&self) -> bool {
        self.writable
    }

    /// Reads the saved index. Problems are returned as notes for the user
    /// and give an empty index (rebuilt by the next refresh).
    pub fn open(&self) -> (Index, Vec<String>) {
        let mut notes = Vec::new();
        let Some(dir) = &self.dir else {
            notes.push("no cache directory on this system: searching an in-memory index".into());
            return (Index::default(), notes);
        };
        let main = match read_segment(&dir.join(MAIN_FILE)) {
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
        let delta = match read_segment(&dir.join(DELTA_FILE)) {
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

/// `Ok(None)` when the file does not exist.
fn read_segment(path: &Path) -> Result<Option<Segment>, String> {
    // Guarded: a FIFO put in the cache must not hang `search` or the MCP
    // server (issue 24, item 4).
    match crate::config::file::read_guarded(path) {
        Ok(bytes) => Segment::decode(bytes)
            .map(Some)
            .map_err(|e: SegmentError| e.to_string()),
        // No index yet; a cache path through a file is reported once, by
        // the write that fails.
        Err(e) if is_absent(&e) => Ok(None),
        Err(e) => Err(format!("unreadable ({e})")),
    }
}

/// True when a read failed because there is nothing there.
pub fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    // No fsync: a cache lost in a crash is rebuilt; a torn file fails its
    // checksum.
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dir_is_per_root_and_outside_it() {
        let a = index_dir(Path::new("/w/one/proj")).unwrap();
        let b = index_dir(Path::new("/w/two/proj")).unwrap();
        assert_ne!(a, b);
        assert!(!a.starts_with("/w"));
        assert!(
            a.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("proj-")
        );
    }
}
