//! One worker type for everything the TUI runs off its event loop (the
//! check, the prompt's rendering, reloads after file changes): a thread
//! that takes requests, coalesces the ones queued while it worked (the
//! newest wins, or they are merged), and reports each result as an
//! [`Event`] to the loop's [`Outbox`].
//!
//! Results are tagged by rule with the generation of the request they
//! answer: a result whose request was overtaken while it ran is dropped,
//! never shown (the newer request's result follows).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};

use super::event::Event;

/// Where workers report: the event loop's channel (false when it is
/// gone, and the worker stops).
pub type Outbox = Arc<dyn Fn(Event) -> bool + Send + Sync>;

/// An outbox that sends into `tx` (the loop's channel, or a test's).
pub fn outbox<T: From<Event> + Send + 'static>(tx: Sender<T>) -> Outbox {
    Arc::new(move |event| tx.send(T::from(event)).is_ok())
}

/// The requesting end of a worker; cloning it shares the worker.
#[derive(Debug)]
pub struct Worker<R> {
    requests: Sender<(u64, R)>,
    /// The generation of the newest request.
    latest: Arc<AtomicU64>,
}

impl<R> Clone for Worker<R> {
    fn clone(&self) -> Self {
        Self {
            requests: self.requests.clone(),
            latest: Arc::clone(&self.latest),
        }
    }
}

impl<R: Send + 'static> Worker<R> {
    /// Starts the worker thread `name`: `merge` folds a newer queued
    /// request into the one about to run, `run` answers a request (None:
    /// nothing to report). The thread ends when every [`Worker`] handle
    /// is dropped or the outbox is gone.
    pub fn spawn(
        name: &str,
        merge: fn(R, R) -> R,
        mut run: impl FnMut(R) -> Option<Event> + Send + 'static,
        outbox: Outbox,
    ) -> std::io::Result<Self> {
        let (requests, inbox) = mpsc::channel::<(u64, R)>();
        let latest = Arc::new(AtomicU64::new(0));
        let newest = Arc::clone(&latest);
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                while let Ok((mut generation, mut request)) = inbox.recv() {
                    while let Ok((newer, more)) = inbox.try_recv() {
                        request = merge(request, more);
                        generation = newer;
                    }
                    let result = run(request);
                    if newest.load(Ordering::SeqCst) != generation {
                        // Overtaken while it ran: stale by rule.
                        continue;
                    }
                    if let Some(event) = result
                        && !outbox(event)
                    {
                        break;
                    }
                }
            })?;
        Ok(Self { requests, latest })
    }

    /// Queues a request; false when the worker is gone (the caller then
    /// does the work itself).
    pub fn request(&self, request: R) -> Result<(), R> {
        let generation = self.latest.fetch_add(1, Ordering::SeqCst) + 1;
        self.requests
            .send((generation, request))
            .map_err(|mpsc::SendError((_, request))| request)
    }
}

/// The newest request wins.
pub fn newest<R>(_older: R, newer: R) -> R {
    newer
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::sync::mpsc::Receiver;
    use std::time::Duration;

    fn done(message: String) -> Event {
        Event::Done {
            message,
            error: false,
            changed: None,
        }
    }

    fn messages(rx: &Receiver<Event>, n: usize) -> Vec<String> {
        (0..n)
            .map(
                |_| match rx.recv_timeout(Duration::from_secs(20)).unwrap() {
                    Event::Done { message, .. } => message,
                    other => panic!("{other:?}"),
                },
            )
            .collect()
    }

    #[test]
    fn queued_requests_coalesce_and_overtaken_results_are_dropped() {
        let (tx, rx) = mpsc::channel::<Event>();
        let (gate_tx, gate) = mpsc::channel::<()>();
        let (started_tx, started) = mpsc::channel::<()>();
        let worker = Worker::spawn(
            "test-worker",
            |a: Vec<u32>, b: Vec<u32>| [a, b].concat(),
            move |request: Vec<u32>| {
                started_tx.send(()).ok()?;
                // Blocks until the test lets it finish.
                gate.recv().ok()?;
                Some(done(format!("{request:?}")))
            },
            outbox(tx),
        )
        .unwrap();
        worker.request(vec![1]).unwrap();
        // [1] runs (waiting at the gate); [2] and [3] queue and merge.
        started.recv_timeout(Duration::from_secs(20)).unwrap();
        worker.request(vec![2]).unwrap();
        worker.request(vec![3]).unwrap();
        gate_tx.send(()).unwrap();
        gate_tx.send(()).unwrap();
        // [1]'s result was overtaken: only the merged request answers.
        assert_eq!(messages(&rx, 1), ["[2, 3]"]);
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        worker.request(vec![4]).unwrap();
        gate_tx.send(()).unwrap();
        assert_eq!(messages(&rx, 1), ["[4]"]);
    }

    #[test]
    fn a_request_to_a_stopped_worker_comes_back() {
        let (tx, rx) = mpsc::channel::<Event>();
        drop(rx);
        let worker = Worker::spawn(
            "test-worker",
            newest,
            |n: u32| Some(done(n.to_string())),
            outbox(tx),
        )
        .unwrap();
        // The first result finds the outbox gone: the thread ends.
        worker.request(1).unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            if worker.request(2) == Err(2) {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "still running");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
