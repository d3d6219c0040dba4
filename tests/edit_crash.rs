//! Crash safety of `save`: a child process saves edits in a tight loop and
//! is killed (SIGKILL) at a random moment, over and over; after every kill
//! the file must parse and hold exactly the old or the new content, and no
//! temporary copy of a 0600 file may ever be readable by anyone else or
//! outlive the next write (issue 12, item 6).
//!
//! The child is this same test binary, re-run with the environment
//! variable `JP_KB_EDIT_CRASH_CHILD` naming the file. So that the child is
//! not itself counted as a (passing) test, this target has no libtest
//! harness (`harness = false` in Cargo.toml): `main` runs the child when
//! the variable is set and the two tests otherwise, taking libtest's name
//! filters and `--list` so `cargo test edit_crash -- killed` and nextest
//! work as usual.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use jp_kb_core::edit::Edit;

use jp_kb_core::internal::edit::{apply_edit as apply, save};

const CHILD_ENV: &str = "JP_KB_EDIT_CRASH_CHILD";
const KILLS: usize = 220;

const BASE: &str = "# crash test\n[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\n  \"intro\", # first\n  \"style\",\n]\n\n[other]\nx = 1\n";

fn toggle(text: &str) -> Edit {
    let patterns = vec!["crash/**".to_owned()];
    if text.contains("crash/**") {
        Edit::RemoveLearned {
            topic: "project".into(),
            patterns,
        }
    } else {
        Edit::AddLearned {
            topic: "project".into(),
            patterns,
        }
    }
}

/// The child: signals readiness, then toggles a pattern forever.
fn crash_child(path: &Path) -> ! {
    let ready = path.with_extension("ready");
    fs::write(&ready, b"").unwrap();
    loop {
        let text = fs::read_to_string(path).unwrap();
        save(&tmp_bounds(), path, &toggle(&text)).unwrap();
    }
}

const TESTS: [(&str, fn()); 2] = [
    (
        "killed_mid_save_leaves_old_or_new_content",
        killed_mid_save_leaves_old_or_new_content,
    ),
    (
        "killed_writers_never_expose_a_private_file",
        killed_writers_never_expose_a_private_file,
    ),
];

fn main() {
    if let Some(path) = std::env::var_os(CHILD_ENV) {
        crash_child(Path::new(&path));
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let exact = flag("--exact");
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let selected: Vec<_> = TESTS
        .iter()
        .filter(|(name, _)| {
            filters.is_empty()
                || filters.iter().any(|f| {
                    if exact {
                        name == f
                    } else {
                        name.contains(f.as_str())
                    }
                })
        })
        .collect();
    if flag("--list") {
        // None of these is ignored: `--list --ignored` lists nothing.
        if !flag("--ignored") {
            for (name, _) in &selected {
                println!("{name}: test");
            }
        }
        return;
    }
    if flag("--ignored") {
        println!("\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed\n");
        return;
    }
    println!("\nrunning {} tests", selected.len());
    let mut failed = Vec::new();
    for (name, test) in &selected {
        let outcome = std::panic::catch_unwind(test);
        println!(
            "test {name} ... {}",
            if outcome.is_ok() { "ok" } else { "FAILED" }
        );
        if outcome.is_err() {
            failed.push(*name);
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        selected.len() - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        eprintln!("failures: {failed:?}");
        std::process::exit(101);
    }
}

/// A small deterministic generator for kill delays.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "child never became ready"
        );
        std::thread::sleep(Duration::from_micros(200));
    }
}

fn killed_mid_save_leaves_old_or_new_content() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join("config.toml");
    let ready = path.with_extension("ready");
    let old = BASE.to_owned();
    let new = apply(&old, &toggle(&old)).unwrap().text;
    assert_ne!(old, new);
    fs::write(&path, &old).unwrap();
    // Kill within about three saves' time, so that kills land before,
    // during and after saves whatever the disk's speed.
    let start = Instant::now();
    for _ in 0..6 {
        let text = fs::read_to_string(&path).unwrap();
        save(&tmp_bounds(), &path, &toggle(&text)).unwrap();
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), old);
    let window = u64::try_from((start.elapsed() / 2).as_micros())
        .unwrap()
        .max(2000);
    let exe = std::env::current_exe().unwrap();
    let mut rng = Lcg(0x5eed);
    let (mut saw_old, mut saw_new, mut leftovers) = (0, 0, 0);
    for round in 0..KILLS {
        let _ = fs::remove_file(&ready);
        let mut child = Command::new(&exe)
            .env(CHILD_ENV, &path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for(&ready);
        std::thread::sleep(Duration::from_micros(rng.next() % window));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        // Killed by us, not stopped by a failure of its own.
        assert_eq!(
            status.signal(),
            Some(9),
            "round {round}: child ended with {status}"
        );
        let bytes = fs::read(&path).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            toml_edit::Document::parse(text.as_str()).is_ok(),
            "round {round}: file does not parse:\n{text}"
        );
        if text == old {
            saw_old += 1;
        } else if text == new {
            saw_new += 1;
        } else {
            panic!("round {round}: file is neither old nor new:\n{text}");
        }
        for e in fs::read_dir(dir.path()).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".jp-kb.tmp") {
                leftovers += 1;
                fs::remove_file(dir.path().join(name)).unwrap();
            }
        }
    }
    eprintln!(
        "{KILLS} kills within {window} µs: old {saw_old}, new {saw_new}, killed with a temporary file in place {leftovers}"
    );
    assert!(
        saw_old > 0 && saw_new > 0,
        "the child never got to save: old {saw_old}, new {saw_new}"
    );
}

const PRIVATE_KILLS: usize = 200;

/// Temporary files in `dir` whose mode lets anyone but the owner in:
/// `(name, mode)`.
fn temp_files(dir: &Path) -> Vec<(String, u32)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            // Gone between listing and stat: renamed into place or removed.
            let mode = e.metadata().ok()?.permissions().mode() & 0o7777;
            name.ends_with(".jp-kb.tmp").then_some((name, mode))
        })
        .collect()
}

fn killed_writers_never_expose_a_private_file() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join("config.toml");
    let ready = path.with_extension("ready");
    fs::write(&path, BASE).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    let start = Instant::now();
    for _ in 0..6 {
        let text = fs::read_to_string(&path).unwrap();
        save(&tmp_bounds(), &path, &toggle(&text)).unwrap();
    }
    let window = u64::try_from((start.elapsed() / 2).as_micros())
        .unwrap()
        .max(2000);
    // Watches the directory the whole time for a temporary file wider
    // than 0600.
    let stop = Arc::new(AtomicBool::new(false));
    let (seen, exposed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let watcher = {
        let (dir, stop) = (dir.path().to_path_buf(), Arc::clone(&stop));
        let (seen, exposed) = (Arc::clone(&seen), Arc::clone(&exposed));
        std::thread::spawn(move || {
            let mut wide = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                for (name, mode) in temp_files(&dir) {
                    seen.fetch_add(1, Ordering::Relaxed);
                    if mode & 0o077 != 0 {
                        exposed.fetch_add(1, Ordering::Relaxed);
                        wide.push(format!("{name} {mode:o}"));
                    }
                }
            }
            wide
        })
    };
    let exe = std::env::current_exe().unwrap();
    let mut rng = Lcg(0x0600);
    let mut leftovers = 0;
    for round in 0..PRIVATE_KILLS {
        let _ = fs::remove_file(&ready);
        let mut child = Command::new(&exe)
            .env(CHILD_ENV, &path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for(&ready);
        std::thread::sleep(Duration::from_micros(rng.next() % window));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert_eq!(
            status.signal(),
            Some(9),
            "round {round}: child ended with {status}"
        );
        let left = temp_files(dir.path());
        for (name, mode) in &left {
            assert_eq!(
                mode & 0o077,
                0,
                "round {round}: {name} left with mode {mode:o}"
            );
        }
        leftovers += left.len();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o600,
            "round {round}: the file's mode became {mode:o}"
        );
    }
    stop.store(true, Ordering::Relaxed);
    let wide = watcher.join().unwrap();
    eprintln!(
        "{PRIVATE_KILLS} kills within {window} µs: temporary files seen {} times by the watcher, {} of them wider than 0600; {leftovers} found right after a kill",
        seen.load(Ordering::Relaxed),
        exposed.load(Ordering::Relaxed)
    );
    assert!(
        wide.is_empty(),
        "temporary files readable by others: {wide:?}"
    );
    // The next edit removes whatever the killed writers left.
    let text = fs::read_to_string(&path).unwrap();
    save(&tmp_bounds(), &path, &toggle(&text)).unwrap();
    assert_eq!(temp_files(dir.path()), Vec::new());
    assert!(leftovers > 0, "no kill ever landed during a write");
}

/// Every test file lives under the system's temporary directory: writes
/// are bounded to it.
fn tmp_bounds() -> jp_kb_core::edit::Boundaries {
    jp_kb_core::edit::Boundaries::new([
        std::env::temp_dir(),
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
    ])
}
