//! Appending to a ledger: several servers (one per assistant session) may
//! write the same workspace's ledger at once, and none may lose a record.
//!
//! Each append takes the usage directory's lock ([`jp_kb_fs::lock_dir`],
//! as edits do for configuration files: compaction replaces the ledger by
//! `rename`, so a lock on the file would be held on an inode that is no
//! longer the ledger), opens the ledger `O_APPEND` ([`jp_kb_fs::open_append`]:
//! never through a link, never blocking on a FIFO, only a regular file),
//! checks the size bound, and writes the whole line with one `write`. The
//! lock orders writers and compaction; `O_APPEND` alone would keep small
//! lines whole, but not a compaction's read–rewrite. The file is created
//! 0600 in a 0700 directory: which subjects a person's assistant reads is
//! theirs alone. A ledger far over its bound (jp-kb compacts below it) is
//! not one jp-kb wrote: it is left alone, and every record refused says
//! so.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jp_kb_fs::{Holder, LockError};

use super::bound::too_large;
use super::compact::{Limits, compact};
use super::record::Entry;

/// Why a record was not written.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("{path}: {action}: {source}")]
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    #[error("{path}: the ledger is full ({bytes} bytes; at most {max}) even after compaction")]
    Full { path: PathBuf, bytes: u64, max: u64 },
    #[error("{path}: {}", too_large(*bytes, *max))]
    TooLarge { path: PathBuf, bytes: u64, max: u64 },
    #[error(
        "{path}: another jp-kb held the ledger's lock for {waited:?}{}",
        holder.as_ref().map(|h| format!(" ({h})")).unwrap_or_default()
    )]
    Locked {
        path: PathBuf,
        waited: Duration,
        holder: Option<Holder>,
    },
}

/// How long an append waits for another writer: a record is worth less
/// than a stuck writer thread.
const LOCK_TIMEOUT: Duration = Duration::from_secs(2);

/// A workspace's ledger file.
#[derive(Debug, Clone)]
pub struct Ledger {
    path: PathBuf,
    limits: Limits,
}

impl Ledger {
    /// The ledger at `path`, with the default limits.
    pub fn new(path: PathBuf) -> Self {
        Self::with_limits(path, Limits::default())
    }

    /// The ledger at `path`, with `limits`.
    pub fn with_limits(path: PathBuf, limits: Limits) -> Self {
        Self { path, limits }
    }

    /// The ledger of the workspace at `root` in the data directory `data`.
    pub fn for_workspace(data: &Path, root: &Path) -> Self {
        Self::new(super::place::ledger_path(data, root))
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How much of it is read and kept.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Appends one entry at time `now` (compaction's clock).
    pub fn append(&self, entry: &Entry<'_>, now: u64) -> Result<(), LedgerError> {
        self.append_line(entry.to_line().as_bytes(), now)
    }

    fn append_line(&self, line: &[u8], now: u64) -> Result<(), LedgerError> {
        let io = |action: &'static str| {
            let path = self.path.clone();
            move |source| LedgerError::Io {
                path,
                action,
                source,
            }
        };
        let dir = self.path.parent().unwrap_or(Path::new("."));
        create_private_dir(dir).map_err(io("create its directory"))?;
        let handle = jp_kb_fs::open_dir(dir).map_err(io("open its directory"))?;
        let _lock = jp_kb_fs::lock_dir(&handle, LOCK_TIMEOUT).map_err(|e| match e {
            LockError::Held { waited, holder } => LedgerError::Locked {
                path: self.path.clone(),
                waited,
                holder,
            },
            LockError::Io(source) => io("take its directory's lock (.jp-kb.lock)")(source),
        })?;
        let mut opened = jp_kb_fs::open_append(&self.path).map_err(io("open"))?;
        let len = line.len() as u64;
        if opened.len() > self.limits.max_bytes {
            return Err(LedgerError::TooLarge {
                path: self.path.clone(),
                bytes: opened.len(),
                max: self.limits.max_bytes,
            });
        }
        if opened.len() + len > self.limits.compact_above {
            drop(opened);
            compact(&self.path, &self.limits, now).map_err(io("compact"))?;
            opened = jp_kb_fs::open_append(&self.path).map_err(io("open"))?;
        }
        let size = opened.len();
        if size + len > self.limits.max_bytes {
            return Err(LedgerError::Full {
                path: self.path.clone(),
                bytes: size,
                max: self.limits.max_bytes,
            });
        }
        // One write of the whole line: a reader never sees half a record
        // followed by another writer's.
        opened.file.write_all(line).map_err(io("append"))
    }
}

/// Creates `dir` (and its parents) owner-only when missing.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::record::Kind;

    fn entry(t: u64, slug: &str) -> Entry<'static> {
        let mut e = Entry::record(
            t,
            Kind::Learn,
            "p".into(),
            "s".into(),
            ("c".into(), "1".into()),
        );
        e.slugs = vec![slug.to_owned().into()];
        e
    }

    #[test]
    fn appends_private_lines() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path().join("u/x.jsonl"));
        ledger.append(&entry(1, "a"), 1).unwrap();
        ledger.append(&entry(2, "b"), 2).unwrap();
        let text = std::fs::read_to_string(ledger.path()).unwrap();
        assert_eq!(text.lines().count(), 2);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(ledger.path())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn never_exceeds_the_hard_limit() {
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            compact_above: 2_000,
            max_bytes: 4_000,
            keep_raw_days: 30,
        };
        let ledger = Ledger::with_limits(dir.path().join("x.jsonl"), limits);
        let now = 100 * 86_400;
        // Distinct subjects on the same day: compaction cannot fold them,
        // so it drops the oldest lines to stay under the bound.
        for i in 0..200 {
            ledger
                .append(&entry(now, &format!("subject-{i}")), now)
                .unwrap();
            let size = std::fs::metadata(ledger.path()).unwrap().len();
            assert!(size <= limits.max_bytes, "{size}");
        }
        let text = std::fs::read_to_string(ledger.path()).unwrap();
        assert!(text.contains("subject-199"));
        // A record larger than the bound is refused, never written.
        let huge = entry(now, &"x".repeat(5_000));
        assert!(matches!(
            ledger.append(&huge, now),
            Err(LedgerError::Full { .. })
        ));
        assert!(std::fs::metadata(ledger.path()).unwrap().len() <= limits.max_bytes);
    }

    #[test]
    fn threads_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path().join("x.jsonl"));
        std::thread::scope(|s| {
            for t in 0..4 {
                let ledger = &ledger;
                s.spawn(move || {
                    for i in 0..100 {
                        ledger.append(&entry(i, &format!("{t}-{i}")), i).unwrap();
                    }
                });
            }
        });
        let text = std::fs::read_to_string(ledger.path()).unwrap();
        assert_eq!(text.lines().count(), 400);
        assert!(text.lines().all(|l| Entry::parse(l.as_bytes()).is_some()));
    }
}
