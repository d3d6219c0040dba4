//! Reading a ledger into per-subject tallies for a time window.
//!
//! A million records (about 240 MB) must answer in half a second: the
//! file is split at line breaks across the machine's cores, each part
//! read in blocks (no 240 MB buffer to fault in), each line read by hand
//! when it is one jp-kb wrote ([`super::scan`]; serde otherwise), and
//! names interned to numbers as they are met, consecutive records usually
//! sharing a session and a client. A torn or foreign line is counted and
//! skipped, never an error.

use std::collections::BTreeSet;
use std::path::Path;

use super::record::{Entry, Kind};
use super::scan::View;
// Fast, fixed-seed maps (foldhash, as the search index uses).
type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// What the ledger says of one subject in the window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    /// Times it was served (a `learn` load, a resource read, a prompt).
    pub loads: u64,
    /// Distinct sessions that loaded it.
    pub sessions: u64,
    /// The last load, UTC seconds.
    pub last: Option<u64>,
    /// `"name version"` of each client that loaded it.
    pub clients: BTreeSet<String>,
    /// Tokens served for it: each answer's tokens shared equally among the
    /// subjects it served.
    pub tokens: u64,
    /// `learn` calls that asked for it while it was pre-loaded.
    pub asked_while_preloaded: u64,
}

/// A ledger's usage in a window.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    subjects: FastMap<(String, String), Usage>,
    /// Listings (`learn` without subjects) per topic.
    listings: FastMap<String, u64>,
    /// Distinct sessions in the window (day counts add their busiest
    /// subject's sessions of each day: their ids are gone).
    pub sessions: u64,
    /// Lines read, and lines that did not parse.
    pub lines: u64,
    /// Lines that did not parse (skipped).
    pub malformed: u64,
}

/// How much of the file a reader holds at once.
const BLOCK: usize = 4 << 20;

impl Tally {
    /// Reads the ledger at `path`; entries before `since` (UTC seconds)
    /// are left out. A ledger that does not exist is empty. Only a regular
    /// file is read (opened without blocking, never through a link), and
    /// only one within a ledger's bound: memory and time stay bounded
    /// whatever is at the name.
    ///
    /// # Errors
    /// What is at the name, or that it is too large, in words; any other
    /// I/O error.
    pub fn read(path: &Path, since: Option<u64>) -> std::io::Result<Self> {
        let opened = match jp_kb_fs::open_regular_with(path, jp_kb_fs::Links::Refuse) {
            Ok(opened) => opened,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(e),
        };
        let max = super::bound::MAX_LEDGER_BYTES;
        if opened.len() > max {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                super::bound::too_large(opened.len(), max),
            ));
        }
        read_file(&opened.file, since)
    }

    /// [`Tally::read`] of a ledger's bytes.
    pub fn read_bytes(bytes: &[u8], since: Option<u64>) -> Self {
        let mut p = Partial::default();
        p.scan(bytes, since);
        merge(vec![p])
    }

    /// The usage of one subject; `None` when the window holds none.
    pub fn get(&self, topic: &str, slug: &str) -> Option<&Usage> {
        self.subjects.get(&(topic.to_owned(), slug.to_owned()))
    }

    /// Every subject the window holds, by `(topic, slug)`.
    pub fn subjects(&self) -> impl Iterator<Item = (&(String, String), &Usage)> {
        self.subjects.iter()
    }

    /// Listings of `topic` in the window.
    pub fn listings(&self, topic: &str) -> u64 {
        self.listings.get(topic).copied().unwrap_or(0)
    }

    /// Whether the window holds nothing at all.
    pub fn is_empty(&self) -> bool {
        self.subjects.is_empty() && self.listings.is_empty()
    }
}

#[cfg(unix)]
fn read_file(file: &std::fs::File, since: Option<u64>) -> std::io::Result<Tally> {
    let len = file.metadata()?.len();
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    // Below a few MB a thread costs more than it saves.
    let n = if len < 4 << 20 { 1 } else { threads as u64 };
    let ranges: Vec<(u64, u64)> = (0..n).map(|i| (len * i / n, len * (i + 1) / n)).collect();
    let partials = std::thread::scope(|s| {
        let handles: Vec<_> = ranges
            .iter()
            .map(|&(start, end)| s.spawn(move || scan_range(file, start, end, since)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Ok(Partial::default())))
            .collect::<std::io::Result<Vec<_>>>()
    })?;
    Ok(merge(partials))
}

#[cfg(not(unix))]
fn read_file(mut file: &std::fs::File, since: Option<u64>) -> std::io::Result<Tally> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes)?;
    Ok(Tally::read_bytes(&bytes, since))
}

/// Tallies the lines that start in `[start, end)` of `file` (the line
/// that starts before `end` is read to its end).
#[cfg(unix)]
fn scan_range(
    file: &std::fs::File,
    start: u64,
    end: u64,
    since: Option<u64>,
) -> std::io::Result<Partial> {
    use std::os::unix::fs::FileExt as _;
    let mut p = Partial::default();
    let mut buf = vec![0u8; BLOCK];
    // Where the first whole line starts: after the break before `start`.
    let mut pos = start;
    if start > 0 {
        let mut b = [0u8];
        file.read_exact_at(&mut b, start - 1)?;
        if b[0] != b'\n' {
            loop {
                let n = file.read_at(&mut buf, pos)?;
                if n == 0 {
                    return Ok(p);
                }
                if let Some(nl) = buf[..n].iter().position(|&b| b == b'\n') {
                    pos += nl as u64 + 1;
                    break;
                }
                pos += n as u64;
            }
        }
    }
    // `buf[..held]` holds the start of an unfinished line; `buf[0]` is at
    // file offset `base`, always the start of a line.
    let mut base = pos;
    let mut held = 0;
    while base < end {
        if held == buf.len() {
            // One line longer than the block: grow.
            buf.resize(buf.len() * 2, 0);
        }
        let n = file.read_at(&mut buf[held..], base + held as u64)?;
        let filled = held + n;
        // Lines starting before `mine` are this part's: the last of them
        // ends at the first break at or after `mine - 1`.
        let mine = usize::try_from(end - base).unwrap_or(usize::MAX);
        if mine <= filled
            && let Some(k) = buf[mine - 1..filled].iter().position(|&b| b == b'\n')
        {
            p.scan(&buf[..mine + k], since);
            return Ok(p);
        }
        if n == 0 {
            // The end of the file: the last line has no break.
            p.scan(&buf[..filled], since);
            return Ok(p);
        }
        match buf[..filled].iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                let cut = last + 1;
                p.scan(&buf[..cut], since);
                buf.copy_within(cut..filled, 0);
                base += cut as u64;
                held = filled - cut;
            }
            None => held = filled,
        }
    }
    Ok(p)
}

/// `tokens` shared among `n` subjects: equal parts, the remainder to the
/// first ones, so the parts add up to the whole.
pub fn shares(tokens: u64, n: usize) -> impl Iterator<Item = u64> {
    let n = n.max(1) as u64;
    let (each, rest) = (tokens / n, tokens % n);
    (0..n).map(move |i| each + u64::from(i < rest))
}

/// One subject's tally inside a part, sessions and clients interned.
struct Subject {
    topic: u32,
    slug: String,
    usage: Usage,
    /// Sessions that loaded it, repeats possible (sorted and deduplicated
    /// once at the end: a hash set per subject was a seventh of the read).
    sessions: Vec<u32>,
    /// The session last pushed: records come in runs of one session.
    last_session: Option<u32>,
    clients: Vec<u32>,
}

/// The tally of one part of the file, names interned.
#[derive(Default)]
struct Partial {
    topics: Vec<String>,
    topic_ids: FastMap<String, u32>,
    /// Per topic id: slug → index in `subjects`.
    slugs: Vec<FastMap<String, u32>>,
    subjects: Vec<Subject>,
    listings: FastMap<String, u64>,
    sessions: Vec<String>,
    session_ids: FastMap<String, u32>,
    clients: Vec<String>,
    client_ids: FastMap<String, u32>,
    /// The last record's session and client, with their ids.
    last_session: Option<(String, u32)>,
    last_client: Option<(String, String, u32)>,
    day_sessions: FastMap<String, u64>,
    lines: u64,
    malformed: u64,
}

impl Partial {
    fn scan(&mut self, bytes: &[u8], since: Option<u64>) {
        let mut view = View::default();
        // One UTF-8 check for the block; per line only when it fails.
        if let Ok(text) = std::str::from_utf8(bytes) {
            for line in text.split('\n').filter(|l| !l.is_empty()) {
                self.line(line.as_bytes(), Some(line), &mut view, since);
            }
        } else {
            for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                let text = std::str::from_utf8(line).ok();
                self.line(line, text, &mut view, since);
            }
        }
    }

    fn line<'a>(
        &mut self,
        line: &'a [u8],
        text: Option<&'a str>,
        view: &mut View<'a>,
        since: Option<u64>,
    ) {
        self.lines += 1;
        if text.is_some_and(|t| view.read(t)) {
            if since.is_none_or(|s| view.t >= s) {
                self.add(view);
            }
            return;
        }
        let Some(entry) = Entry::parse(line) else {
            self.malformed += 1;
            return;
        };
        let mut slow = View::default();
        slow.of_entry(&entry);
        if since.is_none_or(|s| slow.t >= s) {
            self.add(&slow);
        }
    }

    fn session_id(&mut self, name: &str) -> u32 {
        if let Some((last, id)) = &self.last_session
            && last == name
        {
            return *id;
        }
        let id = intern(&mut self.sessions, &mut self.session_ids, name);
        self.last_session = Some((name.to_owned(), id));
        id
    }

    fn client_id(&mut self, name: &str, version: &str) -> u32 {
        if let Some((n, v, id)) = &self.last_client
            && n == name
            && v == version
        {
            return *id;
        }
        let label = if version.is_empty() {
            name.to_owned()
        } else {
            format!("{name} {version}")
        };
        let id = intern(&mut self.clients, &mut self.client_ids, &label);
        self.last_client = Some((name.to_owned(), version.to_owned(), id));
        id
    }

    fn subject(&mut self, topic: &str, slug: &str) -> &mut Subject {
        let t = if let Some(&t) = self.topic_ids.get(topic) {
            t
        } else {
            self.slugs.push(FastMap::default());
            intern(&mut self.topics, &mut self.topic_ids, topic)
        };
        // (A topic lookup per slug is cheap: a knowledge base has few.)
        let ids = &mut self.slugs[t as usize];
        let i = if let Some(&i) = ids.get(slug) {
            i
        } else {
            let i = u32::try_from(self.subjects.len()).unwrap_or(u32::MAX);
            ids.insert(slug.to_owned(), i);
            self.subjects.push(Subject {
                topic: t,
                slug: slug.to_owned(),
                usage: Usage::default(),
                sessions: Vec::new(),
                last_session: None,
                clients: Vec::new(),
            });
            i
        };
        &mut self.subjects[i as usize]
    }

    fn add(&mut self, e: &View<'_>) {
        let session = e.session.map(|s| self.session_id(s));
        let client = e.client.map(|c| self.client_id(c, e.version.unwrap_or("")));
        if let (Some(day), Some(n)) = (e.day, e.sessions) {
            let slot = self.day_sessions.entry(day.to_owned()).or_insert(0);
            *slot = (*slot).max(n);
        }
        if e.kind == Some(Kind::List) && e.slugs.is_empty() {
            *self.listings.entry(e.topic.to_owned()).or_insert(0) += e.loads.unwrap_or(1);
        }
        for slug in &e.preloaded {
            self.subject(e.topic, slug).usage.asked_while_preloaded += 1;
        }
        for (slug, tokens) in e.slugs.iter().zip(shares(e.tokens, e.slugs.len())) {
            let s = self.subject(e.topic, slug);
            s.usage.loads += e.loads.unwrap_or(1);
            s.usage.tokens += tokens;
            s.usage.last = s.usage.last.max(Some(e.t));
            s.usage.sessions += e.sessions.unwrap_or(0);
            if let Some(id) = session
                && s.last_session != Some(id)
            {
                s.sessions.push(id);
                s.last_session = Some(id);
            }
            if let Some(id) = client
                && !s.clients.contains(&id)
            {
                s.clients.push(id);
            }
            s.usage
                .clients
                .extend(e.clients.iter().map(|c| (*c).to_owned()));
        }
    }
}

/// `name`'s number in `names`, added when new.
fn intern(names: &mut Vec<String>, ids: &mut FastMap<String, u32>, name: &str) -> u32 {
    if let Some(&id) = ids.get(name) {
        return id;
    }
    let id = u32::try_from(names.len()).unwrap_or(u32::MAX);
    names.push(name.to_owned());
    ids.insert(name.to_owned(), id);
    id
}

/// Merges the parts' tallies, turning interned ids back into names.
fn merge(partials: Vec<Partial>) -> Tally {
    let mut tally = Tally::default();
    // Sessions numbered across parts, so a subject's are compared as
    // numbers, never as strings.
    let mut session_ids: FastMap<String, u32> = FastMap::default();
    let mut day_sessions: FastMap<String, u64> = FastMap::default();
    let mut subject_sessions: FastMap<(String, String), Vec<u32>> = FastMap::default();
    for p in partials {
        tally.lines += p.lines;
        tally.malformed += p.malformed;
        let global: Vec<u32> = p
            .sessions
            .into_iter()
            .map(|name| {
                let next = u32::try_from(session_ids.len()).unwrap_or(u32::MAX);
                *session_ids.entry(name).or_insert(next)
            })
            .collect();
        for (day, n) in p.day_sessions {
            let slot = day_sessions.entry(day).or_insert(0);
            *slot = (*slot).max(n);
        }
        for (topic, n) in p.listings {
            *tally.listings.entry(topic).or_insert(0) += n;
        }
        for s in p.subjects {
            let key = (p.topics[s.topic as usize].clone(), s.slug);
            subject_sessions
                .entry(key.clone())
                .or_default()
                .extend(s.sessions.iter().map(|&i| global[i as usize]));
            let u = tally.subjects.entry(key).or_default();
            u.loads += s.usage.loads;
            u.tokens += s.usage.tokens;
            u.last = u.last.max(s.usage.last);
            u.sessions += s.usage.sessions;
            u.asked_while_preloaded += s.usage.asked_while_preloaded;
            u.clients.extend(s.usage.clients);
            u.clients
                .extend(s.clients.iter().map(|&i| p.clients[i as usize].clone()));
        }
    }
    for (key, mut ids) in subject_sessions {
        ids.sort_unstable();
        ids.dedup();
        if let Some(u) = tally.subjects.get_mut(&key) {
            u.sessions += ids.len() as u64;
        }
    }
    tally.sessions = session_ids.len() as u64 + day_sessions.values().sum::<u64>();
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(t: u64, session: &str, client: &str, slugs: &[&str], tokens: u64) -> String {
        let mut e = Entry::record(
            t,
            if slugs.is_empty() {
                Kind::List
            } else {
                Kind::Learn
            },
            "p".into(),
            session.into(),
            (client.into(), "1.0".into()),
        );
        e.slugs = slugs.iter().map(|s| (*s).to_owned().into()).collect();
        e.tokens = tokens;
        e.to_line()
    }

    #[test]
    fn tallies_loads_sessions_clients_and_tokens() {
        let mut text = String::new();
        text += &line(10, "s1", "jp", &["a", "b"], 9);
        text += &line(20, "s1", "jp", &["a"], 4);
        text += &line(30, "s2", "codex", &["a"], 4);
        text += &line(40, "s2", "codex", &[], 7);
        text += "{\"t\":";
        let t = Tally::read_bytes(text.as_bytes(), None);
        let a = t.get("p", "a").unwrap();
        assert_eq!(
            (a.loads, a.sessions, a.last, a.tokens),
            (3, 2, Some(30), 13)
        );
        assert_eq!(
            a.clients.iter().map(String::as_str).collect::<Vec<_>>(),
            ["codex 1.0", "jp 1.0"]
        );
        assert_eq!(t.get("p", "b").unwrap().tokens, 4);
        assert_eq!(t.listings("p"), 1);
        assert_eq!((t.sessions, t.lines, t.malformed), (2, 5, 1));
        let recent = Tally::read_bytes(text.as_bytes(), Some(25));
        assert_eq!(recent.get("p", "a").unwrap().loads, 1);
        assert!(recent.get("p", "b").is_none());
    }

    #[test]
    fn chunks_merge_to_the_same_tally() {
        let mut text = String::new();
        for i in 0..1000 {
            text += &line(
                i,
                &format!("s{}", i % 7),
                "c",
                &[&format!("x{}", i % 13)],
                3,
            );
        }
        let one = Tally::read_bytes(text.as_bytes(), None);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl");
        // Over 4 MB: read in parts by several threads.
        let mut big = String::new();
        while big.len() < 5 << 20 {
            big += &text;
        }
        std::fs::write(&path, &big).unwrap();
        let many = Tally::read(&path, None).unwrap();
        let single = Tally::read_bytes(big.as_bytes(), None);
        assert_eq!(many.lines, single.lines);
        assert_eq!(many.sessions, single.sessions);
        let three = many;
        assert_eq!(one.sessions, three.sessions);
        let copies = three.lines / one.lines;
        for i in 0..13 {
            let slug = format!("x{i}");
            let (a, b) = (one.get("p", &slug).unwrap(), three.get("p", &slug).unwrap());
            assert_eq!(a.loads * copies, b.loads);
            assert_eq!(
                (a.sessions, &a.clients, a.last),
                (b.sessions, &b.clients, b.last)
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn parts_cut_anywhere_read_every_line_once() {
        let mut text = String::new();
        for i in 0..300_usize {
            text += &line(i as u64, "s", "c", &[&"y".repeat(i % 17)], 1);
        }
        text += "{\"t\":1,\"kind\":\"learn\",\"topic\":\"p\",\"slugs\":[\"tail\"]}";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl");
        std::fs::write(&path, &text).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let len = text.len() as u64;
        for parts in [2, 3, 7, 50, 997] {
            let mut lines = 0;
            let mut loads = 0;
            for i in 0..parts {
                let p = scan_range(&file, len * i / parts, len * (i + 1) / parts, None).unwrap();
                lines += p.lines;
                loads += p.subjects.iter().map(|s| s.usage.loads).sum::<u64>();
            }
            assert_eq!((lines, loads), (301, 301), "{parts} parts");
        }
    }

    #[test]
    fn shares_add_up() {
        assert_eq!(shares(10, 3).collect::<Vec<_>>(), [4, 3, 3]);
        assert_eq!(shares(5, 0).collect::<Vec<_>>(), [5]);
    }
}
