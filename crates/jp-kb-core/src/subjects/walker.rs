//! The traversal behind [`walk_subjects`](super::walk_subjects), on all
//! cores: each directory is a job that lists it and `stat`s its files;
//! the caller's thread and helpers take jobs from one queue. What a job
//! finds besides subjects (warnings, the directories listed, where its
//! subdirectories' findings go) is kept per job and put together at the
//! end in the order a depth-first walk in `readdir` order yields it (the
//! order of walkdir, which this replaced), so the result does not depend
//! on which thread listed what. Subjects need no order: each thread sorts
//! its own, and the sorted runs are merged.
//!
//! The rules are those of the sequential walk (`walk_reference`, kept for
//! the tests that compare the two): symlinks followed by hand, only when
//! they resolve inside the workspace root, loops detected against the
//! walks being entered; FIFOs, sockets and devices reported, never opened.
//!
//! Why we keep our own walk rather than `walkdir` (already a dependency,
//! and `walk_reference`'s base): walkdir with `follow_links(true)` stats
//! every entry through its whole path (`__d_lookup_rcu`/`link_path_walk`
//! were ~20% of the profile); typing entries from `readdir` and `statat`
//! on a per-directory handle took `list` on the 38k-file tldr tree from
//! 2.6x to 1.5x the time of `find` (`docs/perf.md`, "CLI"), and walkdir
//! cannot approve symlinks against the workspace root as it goes.

use std::fs::FileType;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::subject::Subject;
use super::walk_result::{
    WalkResult, WalkWarning, modified_ns, settle_runs, subject_at, subject_order,
};

/// At most this many threads list directories: the kernel's directory
/// reads stop scaling well before that.
pub(super) const MAX_THREADS: usize = 8;

/// What a listed directory holds besides subjects, in `readdir` order.
enum Item {
    Warning(WalkWarning),
    /// A directory listed (kept only when the caller wants them).
    Dir(PathBuf),
    /// A symbolic link followed (to a file or a directory).
    Link(PathBuf),
    /// The findings of this job come here.
    Child(usize),
}

/// One directory to list.
struct Job {
    id: usize,
    dir: PathBuf,
    /// The directory a walk started from (the topic directory, or a
    /// symlink to a directory): what an error that names no path is
    /// reported at, as walkdir did.
    start: Arc<Path>,
    /// Canonical directories of the walks being entered (the topic
    /// directory and each symlinked directory on the way here): a link to
    /// one of them is a loop.
    active: Arc<Vec<PathBuf>>,
    /// The first directory of a walk: it may itself be a symlink, and is
    /// listed only when it is (or leads to) a directory.
    starts_walk: bool,
}

/// What one thread found: its subjects, sorted, and each job's items.
type Found = (Vec<Subject>, Vec<(usize, Vec<Item>)>);

struct Queue {
    jobs: Vec<Job>,
    /// Jobs taken and not finished: while any runs, more may come.
    running: usize,
}

struct Walker<'a> {
    topic_dir: &'a Path,
    root: &'a Path,
    want_dirs: bool,
    /// `stat` regular files for their size and time (false: a listing,
    /// see [`Sizes::Unknown`]).
    sizes: Sizes,
    queue: Mutex<Queue>,
    ready: Condvar,
    next_id: AtomicUsize,
}

/// A walk and what it went through besides subjects.
pub(super) struct Walked {
    pub walk: WalkResult,
    /// Every directory listed, in walk order (only when asked for).
    pub dirs: Vec<PathBuf>,
    /// Every symbolic link followed, by its path, in walk order.
    pub links: Vec<PathBuf>,
}

/// Whether a walk reads the size and time of each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sizes {
    /// One `stat` per regular file (what every walk but a listing does).
    Read,
    /// None: a regular file is typed from `readdir` alone, and its
    /// subject's `bytes` and `modified` are 0, not known (see
    /// [`list_subjects`](super::listing::list_subjects)). Symbolic links
    /// are still resolved and checked as in any walk: which of them lead
    /// to a subject depends on their targets.
    Unknown,
}

/// Walks `dir` (see [`walk_subjects`](super::walk_subjects)) on up to
/// `threads` threads (0: one per core); the directories listed too when
/// `want_dirs`.
pub(super) fn walk(dir: &Path, root: &Path, want_dirs: bool, threads: usize) -> Walked {
    walk_sized(dir, root, want_dirs, threads, Sizes::Read)
}

/// [`walk`], reading files' sizes and times or not (`sizes`).
pub(super) fn walk_sized(
    dir: &Path,
    root: &Path,
    want_dirs: bool,
    threads: usize,
    sizes: Sizes,
) -> Walked {
    let top = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let walker = Walker {
        topic_dir: dir,
        root,
        want_dirs,
        sizes,
        queue: Mutex::new(Queue {
            jobs: Vec::new(),
            running: 0,
        }),
        ready: Condvar::new(),
        next_id: AtomicUsize::new(1),
    };
    let first = Job {
        id: 0,
        dir: dir.to_path_buf(),
        start: Arc::from(dir),
        active: Arc::new(vec![top]),
        starts_walk: true,
    };
    // The topic directory on this thread: a flat topic needs no helper.
    let mut found = Vec::new();
    let (items, children) = walker.run(&first, &mut found);
    let mut done = vec![(0, items)];
    let mut runs = Vec::new();
    if children.is_empty() {
        found.sort_unstable_by(subject_order);
        runs.push(found);
    } else {
        walker.lock().jobs = children;
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            n => n,
        }
        .clamp(1, MAX_THREADS);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| {
                    // No thread (resource limits): the others do the work.
                    std::thread::Builder::new()
                        .name("jp-kb-walk".into())
                        .spawn_scoped(scope, || walker.work(Vec::new()))
                        .ok()
                })
                .collect();
            let (mine, jobs) = walker.work(found);
            runs.push(mine);
            done.extend(jobs);
            for helper in helpers {
                match helper.join() {
                    Ok((theirs, jobs)) => {
                        runs.push(theirs);
                        done.extend(jobs);
                    }
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
    }
    let (subjects, collisions) = settle_runs(runs);
    let (warnings, dirs, links) = assemble(done, walker.next_id.into_inner());
    Walked {
        walk: WalkResult {
            subjects,
            collisions,
            warnings,
        },
        dirs,
        links,
    }
}

/// The warnings, directories and links of every job, in depth-first
/// order from job 0.
fn assemble(
    done: Vec<(usize, Vec<Item>)>,
    jobs: usize,
) -> (Vec<WalkWarning>, Vec<PathBuf>, Vec<PathBuf>) {
    let mut by_id: Vec<Option<Vec<Item>>> = std::iter::repeat_with(|| None).take(jobs).collect();
    for (id, items) in done {
        if let Some(slot) = by_id.get_mut(id) {
            *slot = Some(items);
        }
    }
    let (mut warnings, mut dirs, mut links) = (Vec::new(), Vec::new(), Vec::new());
    let mut stack: Vec<std::vec::IntoIter<Item>> = by_id
        .first_mut()
        .and_then(Option::take)
        .map(Vec::into_iter)
        .into_iter()
        .collect();
    while let Some(items) = stack.last_mut() {
        match items.next() {
            None => {
                stack.pop();
            }
            Some(Item::Warning(w)) => warnings.push(w),
            Some(Item::Dir(d)) => dirs.push(d),
            Some(Item::Link(l)) => links.push(l),
            Some(Item::Child(id)) => {
                if let Some(items) = by_id.get_mut(id).and_then(Option::take) {
                    stack.push(items.into_iter());
                }
            }
        }
    }
    (warnings, dirs, links)
}

impl Walker<'_> {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Jobs are pushed and popped whole: a panic leaves a valid queue.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes jobs until none is left or running; `found` holds what this
    /// thread found before.
    fn work(&self, mut found: Vec<Subject>) -> Found {
        let mut done = Vec::new();
        let mut queue = self.lock();
        loop {
            if let Some(job) = queue.jobs.pop() {
                queue.running += 1;
                drop(queue);
                let (items, children) = self.run(&job, &mut found);
                done.push((job.id, items));
                queue = self.lock();
                queue.running -= 1;
                let more = !children.is_empty();
                queue.jobs.extend(children);
                if more || queue.running == 0 {
                    // New jobs for the others, or nothing left to wait for.
                    self.ready.notify_all();
                }
            } else if queue.running == 0 {
                break;
            } else {
                queue = self
                    .ready
                    .wait(queue)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        drop(queue);
        found.sort_unstable_by(subject_order);
        (found, done)
    }

    fn child(
        &self,
        dir: PathBuf,
        start: Arc<Path>,
        active: Arc<Vec<PathBuf>>,
        starts_walk: bool,
    ) -> Job {
        Job {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            dir,
            start,
            active,
            starts_walk,
        }
    }

    /// Lists one directory: its files become subjects (in `found`), the
    /// rest items; its subdirectories (and symlinked directories) jobs.
    fn run(&self, job: &Job, found: &mut Vec<Subject>) -> (Vec<Item>, Vec<Job>) {
        let mut items = Vec::new();
        let mut children = Vec::new();
        if job.starts_walk {
            if self.want_dirs {
                items.push(Item::Dir(job.dir.clone()));
            }
            match leads_to_dir(&job.dir) {
                Ok(true) => {}
                Ok(false) => return (items, children),
                Err(err) => {
                    items.push(io_warning(job.dir.clone(), &err));
                    return (items, children);
                }
            }
        }
        let entries = match std::fs::read_dir(&job.dir) {
            Ok(entries) => entries,
            Err(err) => {
                items.push(io_warning(job.dir.clone(), &err));
                return (items, children);
            }
        };
        let mut stat = DirStat::new(&job.dir);
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    items.push(io_warning(job.start.to_path_buf(), &err));
                    continue;
                }
            };
            let path = entry.path();
            let file_type = match entry.file_type() {
                Ok(file_type) => file_type,
                Err(err) => {
                    items.push(io_warning(path, &err));
                    continue;
                }
            };
            if file_type.is_file() && self.sizes == Sizes::Unknown {
                self.push(&path, 0, 0, found, &mut items);
            } else if file_type.is_file() {
                match stat.size_of(&entry, &path) {
                    Ok((bytes, modified)) => self.push(&path, bytes, modified, found, &mut items),
                    Err(err) => items.push(io_warning(path, &err)),
                }
            } else if file_type.is_symlink() {
                self.follow_link(path, job, found, &mut items, &mut children);
            } else if file_type.is_dir() {
                if self.want_dirs {
                    items.push(Item::Dir(path.clone()));
                }
                let child =
                    self.child(path, Arc::clone(&job.start), Arc::clone(&job.active), false);
                items.push(Item::Child(child.id));
                children.push(child);
            } else {
                items.push(special(path, file_type));
            }
        }
        (items, children)
    }

    fn follow_link(
        &self,
        path: PathBuf,
        job: &Job,
        found: &mut Vec<Subject>,
        items: &mut Vec<Item>,
        children: &mut Vec<Job>,
    ) {
        let Ok(target) = path.canonicalize() else {
            items.push(Item::Warning(WalkWarning::BrokenSymlink { path }));
            return;
        };
        if !target.starts_with(self.root) {
            items.push(Item::Warning(WalkWarning::SymlinkOutside { path, target }));
            return;
        }
        let Ok(meta) = std::fs::metadata(&target) else {
            items.push(Item::Warning(WalkWarning::BrokenSymlink { path }));
            return;
        };
        if meta.is_file() {
            // A listing does not say what it did not ask for.
            let (bytes, modified) = match self.sizes {
                Sizes::Read => (meta.len(), modified_ns(&meta)),
                Sizes::Unknown => (0, 0),
            };
            self.push(&path, bytes, modified, found, items);
            items.push(Item::Link(path));
        } else if meta.is_dir() {
            let real_parent = path
                .parent()
                .and_then(|p| p.canonicalize().ok())
                .unwrap_or_default();
            let loops = real_parent.starts_with(&target)
                || job.active.iter().any(|a| a.starts_with(&target));
            if loops {
                items.push(Item::Warning(WalkWarning::Io {
                    path,
                    message: "symlink loop; not followed".to_owned(),
                }));
            } else {
                let mut active = Vec::with_capacity(job.active.len() + 1);
                active.extend(job.active.iter().cloned());
                active.push(target);
                let start = Arc::from(path.as_path());
                items.push(Item::Link(path.clone()));
                let child = self.child(path, start, Arc::new(active), true);
                items.push(Item::Child(child.id));
                children.push(child);
            }
        } else {
            items.push(special(path, meta.file_type()));
        }
    }

    fn push(
        &self,
        path: &Path,
        bytes: u64,
        modified: i64,
        found: &mut Vec<Subject>,
        items: &mut Vec<Item>,
    ) {
        match subject_at(self.topic_dir, path, bytes, modified) {
            Some(Ok(subject)) => found.push(subject),
            Some(Err(warning)) => items.push(Item::Warning(warning)),
            None => {}
        }
    }
}

/// Whether the first directory of a walk is one (walkdir's rule for its
/// root: a symlink is followed, anything else but a directory is not
/// listed).
fn leads_to_dir(dir: &Path) -> std::io::Result<bool> {
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() {
        Ok(std::fs::metadata(dir)?.is_dir())
    } else {
        Ok(meta.is_dir())
    }
}

fn io_warning(path: PathBuf, err: &std::io::Error) -> Item {
    Item::Warning(WalkWarning::Io {
        path,
        message: err.to_string(),
    })
}

fn special(path: PathBuf, file_type: FileType) -> Item {
    Item::Warning(WalkWarning::SpecialFile {
        path,
        kind: crate::content::open::kind_name(&file_type),
    })
}

/// Stats the files of one directory relative to an open handle of it,
/// instead of resolving every file's whole path again (as `find` does).
struct DirStat<'a> {
    #[cfg_attr(not(unix), allow(dead_code))]
    dir: &'a Path,
    #[cfg(unix)]
    handle: Option<rustix::fd::OwnedFd>,
}

impl<'a> DirStat<'a> {
    fn new(dir: &'a Path) -> Self {
        Self {
            dir,
            #[cfg(unix)]
            handle: None,
        }
    }

    /// Size and modification time (see [`Subject::modified`]) of the file
    /// `entry` at `path`.
    #[cfg(unix)]
    fn size_of(&mut self, _entry: &std::fs::DirEntry, path: &Path) -> std::io::Result<(u64, i64)> {
        use rustix::fs::{AtFlags, Mode, OFlags};
        let Some(name) = path.file_name() else {
            return Err(std::io::Error::other("file name missing"));
        };
        if self.handle.is_none() {
            // Opened at the first file (a directory of directories needs
            // none); a failure is the file's warning, tried again next.
            self.handle = Some(rustix::fs::open(
                self.dir,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?);
        }
        let Some(fd) = &self.handle else {
            return Err(std::io::Error::other("directory handle missing"));
        };
        let stat = rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
        Ok(stamp_of(&stat))
    }

    #[cfg(not(unix))]
    fn size_of(&mut self, entry: &std::fs::DirEntry, _path: &Path) -> std::io::Result<(u64, i64)> {
        entry.metadata().map(|m| (m.len(), modified_ns(&m)))
    }
}

/// A file's size and modification time (see [`Subject::modified`]) from
/// its `stat`: the one rule for both, for the walk and for the sizes read
/// after a listing ([`super::sizes`]).
#[cfg(unix)]
pub(super) fn stamp_of(stat: &rustix::fs::Stat) -> (u64, i64) {
    let nanos = i64::try_from(stat.st_mtime_nsec).unwrap_or(0);
    // `time_t` is 32 bits on some targets.
    #[allow(clippy::useless_conversion)]
    let modified = i64::from(stat.st_mtime)
        .saturating_mul(1_000_000_000)
        .saturating_add(nanos);
    (u64::try_from(stat.st_size).unwrap_or(0), modified)
}
