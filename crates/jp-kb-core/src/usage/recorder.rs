//! The server's recorder: a request's handler hands its record to a
//! background thread and returns at once; the thread counts the answer's
//! tokens and appends. A slow disk, a held lock or a full or read-only
//! directory therefore never delays or fails an answer: the thread logs
//! one line (once per run of failures) and drops the record, and records
//! still queued when the server stops are said too, never lost silently.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::ledger::Ledger;
use super::read::shares;
use super::record::Entry;
use super::time::now;

/// Records of one answer, the ledger they go to, and the answer to count
/// tokens in.
struct Pending {
    ledger: Ledger,
    entries: Entries,
    answer: String,
}

/// The records of one answer, or how to make them on the writer thread
/// (naming the subjects a call served takes its pattern resolution again:
/// not on the answer's path).
pub enum Entries {
    /// Made already.
    Ready(Vec<Entry<'static>>),
    /// Made on the writer thread.
    Later(Box<dyn FnOnce() -> Vec<Entry<'static>> + Send>),
}

/// Where the recorder says that a record was not written.
pub type Log = Box<dyn Fn(&str) + Send + Sync>;

/// A ledger's background writer.
pub struct Recorder {
    tx: Mutex<Option<Sender<Pending>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// Answers queued and not yet written (or refused).
    queued: Arc<AtomicUsize>,
    log: Arc<dyn Fn(&str) + Send + Sync>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Recorder")
    }
}

impl Recorder {
    /// Starts the writer thread; `log` receives one line per run of failed
    /// writes, and one for the records a stopping server could not wait
    /// for. `None` when the thread cannot start (then nothing is
    /// recorded, and stderr says so).
    pub fn start(log: Log) -> Option<Self> {
        let (tx, rx) = channel::<Pending>();
        let log: Arc<dyn Fn(&str) + Send + Sync> = Arc::from(log);
        let queued = Arc::new(AtomicUsize::new(0));
        let (thread_log, thread_queued) = (Arc::clone(&log), Arc::clone(&queued));
        let worker = std::thread::Builder::new()
            .name("jp-kb usage".into())
            .spawn(move || {
                let mut failing = false;
                for pending in rx {
                    let written = write(pending);
                    thread_queued.fetch_sub(1, Ordering::SeqCst);
                    match written {
                        Ok(()) => failing = false,
                        Err(e) if !failing => {
                            failing = true;
                            thread_log(&format!("usage not recorded: {e}"));
                        }
                        Err(_) => {}
                    }
                }
            });
        match worker {
            Ok(worker) => Some(Self {
                tx: Mutex::new(Some(tx)),
                worker: Mutex::new(Some(worker)),
                queued,
                log,
            }),
            Err(e) => {
                eprintln!("jp-kb: usage not recorded: cannot start its thread: {e}");
                None
            }
        }
    }

    /// Queues the records of one answer (its text counted off this
    /// thread). Costs a channel send.
    pub fn record(&self, ledger: &Ledger, entries: Entries, answer: String) {
        if matches!(&entries, Entries::Ready(e) if e.is_empty()) {
            return;
        }
        if let Ok(tx) = self.tx.lock()
            && let Some(tx) = tx.as_ref()
        {
            self.queued.fetch_add(1, Ordering::SeqCst);
            if tx
                .send(Pending {
                    ledger: ledger.clone(),
                    entries,
                    answer,
                })
                .is_err()
            {
                self.queued.fetch_sub(1, Ordering::SeqCst);
                (self.log)("usage not recorded: its writer thread has stopped");
            }
        }
    }

    /// Writes what is queued and stops, waiting at most `timeout` (a stuck
    /// disk must not keep the process alive); what is left is said.
    pub fn finish(&self, timeout: Duration) {
        if let Ok(mut tx) = self.tx.lock() {
            tx.take();
        }
        let Some(worker) = self.worker.lock().ok().and_then(|mut w| w.take()) else {
            return;
        };
        let deadline = std::time::Instant::now() + timeout;
        while !worker.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        if worker.is_finished() {
            let _ = worker.join();
            return;
        }
        let left = self.queued.load(Ordering::SeqCst);
        if left > 0 {
            (self.log)(&format!(
                "usage not recorded: {left} {} still being written after {:.1} s when the server stopped",
                if left == 1 {
                    "answer was"
                } else {
                    "answers were"
                },
                timeout.as_secs_f64()
            ));
        }
    }
}

fn write(pending: Pending) -> Result<(), super::LedgerError> {
    let tokens = jp_kb_tokens::count_tokens(&pending.answer)
        .map_or(pending.answer.len() as u64 / 4, |n| n as u64);
    let entries = match pending.entries {
        Entries::Ready(e) => e,
        Entries::Later(make) => make(),
    };
    let n = entries.len();
    let now = now();
    for (mut entry, share) in entries.into_iter().zip(shares(tokens, n)) {
        entry.tokens = share;
        pending.ledger.append(&entry, now)?;
    }
    Ok(())
}

/// A session id: one per server process, distinct across processes and
/// runs (the pid, the start time and an address, hashed).
pub fn session_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let local = 0u8;
    let seed = format!("{}:{nanos}:{:p}", std::process::id(), &raw const local);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::record::Kind;
    use std::sync::{Arc, Mutex as StdMutex};

    fn entry() -> Entry<'static> {
        let mut e = Entry::record(
            now(),
            Kind::Learn,
            "p".into(),
            session_id(),
            ("c".into(), "1".into()),
        );
        e.slugs = vec!["a".to_owned().into()];
        e
    }

    #[test]
    fn writes_in_the_background_and_flushes_on_finish() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path().join("l.jsonl"));
        let path = ledger.path().to_path_buf();
        let r = Recorder::start(Box::new(|_| {})).unwrap();
        for _ in 0..20 {
            r.record(
                &ledger,
                Entries::Ready(vec![entry()]),
                "some answer text".into(),
            );
        }
        r.finish(Duration::from_secs(5));
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(text.lines().count(), 20);
        assert!(!text.contains("some answer"));
        assert!(text.contains("\"tokens\":3"), "{text}");
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_directory_logs_once_and_never_fails() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o500)).unwrap();
        // Root ignores permissions: nothing to test then.
        if std::fs::write(dir.path().join("probe"), "").is_ok() {
            return;
        }
        let logged = Arc::new(StdMutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&logged);
        let ledger = Ledger::new(dir.path().join("usage/l.jsonl"));
        let r =
            Recorder::start(Box::new(move |l| sink.lock().unwrap().push(l.to_owned()))).unwrap();
        for _ in 0..5 {
            r.record(
                &ledger,
                Entries::Later(Box::new(|| vec![entry()])),
                "x".into(),
            );
        }
        r.finish(Duration::from_secs(5));
        assert_eq!(logged.lock().unwrap().len(), 1);
        assert_ne!(session_id(), session_id());
    }

    #[test]
    fn records_a_stopping_server_cannot_wait_for_are_said() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path().join("usage/l.jsonl"));
        std::fs::create_dir_all(dir.path().join("usage")).unwrap();
        // Another writer holds the usage directory's lock past the wait.
        let held = jp_kb_fs::lock_dir(
            &jp_kb_fs::open_dir(&dir.path().join("usage")).unwrap(),
            Duration::from_secs(1),
        )
        .unwrap();
        let logged = Arc::new(StdMutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&logged);
        let r =
            Recorder::start(Box::new(move |l| sink.lock().unwrap().push(l.to_owned()))).unwrap();
        r.record(&ledger, Entries::Ready(vec![entry()]), "x".into());
        r.finish(Duration::from_millis(100));
        let lines = logged.lock().unwrap().clone();
        assert_eq!(
            lines,
            [
                "usage not recorded: 1 answer was still being written after 0.1 s when the server stopped"
            ],
        );
        drop(held);
    }
}
