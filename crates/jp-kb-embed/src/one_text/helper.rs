//! A second thread for a query's matrix products, for a process that
//! embeds queries one after another (the model server): each product's
//! outputs are cut into chunks, and both threads take chunks until none
//! is left.
//!
//! Why: the products are bound by memory (the encoder's 42 MB stream from
//! RAM at every query), and two cores read it ~1.35× as fast as one
//! (3.7 ms alone, 2.6–3.0 ms shared, on the bench machine), while the
//! search that asked waits on the other core.
//!
//! Never slower than one thread by more than a chunk: the asking thread
//! takes chunks too, and a chunk the helper took but has not given back
//! in twice the time a chunk takes (it was descheduled on a busy machine)
//! is computed again by the asking thread, its late answer dropped. A
//! chunk gives the same bits whichever thread computes it.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pulp::Arch;

use super::linear::Linear;

/// Chunks a product's outputs are cut into.
const CHUNKS: usize = 8;
/// How long the helper waits for the next product before it sleeps: the
/// steps between two products (attention, norms) take tens of
/// microseconds, waking a sleeping thread as much again.
const SPIN: Duration = Duration::from_micros(300);

/// The helper thread, and the answers it gives.
#[derive(Debug)]
pub(super) struct Helper {
    jobs: Sender<Arc<Job>>,
    done: Mutex<Receiver<Done>>,
    answers: Sender<Done>,
    /// Products asked so far (each job's number).
    asked: AtomicUsize,
}

#[derive(Debug)]
struct Job {
    number: usize,
    linear: Arc<Linear>,
    x: Arc<[f32]>,
    tokens: usize,
    /// The next chunk not taken.
    next: AtomicUsize,
    answers: Sender<Done>,
}

/// A chunk's outputs, from the helper.
#[derive(Debug)]
struct Done {
    job: usize,
    chunk: usize,
    values: Vec<f32>,
}

impl Helper {
    /// Starts the helper thread; `None` when there is no second core or
    /// no thread to be had.
    pub fn start(arch: Arch) -> Option<Self> {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        if cores < 2 {
            return None;
        }
        Self::spawn(arch)
    }

    /// Starts the helper thread, whatever the cores.
    fn spawn(arch: Arch) -> Option<Self> {
        let (jobs, incoming) = channel::<Arc<Job>>();
        std::thread::Builder::new()
            .name("jp-kb-query".to_owned())
            .spawn(move || serve(arch, &incoming))
            .ok()?;
        Some(Self::with_jobs(jobs))
    }

    fn with_jobs(jobs: Sender<Arc<Job>>) -> Self {
        let (answers, done) = channel();
        Self {
            jobs,
            done: Mutex::new(done),
            answers,
            asked: AtomicUsize::new(0),
        }
    }

    /// [`Linear::apply`], shared with the helper.
    pub fn apply(&self, arch: Arch, linear: &Arc<Linear>, x: Vec<f32>, tokens: usize) -> Vec<f32> {
        let (job, helped) = self.ask(linear, x, tokens);
        self.finish(arch, &job, helped)
    }

    /// The product as a job, given to the helper (`false`: it is gone).
    fn ask(&self, linear: &Arc<Linear>, x: Vec<f32>, tokens: usize) -> (Arc<Job>, bool) {
        let job = Arc::new(Job {
            number: self.asked.fetch_add(1, Ordering::Relaxed),
            linear: Arc::clone(linear),
            x: x.into(),
            tokens,
            next: AtomicUsize::new(0),
            answers: self.answers.clone(),
        });
        let helped = self.jobs.send(Arc::clone(&job)).is_ok();
        (job, helped)
    }

    /// Takes the job's chunks left, then gathers the helper's, computing
    /// again any it holds too long.
    fn finish(&self, arch: Arch, job: &Job, helped: bool) -> Vec<f32> {
        let (rows, tokens) = (job.linear.rows(), job.tokens);
        let mut out = vec![0f32; tokens * rows];
        let mut have = [false; CHUNKS];
        let mut slowest = Duration::ZERO;
        loop {
            let chunk = job.next.fetch_add(1, Ordering::AcqRel);
            if chunk >= CHUNKS {
                break;
            }
            let started = Instant::now();
            let values = job.compute(arch, chunk);
            slowest = slowest.max(started.elapsed());
            place(&mut out, rows, chunk_rows(rows, chunk), &values);
            have[chunk] = true;
        }
        // A poisoned lock only means an earlier product panicked; the
        // channel itself is whole.
        let done = self
            .done
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Twice the slowest chunk here; when the helper took them all,
        // a chunk's worth on this machine.
        let patience = if slowest.is_zero() {
            Duration::from_micros(200)
        } else {
            slowest * 2 + Duration::from_micros(50)
        };
        while helped && have.iter().any(|h| !h) {
            match done.recv_timeout(patience) {
                Ok(answer) if answer.job == job.number && !have[answer.chunk] => {
                    place(
                        &mut out,
                        rows,
                        chunk_rows(rows, answer.chunk),
                        &answer.values,
                    );
                    have[answer.chunk] = true;
                }
                // An earlier product's late chunk.
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        for chunk in (0..CHUNKS).filter(|&c| !have[c]) {
            let values = job.compute(arch, chunk);
            place(&mut out, rows, chunk_rows(rows, chunk), &values);
        }
        out
    }
}

impl Job {
    fn compute(&self, arch: Arch, chunk: usize) -> Vec<f32> {
        let rows = chunk_rows(self.linear.rows(), chunk);
        self.linear.apply_rows(arch, &self.x, self.tokens, rows)
    }
}

/// The helper's loop: chunks of each job until none is left, waiting a
/// little for the next job before sleeping; ends with the [`Helper`].
fn serve(arch: Arch, jobs: &Receiver<Arc<Job>>) {
    loop {
        let job = match spin_for(jobs) {
            Some(job) => job,
            None => match jobs.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
        };
        loop {
            let chunk = job.next.fetch_add(1, Ordering::AcqRel);
            if chunk >= CHUNKS {
                break;
            }
            let values = job.compute(arch, chunk);
            let answer = Done {
                job: job.number,
                chunk,
                values,
            };
            if job.answers.send(answer).is_err() {
                return;
            }
        }
    }
}

/// The next job, if one comes within [`SPIN`].
fn spin_for(jobs: &Receiver<Arc<Job>>) -> Option<Arc<Job>> {
    let started = Instant::now();
    while started.elapsed() < SPIN {
        match jobs.try_recv() {
            Ok(job) => return Some(job),
            Err(TryRecvError::Empty) => std::hint::spin_loop(),
            Err(TryRecvError::Disconnected) => return None,
        }
    }
    None
}

/// The outputs of chunk `chunk` of `rows`: whole tiles of 4 but the last.
fn chunk_rows(rows: usize, chunk: usize) -> Range<usize> {
    let size = rows.div_ceil(CHUNKS).div_ceil(4) * 4;
    (chunk * size).min(rows)..((chunk + 1) * size).min(rows)
}

/// `values` (tokens × `part.len()`) into their columns of `out` (tokens ×
/// `rows`).
fn place(out: &mut [f32], rows: usize, part: Range<usize>, values: &[f32]) {
    if part.is_empty() {
        return;
    }
    for (token, chunk) in values.chunks_exact(part.len()).enumerate() {
        out[token * rows + part.start..token * rows + part.end].copy_from_slice(chunk);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;

    use super::*;
    use crate::one_text::tests::random;

    fn linear(rows: usize, cols: usize, seed: u64) -> Arc<Linear> {
        let mut next = random(seed);
        Arc::new(Linear {
            weight: (0..rows * cols).map(|_| next()).collect(),
            bias: (0..rows).map(|_| next()).collect(),
            cols,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// The same bits as one thread, for every shape (fewer rows than
        /// chunks included), product after product.
        #[test]
        fn gives_the_bits_of_one_thread(
            rows in 1usize..70,
            cols in 1usize..40,
            tokens in 1usize..9,
            seed in any::<u64>(),
        ) {
            let arch = Arch::new();
            let helper = Helper::spawn(arch).unwrap();
            for round in 0..3 {
                let linear = linear(rows, cols, seed ^ round);
                let x: Vec<f32> = {
                    let mut next = random(seed.rotate_left(7) ^ round);
                    (0..tokens * cols).map(|_| next()).collect()
                };
                let alone = linear.apply(arch, &x, tokens);
                prop_assert_eq!(helper.apply(arch, &linear, x, tokens), alone);
            }
        }
    }

    /// A helper that took chunks and never answers (descheduled, or
    /// stuck) costs a little waiting, not a wrong or missing output; nor
    /// does a helper that is gone.
    #[test]
    fn a_helper_that_never_answers_is_done_without() {
        let arch = Arch::new();
        let (jobs, stuck) = channel();
        let helper = Helper::with_jobs(jobs);
        let linear = linear(40, 24, 3);
        let x: Vec<f32> = {
            let mut next = random(11);
            (0..5 * 24).map(|_| next()).collect()
        };
        let alone = linear.apply(arch, &x, 5);
        let (job, given) = helper.ask(&linear, x.clone(), 5);
        assert!(given);
        // The helper's three chunks, never answered.
        let taken = stuck.recv().unwrap();
        for _ in 0..3 {
            taken.next.fetch_add(1, Ordering::AcqRel);
        }
        let started = Instant::now();
        assert_eq!(helper.finish(arch, &job, given), alone);
        assert!(started.elapsed() < Duration::from_secs(1));
        drop(stuck);
        assert_eq!(helper.apply(arch, &linear, x, 5), alone, "gone");
    }

    #[test]
    fn chunks_cover_the_outputs_once() {
        for rows in 0..100 {
            let covered: Vec<usize> = (0..CHUNKS).flat_map(|c| chunk_rows(rows, c)).collect();
            assert_eq!(covered, (0..rows).collect::<Vec<_>>(), "{rows}");
        }
    }
}
