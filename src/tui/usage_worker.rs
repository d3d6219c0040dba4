//! Reading the usage ledger off the loop, and again whenever it changes:
//! a thread resolves the workspace's ledger (the data directory and the
//! canonical root, as `jp-kb mcp` does), reads its tally and reports it
//! as [`Event::Usage`]; a watcher on the ledger's directory (or, while it
//! does not exist, on its nearest existing ancestor) wakes it when a
//! server appends. Changes are coalesced: a busy server appending many
//! times a second causes one read per second at most.

use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use notify_debouncer_full::notify::{RecursiveMode, Watcher as _};

use super::event::Event;
use super::usage::{Read, WINDOW};
use super::worker::Outbox;
use jp_kb_core::usage::{Tally, ledger_path, time};
use jp_kb_core::{Environment, LoadOptions};

/// How long after a change the ledger is read (the appends of one burst
/// arrive together).
const SETTLE: Duration = Duration::from_millis(250);
/// The least time between two reads.
const PACE: Duration = Duration::from_secs(1);

/// Starts the thread; `None` when there is no ledger to read (no data
/// directory, no workspace) or no thread.
pub fn spawn(env: &Environment, options: &LoadOptions, outbox: &Outbox) -> Option<()> {
    let data = env.user_data_dir.clone()?;
    let root =
        jp_kb_core::internal::config::workspace::resolve_root(env, options.workspace.as_deref())
            .ok()?;
    let path = ledger_path(&data, &root);
    let outbox = std::sync::Arc::clone(outbox);
    std::thread::Builder::new()
        .name("jp-kb-usage".into())
        .spawn(move || follow(&path, &outbox))
        .ok()?;
    Some(())
}

/// Reads the tally and sends it; false when the loop is gone.
fn send(path: &Path, outbox: &Outbox) -> bool {
    let at = time::now();
    let since = at.saturating_sub(WINDOW.as_secs());
    // An unreadable ledger shows as empty: usage is a hint, never an error.
    let tally = Tally::read(path, Some(since)).unwrap_or_default();
    outbox(Event::Usage(Box::new(Read { tally, at })))
}

/// What to watch for `path`: its directory, or the nearest ancestor that
/// exists (non-recursive: the data directory may be large).
fn watch_target(path: &Path) -> Option<PathBuf> {
    path.parent()?
        .ancestors()
        .find(|d| d.is_dir())
        .map(Path::to_path_buf)
}

fn follow(path: &Path, outbox: &Outbox) {
    if !send(path, outbox) {
        return;
    }
    let (tx, rx) = channel();
    let Ok(mut watcher) = notify_debouncer_full::notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    }) else {
        return;
    };
    let mut target = watch_target(path);
    if let Some(dir) = &target {
        let _ = watcher.watch(dir, RecursiveMode::NonRecursive);
    }
    let mut last_read = Instant::now();
    loop {
        // A change; then what else arrives while the burst settles.
        if rx.recv().is_err() {
            return;
        }
        std::thread::sleep(SETTLE.max(PACE.saturating_sub(last_read.elapsed())));
        while rx.try_recv().is_ok() {}
        // The directory may have appeared since (the first record).
        let now = watch_target(path);
        if now != target {
            if let Some(old) = &target {
                let _ = watcher.unwatch(old);
            }
            if let Some(dir) = &now {
                let _ = watcher.watch(dir, RecursiveMode::NonRecursive);
            }
            target = now;
        }
        last_read = Instant::now();
        if !send(path, outbox) {
            return;
        }
    }
}
