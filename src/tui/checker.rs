//! The check off the event loop: `jp-kb check` reads subject files (and
//! takes about a second per thousand subjects), so the terminal runs it on
//! one worker thread. Requests coalesce: a burst of edits runs one check,
//! and a result overtaken by a newer request is dropped, never shown.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread;

use crate::KnowledgeBase;
use crate::check::{CheckReport, check, check_knowledge_base};
use crate::config::{Environment, LoadOptions};

/// What to check: the TUI's loaded knowledge base (shared, not loaded
/// again: a second copy of a 100k-subject walk would double the TUI's
/// memory), or, when the configuration does not load, the workspace from
/// scratch (so the error is a finding with its file and line).
type Request = Option<Arc<KnowledgeBase>>;

/// The worker's two ends, held by the driver.
#[derive(Debug)]
pub struct Checker {
    requests: Sender<Request>,
    results: Receiver<CheckReport>,
}

impl Checker {
    /// Starts the worker; it stops when the checker is dropped.
    pub fn spawn(env: Environment, options: LoadOptions) -> std::io::Result<Self> {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, results) = mpsc::channel();
        thread::Builder::new()
            .name("jp-kb-check".into())
            .spawn(move || work(&inbox, &outbox, &env, &options))?;
        Ok(Self { requests, results })
    }

    /// Asks for a check of `kb` (`None`: of the workspace from scratch).
    pub fn request(&self, kb: Option<Arc<KnowledgeBase>>) {
        // A dead worker only means no more findings; the TUI goes on.
        let _ = self.requests.send(kb);
    }

    /// The latest finished report, if any arrived.
    pub fn latest(&self) -> Option<CheckReport> {
        self.results.try_iter().last()
    }
}

impl super::driver::Driver {
    /// Runs checks on a worker thread from now on (the terminal does; the
    /// test harness checks inline, so its screens are deterministic).
    pub fn check_in_background(&mut self) -> std::io::Result<()> {
        self.checker = Some(Checker::spawn(self.env.clone(), self.options.clone())?);
        Ok(())
    }

    /// Hands a finished background check to the app; true when one came.
    pub fn poll_checks(&mut self, app: &mut super::app::App) -> bool {
        let Some(report) = self.checker.as_ref().and_then(Checker::latest) else {
            return false;
        };
        self.dispatch(app, super::action::Action::Checked(Box::new(report)));
        true
    }
}

fn work(
    inbox: &Receiver<Request>,
    outbox: &Sender<CheckReport>,
    env: &Environment,
    options: &LoadOptions,
) {
    let thresholds = super::findings::tui_thresholds();
    while let Ok(mut request) = inbox.recv() {
        loop {
            // Requests queued meanwhile: only the latest is checked.
            while let Ok(newer) = inbox.try_recv() {
                request = newer;
            }
            let report = match request.take() {
                Some(kb) => check_knowledge_base(&kb, &thresholds),
                None => check(env, options, &thresholds),
            };
            match inbox.try_recv() {
                // Overtaken: check again rather than show a stale report.
                Ok(newer) => request = newer,
                Err(TryRecvError::Empty) => {
                    if outbox.send(report).is_err() {
                        return;
                    }
                    break;
                }
                Err(TryRecvError::Disconnected) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_request_yields_a_report_off_the_calling_thread() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".jp/kb/p")).expect("mkdir");
        std::fs::write(
            dir.path().join(".jp/kb.toml"),
            "[kb.topic.p]\nsubjects = \".jp/kb/nope\"\n",
        )
        .expect("write");
        let env = Environment {
            cwd: dir.path().to_path_buf(),
            global_config_dir: None,
            user_data_dir: None,
        };
        let options = LoadOptions {
            workspace: Some(dir.path().to_path_buf()),
            ..LoadOptions::default()
        };
        let kb = KnowledgeBase::load(&env, &options).expect("loads");
        let checker = Checker::spawn(env, options).expect("spawn");
        checker.request(None);
        checker.request(None);
        let codes = |checker: &Checker| {
            let deadline = Instant::now() + Duration::from_secs(20);
            let report = loop {
                if let Some(r) = checker.latest() {
                    break r;
                }
                assert!(Instant::now() < deadline, "no report");
                std::thread::sleep(Duration::from_millis(10));
            };
            report.findings.iter().map(|f| f.code).collect::<Vec<_>>()
        };
        assert_eq!(codes(&checker), [crate::check::Code::SubjectsNotFound]);

        // A loaded knowledge base is checked as loaded, not read again:
        // the configuration fixed on disk meanwhile changes nothing.
        std::fs::write(
            dir.path().join(".jp/kb.toml"),
            "[kb.topic.p]\nsubjects = \".jp/kb/p\"\n",
        )
        .expect("write");
        checker.request(Some(Arc::new(kb)));
        assert_eq!(codes(&checker), [crate::check::Code::SubjectsNotFound]);
        checker.request(None);
        assert!(!codes(&checker).contains(&crate::check::Code::SubjectsNotFound));
    }
}
