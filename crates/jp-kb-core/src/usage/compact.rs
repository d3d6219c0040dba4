//! Compaction: keeps a ledger under its bound by folding old records into
//! one count per subject per UTC day (loads, distinct sessions, clients,
//! tokens, last load). What is lost: the exact times, the patterns and
//! which session loaded what across days (a session that spans two days
//! counts once per day). Runs under the ledger's lock (`ledger.rs`) and
//! replaces the file atomically (temporary file, rename): a reader sees
//! the old ledger or the new one.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write as _;
use std::path::Path;

use super::record::{Entry, Kind};
use super::text::Text;
use super::time::{day, day_number};

/// One day count being built.
#[derive(Default)]
struct Count {
    loads: u64,
    tokens: u64,
    last: u64,
    sessions: HashSet<String>,
    /// Distinct sessions of day counts folded again (their ids are gone).
    counted_sessions: u64,
    clients: BTreeSet<String>,
}

type Key = (u64, Kind, String, String);

/// The size bound of a ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Above this size an append first compacts the ledger.
    pub compact_above: u64,
    /// The ledger never grows past this; a record that would is dropped.
    pub max_bytes: u64,
    /// Records younger than this many days stay whole when compacting
    /// (unless the ledger is still too large without them).
    pub keep_raw_days: u64,
}

impl Default for Limits {
    /// 16 MiB before compacting (about 120,000 records: months of heavy
    /// use), 64 MiB at most, records of the last 30 days kept whole.
    /// `jp-kb usage` reads 64 MiB in about 0.2 s (docs/perf.md).
    fn default() -> Self {
        Self {
            compact_above: 16 << 20,
            max_bytes: super::bound::MAX_LEDGER_BYTES,
            keep_raw_days: 30,
        }
    }
}

/// Compacts the ledger at `path` (see the module docs): read whole
/// (never through a link, and never more than a ledger may hold).
pub fn compact(path: &Path, limits: &Limits, now: u64) -> std::io::Result<()> {
    let bytes = jp_kb_fs::open_regular_with(path, jp_kb_fs::Links::Refuse)?
        .read_to_vec(super::bound::MAX_LEDGER_BYTES)?;
    let target = limits.compact_above / 2;
    let cutoff = day_number(now).saturating_sub(limits.keep_raw_days);
    let mut out = fold(&bytes, cutoff);
    if out.len() as u64 > target {
        // Recent records alone are too many: fold them too.
        out = fold(&bytes, u64::MAX);
    }
    if out.len() as u64 > target {
        out = drop_oldest(&out, target);
    }
    write_replacing(path, &out)
}

/// Folds every record of a day before `cutoff` (a day number), and every
/// day count, into day counts; records of later days are kept as they
/// are, after the counts. Lines that do not parse are dropped.
fn fold(bytes: &[u8], cutoff: u64) -> Vec<u8> {
    let mut counts: BTreeMap<Key, Count> = BTreeMap::new();
    let mut kept: Vec<&[u8]> = Vec::new();
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let Some(entry) = Entry::parse(line) else {
            continue;
        };
        let d = day_number(entry.t);
        if !entry.is_day_count() && d >= cutoff {
            kept.push(line);
            continue;
        }
        add(&mut counts, d, &entry);
    }
    let mut out = Vec::with_capacity(bytes.len() / 2);
    for ((d, kind, topic, slug), c) in counts {
        let entry = Entry {
            t: c.last,
            day: Some(day(d * 86_400).into()),
            kind,
            topic: topic.into(),
            slugs: if slug.is_empty() {
                Vec::new()
            } else {
                vec![slug.into()]
            },
            patterns: Vec::new(),
            preloaded: Vec::new(),
            tokens: c.tokens,
            session: None,
            client: None,
            version: None,
            loads: Some(c.loads),
            sessions: Some(c.sessions.len() as u64 + c.counted_sessions),
            clients: c.clients.into_iter().map(Text::from).collect(),
        };
        out.extend_from_slice(entry.to_line().as_bytes());
    }
    for line in kept {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

fn add(counts: &mut BTreeMap<Key, Count>, d: u64, entry: &Entry<'_>) {
    let slugs: Vec<&str> = if entry.slugs.is_empty() {
        // A listing (or a prompt with nothing pre-loaded): counted per
        // topic under the empty slug.
        vec![""]
    } else {
        entry.slugs.iter().map(Text::as_str).collect()
    };
    let shares = super::read::shares(entry.tokens, slugs.len());
    for (slug, tokens) in slugs.into_iter().zip(shares) {
        let key = (
            d,
            entry.kind,
            entry.topic.as_str().to_owned(),
            slug.to_owned(),
        );
        let c = counts.entry(key).or_default();
        c.loads += entry.loads.unwrap_or(1);
        c.tokens += tokens;
        c.last = c.last.max(entry.t);
        if let Some(s) = &entry.session {
            c.sessions.insert(s.as_str().to_owned());
        }
        c.counted_sessions += entry.sessions.unwrap_or(0);
        c.clients.extend(entry.client_label());
        c.clients
            .extend(entry.clients.iter().map(|c| c.as_str().to_owned()));
    }
}

/// Drops whole lines from the start (the oldest days) until `bytes` fits
/// in `target`.
fn drop_oldest(bytes: &[u8], target: u64) -> Vec<u8> {
    let excess = bytes
        .len()
        .saturating_sub(usize::try_from(target).unwrap_or(usize::MAX));
    let mut start = 0;
    while start < excess {
        match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(nl) => start += nl + 1,
            None => start = bytes.len(),
        }
    }
    bytes[start.min(bytes.len())..].to_vec()
}

fn write_replacing(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    // tempfile creates the file 0600.
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::read::Tally;

    const DAY: u64 = 86_400;

    fn record(t: u64, session: &str, slugs: &[&str], tokens: u64) -> String {
        let mut e = Entry::record(
            t,
            Kind::Learn,
            "p".into(),
            session.into(),
            ("c".into(), "1".into()),
        );
        e.slugs = slugs.iter().map(|s| (*s).to_owned().into()).collect();
        e.tokens = tokens;
        e.to_line()
    }

    #[test]
    fn old_records_become_day_counts_with_the_same_totals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl");
        let now = 100 * DAY;
        let mut text = String::new();
        text += &record(10 * DAY + 5, "s1", &["a", "b"], 10);
        text += &record(10 * DAY + 9, "s2", &["a"], 4);
        text += &record(10 * DAY + 12, "s2", &["a"], 4);
        text += "torn {\n";
        text += &record(99 * DAY, "s3", &["a"], 1);
        std::fs::write(&path, &text).unwrap();
        let before = Tally::read_bytes(text.as_bytes(), None);
        compact(&path, &Limits::default(), now).unwrap();
        let after_text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(after_text.lines().count(), 3, "{after_text}");
        assert!(after_text.ends_with(&record(99 * DAY, "s3", &["a"], 1)));
        let after = Tally::read_bytes(after_text.as_bytes(), None);
        let a = after.get("p", "a").unwrap();
        assert_eq!(a.loads, 4);
        assert_eq!(a.tokens, before.get("p", "a").unwrap().tokens);
        // s1 and s2 that day, s3 later.
        assert_eq!(a.sessions, 3);
        assert_eq!(after.get("p", "b").unwrap().loads, 1);
        // Compacting again changes nothing.
        compact(&path, &Limits::default(), now).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), after_text);
    }

    #[test]
    fn a_ledger_still_too_large_loses_its_oldest_days() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl");
        let mut text = String::new();
        for d in 0..50 {
            text += &record(d * DAY, "s", &[&format!("subject-{d}")], 1);
        }
        std::fs::write(&path, &text).unwrap();
        let limits = Limits {
            compact_above: 2_000,
            max_bytes: 4_000,
            keep_raw_days: 30,
        };
        compact(&path, &limits, 50 * DAY).unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.len() <= 1_000, "{}", after.len());
        assert!(after.contains("subject-49") && !after.contains("subject-0\""));
    }
}
