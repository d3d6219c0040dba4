//! What the server writes to the usage ledger (contract §9): one record per
//! answered request that reads knowledge — a `learn` call that loads
//! subjects or lists a topic, a `resources/read` of a subject, a
//! `prompts/get`. The handler only queues the record with the knowledge
//! base it answered from; the core's recorder names the subjects, counts
//! the tokens and appends on its own thread, so the answer never waits.
//!
//! Off with `--no-usage` (no recorder at all) or `kb.usage = false` in
//! any layer (checked per request: the configuration is read per request,
//! so the switch takes effect without a restart).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jp_kb_core::KnowledgeBase;
use jp_kb_core::usage::{
    Entries, Entry, Kind, Ledger, Recorder, served_by_learn, session_id, time,
};
use rmcp::RoleServer;
use rmcp::service::Peer;

/// Longest client name or version kept: they come from the client.
const MAX_CLIENT_BYTES: usize = 128;

/// The server's usage recording: its session and the recorder thread.
#[derive(Debug)]
pub struct UsageLog {
    recorder: Recorder,
    session: String,
    /// The client's name when the server was told it (`--client`): JP's
    /// MCP client names itself after its SDK (`rmcp 1.8.0`).
    client: Option<String>,
    /// JP's user data directory; the ledger is below it.
    data_dir: PathBuf,
}

impl UsageLog {
    /// Starts recording into `data_dir`'s ledgers; `None` without a data
    /// directory (nothing can be recorded) or a writer thread.
    pub fn start(data_dir: Option<PathBuf>, client: Option<String>) -> Option<Arc<Self>> {
        let data_dir = data_dir?;
        let recorder = Recorder::start(Box::new(|line| {
            eprintln!("jp-kb mcp: {}", jp_kb_core::display::escape_lines(line));
        }))?;
        Some(Arc::new(Self {
            recorder,
            session: session_id(),
            client,
            data_dir,
        }))
    }

    /// Writes what is queued; the server is stopping.
    pub fn finish(&self) {
        self.recorder.finish(Duration::from_secs(2));
    }

    fn ledger(&self, kb: &KnowledgeBase) -> Option<Ledger> {
        kb.loaded
            .kb
            .usage_enabled()
            .then(|| Ledger::for_workspace(&self.data_dir, kb.root()))
    }

    fn entry(&self, peer: &Peer<RoleServer>, kind: Kind, topic: String) -> Entry<'static> {
        let client = self
            .client
            .clone()
            .map_or_else(|| client(peer), |name| (name, String::new()));
        Entry::record(time::now(), kind, topic, self.session.clone(), client)
    }

    /// A `learn` call answered from `kb` with `answer` (not an error).
    pub fn learn(
        &self,
        peer: &Peer<RoleServer>,
        kb: KnowledgeBase,
        topic: String,
        patterns: Option<Vec<String>>,
        answer: String,
    ) {
        let Some(ledger) = self.ledger(&kb) else {
            return;
        };
        let mut entry = self.entry(peer, Kind::Learn, String::new());
        let make = move || {
            let Some(served) = served_by_learn(&kb, &topic, patterns.as_deref()) else {
                return Vec::new();
            };
            entry.kind = served.kind;
            entry.topic = served.topic.into();
            entry.slugs = served.slugs.into_iter().map(Into::into).collect();
            entry.preloaded = served.preloaded.into_iter().map(Into::into).collect();
            entry.set_patterns(patterns.unwrap_or_default());
            vec![entry]
        };
        self.recorder
            .record(&ledger, Entries::Later(Box::new(make)), answer);
    }

    /// A `resources/read` of `topic`/`slug`; `answer` is its text (empty
    /// for a binary subject, which has no tokens).
    pub fn resource(
        &self,
        peer: &Peer<RoleServer>,
        kb: &KnowledgeBase,
        topic: String,
        slug: &str,
        answer: String,
    ) {
        let Some(ledger) = self.ledger(kb) else {
            return;
        };
        // The URI may spell the slug with its dots or as the file's path:
        // the record names the subject by its slug.
        let slug = kb
            .topic(&topic)
            .and_then(|t| t.resolution())
            .and_then(|r| {
                let i = jp_kb_core::subjects::find_exact(r.subjects(), slug)?;
                Some(r.subjects()[i].slug().to_owned())
            })
            .unwrap_or_else(|| slug.to_owned());
        let mut entry = self.entry(peer, Kind::Resource, topic);
        entry.slugs = vec![slug.into()];
        self.recorder
            .record(&ledger, Entries::Ready(vec![entry]), answer);
    }

    /// A `prompts/get`: the section serves every pre-loaded subject, one
    /// record per topic that has some (a record names one topic).
    pub fn prompt(&self, peer: &Peer<RoleServer>, kb: &KnowledgeBase, answer: String) {
        let Some(ledger) = self.ledger(kb) else {
            return;
        };
        let mut entries = Vec::new();
        for topic in kb.enabled_topics() {
            let Some(resolution) = topic.resolution() else {
                continue;
            };
            let slugs: Vec<_> = resolution
                .learned_sorted()
                .into_iter()
                .map(|i| resolution.subjects()[i].slug().to_owned().into())
                .collect();
            if !slugs.is_empty() {
                let mut entry = self.entry(peer, Kind::Prompt, topic.id().to_owned());
                entry.slugs = slugs;
                entries.push(entry);
            }
        }
        self.recorder
            .record(&ledger, Entries::Ready(entries), answer);
    }
}

/// The client's name and version from `initialize`, cut to a sane length.
fn client(peer: &Peer<RoleServer>) -> (String, String) {
    let cut = |s: &str| jp_kb_core::internal::mcp::tool::clip_to(s, MAX_CLIENT_BYTES).to_owned();
    peer.peer_info().map_or_else(
        || ("unknown".to_owned(), String::new()),
        |info| (cut(&info.client_info.name), cut(&info.client_info.version)),
    )
}
