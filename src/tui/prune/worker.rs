//! Reading ages and the prune list off the loop: after each load, every
//! enabled topic's subjects' ages (the head of each Markdown file, the
//! whole of a Facts candidate; a file is read again only when its size or
//! modification time changed), and while the prune view is open the list
//! of candidates (the whole usage ledger read, each candidate's tokens
//! counted). On a [`Worker`] in the terminal; inline without one (the
//! test harness), so its screens are deterministic.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::state::{AgeMark, Ages, Listed, Pruned};
use crate::tui::app::App;
use crate::tui::event::Event;
use crate::tui::worker::{Outbox, Worker};
use jp_kb_core::Environment;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::content::Root;
use jp_kb_core::internal::facts::{Day, SubjectAge};
use jp_kb_core::usage::stale;
use jp_kb_core::usage::stale::Criteria;
use jp_kb_core::usage::{Tally, time};

/// A list to make: the request's generation, the ledger, "not loaded
/// for" in days.
#[derive(Debug, Clone)]
pub struct ListJob {
    pub generation: u64,
    pub ledger: Option<PathBuf>,
    pub idle_days: Option<u64>,
}

/// One request: the load to read, its generation, today, and a list to
/// make when the view is open.
#[derive(Debug, Clone)]
pub struct Job {
    pub kb: Arc<KnowledgeBase>,
    pub generation: u64,
    pub today: Day,
    pub list: Option<ListJob>,
}

impl Job {
    /// The request for the load `app` shows (none while it shows a failed
    /// load), with a list when `list` says which (its generation, the idle
    /// days chosen).
    pub fn of(app: &App, env: &Environment, list: Option<(u64, Option<u64>)>) -> Option<Self> {
        let model = app.model().filter(|_| app.loaded.error.is_none())?;
        let ledger = env
            .user_data_dir
            .as_ref()
            .map(|data| jp_kb_core::usage::ledger_path(data, model.kb.root()));
        Some(Self {
            kb: Arc::clone(&model.kb),
            generation: model.generation,
            today: crate::today::today(),
            list: list.map(|(generation, idle_days)| ListJob {
                generation,
                ledger,
                idle_days,
            }),
        })
    }
}

/// A queued request folded into a newer one: the newer load, and the
/// newer list request, else the older's (a list still wanted).
fn merge(older: Job, newer: Job) -> Job {
    Job {
        list: newer.list.or(older.list),
        ..newer
    }
}

/// A file's size and modification time, and what it said.
type Memo = HashMap<PathBuf, (u64, i64, AgeMark, Option<Day>)>;

/// The driver's end: a worker, or the inline memo.
#[derive(Debug, Default)]
pub struct Prunes {
    worker: Option<Worker<Job>>,
    inline: Memo,
}

impl Prunes {
    /// Reads on a worker thread from now on.
    pub fn spawn(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        let mut memo = Memo::new();
        let run = move |job: Job| Some(Event::Pruned(Box::new(compute(&job, &mut memo))));
        self.worker = Some(Worker::spawn("jp-kb-ages", merge, run, Arc::clone(outbox))?);
        Ok(())
    }

    /// Asks for `job`: `None` when the worker will report, else the
    /// answer (no worker, or it is gone).
    pub fn request(&mut self, job: Job) -> Option<Event> {
        let job = match &self.worker {
            Some(worker) => match worker.request(job) {
                Ok(()) => return None,
                Err(job) => {
                    self.worker = None;
                    job
                }
            },
            None => job,
        };
        Some(Event::Pruned(Box::new(compute(&job, &mut self.inline))))
    }
}

fn compute(job: &Job, memo: &mut Memo) -> Pruned {
    let kb = &job.kb;
    let root = Root::new(kb.root());
    let mut ages = Ages {
        generation: job.generation,
        ..Ages::default()
    };
    let mut expired: HashMap<PathBuf, Day> = HashMap::new();
    for topic in kb.enabled_topics() {
        let Some(resolution) = topic.resolution() else {
            continue;
        };
        let mut marks = HashMap::new();
        for (i, s) in resolution.subjects().iter().enumerate() {
            if resolution.is_disabled(i) {
                continue;
            }
            let known = memo
                .get(s.path())
                .filter(|(bytes, modified, ..)| *bytes == s.bytes && *modified == s.modified);
            let (mark, day) = if let Some((_, _, mark, day)) = known {
                (*mark, *day)
            } else {
                let age = SubjectAge::read(&root, s, job.today);
                let mark = AgeMark {
                    stale: age.is_stale(),
                    low: age.is_low_confidence(),
                };
                let day = age.expired();
                memo.insert(s.path().to_path_buf(), (s.bytes, s.modified, mark, day));
                (mark, day)
            };
            if mark != AgeMark::default() {
                marks.insert(s.slug().to_owned(), mark);
            }
            if let Some(day) = day {
                expired.insert(s.path().to_path_buf(), day);
            }
        }
        ages.by_topic.insert(topic.id().to_owned(), marks);
    }
    let listed = job.list.as_ref().map(|list| {
        let tally = list
            .ledger
            .as_deref()
            .map(|path| Tally::read(path, None).unwrap_or_default())
            .unwrap_or_default();
        let now = time::now();
        let criteria = Criteria {
            today: job.today,
            now,
            idle: list.idle_days.map(|d| Duration::from_secs(d * 86_400)),
        };
        let mut candidates = stale::candidates(kb, &tally, None, &criteria, &mut |s| {
            expired.get(s.path()).copied()
        });
        stale::count_tokens(kb, &mut candidates);
        Listed {
            generation: list.generation,
            candidates,
            recorded: !tally.is_empty(),
            now,
        }
    });
    Pruned { ages, listed }
}
