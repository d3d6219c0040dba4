//! Timing whole processes, shared by the benchmark binaries (each
//! includes this file with `#[path]`; not every one uses every function).
#![allow(dead_code)]

use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long `cmd` takes, its output thrown away; it must succeed.
pub fn time(cmd: &mut Command) -> Duration {
    time_accepting(cmd, ExitStatus::success)
}

/// [`time`] for a command whose exit `accept` judges (grep exits 1 when
/// nothing matches).
pub fn time_accepting(cmd: &mut Command, accept: impl Fn(&ExitStatus) -> bool) -> Duration {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("command starts");
    let elapsed = start.elapsed();
    assert!(
        accept(&status),
        "{} failed: {status}",
        cmd.get_program().to_string_lossy()
    );
    elapsed
}

/// The median of `runs` (the upper one of an even count).
pub fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

/// Milliseconds with one decimal, for a row.
pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}
