//! Reading a ledger into per-subject tallies for a time window.
//!
//! A million records (about 150 MB) must answer in half a second, so the
//! read is one `read` of the file, lines parsed in place (strings borrowed
//! from the buffer), session and client names interned to numbers, and the
//! file split at line breaks across the machine's cores; the partial
//! tallies are merged at the end. A torn or foreign line is counted and
//! skipped, never an error.

use std::collections::BTreeSet;
use std::path::Path;

use super::record::{Entry, Kind};
use super::text::Text;
use crate::search::hash::{FastMap, FastSet};

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
    pub malformed: u64,
}

impl Tally {
    /// Reads the ledger at `path`; entries before `since` (UTC seconds)
    /// are left out. A ledger that does not exist is empty.
    pub fn read(path: &Path, since: Option<u64>) -> std::io::Result<Self> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(Self::read_bytes(&bytes, since)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(e),
        }
    }

    /// [`Tally::read`] of a ledger's bytes.
    pub fn read_bytes(bytes: &[u8], since: Option<u64>) -> Self {
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        // Below a few MB a thread costs more than it saves.
        let chunks = split_lines(bytes, if bytes.len() < 4 << 20 { 1 } else { threads });
        let partials: Vec<Partial<'_>> = if chunks.len() == 1 {
            chunks.iter().map(|c| Partial::scan(c, since)).collect()
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = chunks
                    .iter()
                    .map(|c| s.spawn(move || Partial::scan(c, since)))
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            })
        };
        merge(partials)
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

/// `tokens` shared among `n` subjects: equal parts, the remainder to the
/// first ones, so the parts add up to the whole.
pub fn shares(tokens: u64, n: usize) -> impl Iterator<Item = u64> {
    let n = n.max(1) as u64;
    let (each, rest) = (tokens / n, tokens % n);
    (0..n).map(move |i| each + u64::from(i < rest))
}

/// `bytes` cut into about `n` pieces, each ending at a line break.
fn split_lines(bytes: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for i in 1..n {
        let guess = (bytes.len() * i / n).max(start);
        let end = bytes[guess..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |p| guess + p + 1);
        out.push(&bytes[start..end]);
        start = end;
    }
    out.push(&bytes[start..]);
    out
}

/// One subject's tally inside a chunk, sessions and clients interned.
#[derive(Default)]
struct Partial1 {
    usage: Usage,
    sessions: FastSet<u32>,
    clients: Vec<u32>,
}

/// The tally of one chunk, strings borrowed from the ledger's bytes.
#[derive(Default)]
struct Partial<'a> {
    subjects: FastMap<(Text<'a>, Text<'a>), Partial1>,
    listings: FastMap<Text<'a>, u64>,
    session_ids: FastMap<Text<'a>, u32>,
    client_ids: FastMap<(Text<'a>, Text<'a>), u32>,
    day_sessions: FastMap<Text<'a>, u64>,
    lines: u64,
    malformed: u64,
}

impl<'a> Partial<'a> {
    fn scan(bytes: &'a [u8], since: Option<u64>) -> Self {
        let mut p = Partial::default();
        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            p.lines += 1;
            match Entry::parse(line) {
                Some(e) if since.is_none_or(|s| e.t >= s) => p.add(e),
                Some(_) => {}
                None => p.malformed += 1,
            }
        }
        p
    }

    fn add(&mut self, e: Entry<'a>) {
        let next = u32::try_from(self.session_ids.len()).unwrap_or(u32::MAX);
        let session = e
            .session
            .clone()
            .map(|s| *self.session_ids.entry(s).or_insert(next));
        let client = e.client.clone().map(|c| {
            let next = u32::try_from(self.client_ids.len()).unwrap_or(u32::MAX);
            let v = e.version.clone().unwrap_or_default();
            *self.client_ids.entry((c, v)).or_insert(next)
        });
        if let (Some(day), Some(n)) = (&e.day, e.sessions) {
            let slot = self.day_sessions.entry(day.clone()).or_insert(0);
            *slot = (*slot).max(n);
        }
        if e.kind == Kind::List && e.slugs.is_empty() {
            *self.listings.entry(e.topic.clone()).or_insert(0) += e.loads.unwrap_or(1);
        }
        for slug in e.preloaded {
            let s = self.subject(&e.topic, slug);
            s.usage.asked_while_preloaded += 1;
        }
        let n = e.slugs.len();
        for (slug, tokens) in e.slugs.into_iter().zip(shares(e.tokens, n)) {
            let s = self.subject(&e.topic, slug);
            s.usage.loads += e.loads.unwrap_or(1);
            s.usage.tokens += tokens;
            s.usage.last = s.usage.last.max(Some(e.t));
            s.usage.sessions += e.sessions.unwrap_or(0);
            if let Some(id) = session {
                s.sessions.insert(id);
            }
            if let Some(id) = client
                && !s.clients.contains(&id)
            {
                s.clients.push(id);
            }
            s.usage
                .clients
                .extend(e.clients.iter().map(|c| c.as_str().to_owned()));
        }
    }

    fn subject(&mut self, topic: &Text<'a>, slug: Text<'a>) -> &mut Partial1 {
        self.subjects.entry((topic.clone(), slug)).or_default()
    }
}

/// Merges the chunks' tallies, turning interned ids back into names.
fn merge(partials: Vec<Partial<'_>>) -> Tally {
    let mut tally = Tally::default();
    let mut all_sessions: FastSet<String> = FastSet::default();
    let mut day_sessions: FastMap<String, u64> = FastMap::default();
    let mut subject_sessions: FastMap<(String, String), FastSet<String>> = FastMap::default();
    for p in partials {
        tally.lines += p.lines;
        tally.malformed += p.malformed;
        let mut sessions = vec![String::new(); p.session_ids.len()];
        for (name, id) in &p.session_ids {
            name.as_str().clone_into(&mut sessions[*id as usize]);
        }
        let mut clients = vec![String::new(); p.client_ids.len()];
        for ((name, version), id) in &p.client_ids {
            clients[*id as usize] = if version.as_str().is_empty() {
                name.as_str().to_owned()
            } else {
                format!("{} {}", name.as_str(), version.as_str())
            };
        }
        all_sessions.extend(sessions.iter().cloned());
        for (day, n) in p.day_sessions {
            let slot = day_sessions.entry(day.as_str().to_owned()).or_insert(0);
            *slot = (*slot).max(n);
        }
        for (topic, n) in p.listings {
            *tally.listings.entry(topic.as_str().to_owned()).or_insert(0) += n;
        }
        for ((topic, slug), s) in p.subjects {
            let key = (topic.as_str().to_owned(), slug.as_str().to_owned());
            let ids = subject_sessions.entry(key.clone()).or_default();
            ids.extend(s.sessions.iter().map(|&i| sessions[i as usize].clone()));
            let u = tally.subjects.entry(key).or_default();
            u.loads += s.usage.loads;
            u.tokens += s.usage.tokens;
            u.last = u.last.max(s.usage.last);
            u.sessions += s.usage.sessions;
            u.asked_while_preloaded += s.usage.asked_while_preloaded;
            u.clients.extend(s.usage.clients);
            u.clients
                .extend(s.clients.iter().map(|&i| clients[i as usize].clone()));
        }
    }
    for (key, ids) in subject_sessions {
        if let Some(u) = tally.subjects.get_mut(&key) {
            u.sessions += ids.len() as u64;
        }
    }
    tally.sessions = all_sessions.len() as u64 + day_sessions.values().sum::<u64>();
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
        let one = merge(vec![Partial::scan(text.as_bytes(), None)]);
        let parts: Vec<_> = split_lines(text.as_bytes(), 3)
            .into_iter()
            .map(|c| Partial::scan(c, None))
            .collect();
        let three = merge(parts);
        assert_eq!(one.sessions, three.sessions);
        for i in 0..13 {
            let slug = format!("x{i}");
            assert_eq!(one.get("p", &slug), three.get("p", &slug));
        }
    }

    #[test]
    fn shares_add_up() {
        assert_eq!(shares(10, 3).collect::<Vec<_>>(), [4, 3, 3]);
        assert_eq!(shares(5, 0).collect::<Vec<_>>(), [5]);
    }
}
