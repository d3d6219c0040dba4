//! The driver's end of planned-section counting (see `plan_costs`): the
//! count of the section a plan would produce reads every subject that
//! section pre-loads (4.4 MiB for tldr with `**`), so in the terminal it
//! runs on a [`Worker`] and the frame says "counting tokens…" meanwhile;
//! without the worker (the test harness) it runs during the key.
//!
//! The driver's one [`SectionCounter`] counts (clones share its memo,
//! keyed by each file's size and modification time): the segments of
//! subjects the current section pre-loads are counted once, each plan
//! after that reads only the subjects it adds, and the prompt's count
//! after a confirmed change comes from the same memo.

use std::sync::Arc;

use super::cost_store::Counted;
use super::event::Event;
use super::worker::{Outbox, Worker, newest};
use jp_kb_core::KnowledgeBase;
use jp_kb_core::edit::plan::{Step, planned};
use jp_kb_core::internal::section_tokens::SectionCounter;

/// What is counted: a load's knowledge base, its generation, the plans.
type Job = (Arc<KnowledgeBase>, u64, Vec<Vec<Step>>);

fn count(counter: &SectionCounter, (kb, generation, plans): Job) -> Counted {
    let counts = plans
        .into_iter()
        .map(|steps| {
            let n = counter.count(&planned(&kb, &steps));
            (steps, n)
        })
        .collect();
    Counted { generation, counts }
}

/// Counts planned sections, on a worker when there is one.
#[derive(Debug)]
pub struct PlanCounts {
    worker: Option<Worker<Job>>,
    /// The last request sent to the worker (not sent again).
    asked: Option<(u64, Vec<Vec<Step>>)>,
    /// The driver's counter (the worker's too).
    counter: SectionCounter,
}

impl PlanCounts {
    /// Counts with `counter` (the driver's: clones share its memo),
    /// during the key until [`PlanCounts::spawn`].
    pub fn new(counter: &SectionCounter) -> Self {
        Self {
            worker: None,
            asked: None,
            counter: counter.clone(),
        }
    }

    /// Counts on a worker from now on, reporting to `outbox`.
    pub fn spawn(&mut self, outbox: &Outbox) -> std::io::Result<()> {
        let counter = self.counter.clone();
        let run = move |job: Job| Some(Event::Counted(Box::new(count(&counter, job))));
        self.worker = Some(Worker::spawn(
            "jp-kb-plan-counts",
            newest,
            run,
            Arc::clone(outbox),
        )?);
        Ok(())
    }

    /// Asks for the counts of `plans` on `kb`'s load `generation`; the
    /// counts themselves when there is no worker (or it is gone).
    pub fn request(
        &mut self,
        kb: &Arc<KnowledgeBase>,
        generation: u64,
        plans: Vec<Vec<Step>>,
    ) -> Option<Counted> {
        let asked = Some((generation, plans));
        if self.worker.is_some() && self.asked == asked {
            // In flight: its answer is on the way.
            return None;
        }
        let plans = asked.map(|(_, p)| p).unwrap_or_default();
        let job = (Arc::clone(kb), generation, plans.clone());
        let job = match &self.worker {
            Some(worker) => match worker.request(job) {
                Ok(()) => {
                    self.asked = Some((generation, plans));
                    return None;
                }
                Err(job) => {
                    self.worker = None;
                    job
                }
            },
            None => job,
        };
        Some(count(&self.counter, job))
    }
}
