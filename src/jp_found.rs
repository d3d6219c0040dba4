//! Which JP this machine runs (`docs/jp-inside.md`, "jp-kb and that JP"):
//! the `jp` on `PATH`, asked for its `query` flags. One that has
//! `--knowledge` has the knowledge base inside (`integrations/jp`): it reads
//! `kb` from its own files, builds the section at each query and has
//! `learn` built in. `JP_KB_JP=inside` or `beside` says it without asking
//! (a `jp` elsewhere than on `PATH`, a script that must not start one).
//!
//! Asking is the one way that holds for every build of JP: its version
//! says nothing about a patch series, and the flag is what the person
//! types. Only absolute `PATH` entries are searched: a relative one would
//! run a `jp` the repository being curated ships.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use jp_kb_core::JpKind;

/// The variable that says which JP without asking.
pub const VARIABLE: &str = "JP_KB_JP";

/// How long `jp query --help` may take: a JP that does not answer by then
/// is taken for today's (it answers in milliseconds).
const PATIENCE: Duration = Duration::from_secs(2);

/// More help text than any JP prints: the rest is not read.
const MAX_HELP: u64 = 1 << 20;

/// Which JP the person runs: [`VARIABLE`] when it says, else the `jp` on
/// `PATH` asked; [`JpKind::Beside`] when there is none or it does not
/// answer in time.
pub fn jp_kind() -> JpKind {
    match std::env::var(VARIABLE).as_deref() {
        Ok("inside") => return JpKind::Inside,
        Ok("beside") => return JpKind::Beside,
        _ => {}
    }
    on_path(std::env::var_os("PATH").as_deref()).map_or(JpKind::Beside, |jp| ask(&jp, PATIENCE))
}

/// The first executable `jp` in an absolute directory of `path`.
pub fn on_path(path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join("jp"))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        {
            m.is_file()
        }
    })
}

/// Runs `jp query --help` and reads whether it offers `--knowledge`, within
/// `patience`; a JP still running then is killed.
pub fn ask(jp: &Path, patience: Duration) -> JpKind {
    let mut command = Command::new(jp);
    command
        .args(["query", "--help"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // A group of its own: what it starts is stopped with it.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let Ok(mut child) = command.spawn() else {
        return JpKind::Beside;
    };
    let Some(stdout) = child.stdout.take() else {
        stop(&mut child);
        return JpKind::Beside;
    };
    // Read on a thread: a JP that holds its output open past `patience`
    // must not hold this process.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut help = Vec::new();
        let read = stdout.take(MAX_HELP).read_to_end(&mut help);
        let _ = tx.send(read.map(|_| help));
    });
    let deadline = Instant::now() + patience;
    let help = rx.recv_timeout(patience).ok().and_then(Result::ok);
    // The output is read; the process must end by the deadline too.
    let exited = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            _ => break None,
        }
    };
    let Some(status) = exited else {
        stop(&mut child);
        return JpKind::Beside;
    };
    match help {
        Some(help) if status.success() && offers_knowledge(&help) => JpKind::Inside,
        _ => JpKind::Beside,
    }
}

/// Kills `child`'s process group (it and whatever it started) and reaps it.
fn stop(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Some(group) = rustix::process::Pid::from_raw(child.id().cast_signed()) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Whether `query --help` lists a `--knowledge` option (a word of its
/// own, not a longer flag's prefix).
fn offers_knowledge(help: &[u8]) -> bool {
    String::from_utf8_lossy(help)
        .split_whitespace()
        .any(|word| {
            word.trim_end_matches([',', '=', '<', '>'])
                .split(['=', '<'])
                .next()
                == Some("--knowledge")
        })
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    #[test]
    fn only_the_flag_itself_counts() {
        assert!(offers_knowledge(
            b"  -c, --compact\n      --knowledge <TOPIC/GLOB>\n"
        ));
        assert!(offers_knowledge(
            b"      --knowledge=<TOPIC/GLOB>  Pre-load"
        ));
        assert!(!offers_knowledge(b"      --knowledge-base <X>\n"));
        assert!(!offers_knowledge(b"  the knowledge base\n"));
    }

    #[test]
    fn relative_path_entries_are_never_searched() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let jp = dir.path().join("jp");
        std::fs::write(&jp, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&jp, std::fs::Permissions::from_mode(0o755)).unwrap();
        // The same directory, relative to any current directory.
        let relative = Path::new(&"../".repeat(64)).join(dir.path().strip_prefix("/").unwrap());
        assert!(is_executable(&relative.join("jp")), "the entry reaches it");
        let entries = std::env::join_paths([&relative]).unwrap();
        assert_eq!(on_path(Some(&entries)), None);
        let entries = std::env::join_paths([&relative, dir.path()]).unwrap();
        assert_eq!(on_path(Some(&entries)), Some(jp));
    }

    /// An executable `jp` script in a fresh directory.
    fn fake_jp(script: &str) -> (tempfile::TempDir, PathBuf) {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let jp = dir.path().join("jp");
        std::fs::write(&jp, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&jp, std::fs::Permissions::from_mode(0o755)).unwrap();
        (dir, jp)
    }

    #[test]
    fn the_answer_is_the_flag_in_query_help() {
        let patience = Duration::from_secs(20);
        let (_d, inside) = fake_jp(
            r#"[ "$1 $2" = "query --help" ] && printf '  -c, --compact\n      --knowledge <TOPIC/GLOB>\n'"#,
        );
        assert_eq!(ask(&inside, patience), JpKind::Inside);
        let (_d, today) = fake_jp("printf '  -c, --compact\\n'");
        assert_eq!(ask(&today, patience), JpKind::Beside);
        let (_d, failing) = fake_jp("echo '--knowledge'; exit 3");
        assert_eq!(
            ask(&failing, patience),
            JpKind::Beside,
            "help, then a failure"
        );
        let (_d, silent) = fake_jp("exit 0");
        assert_eq!(ask(&silent, patience), JpKind::Beside);
    }

    #[test]
    fn a_jp_that_hangs_is_stopped_with_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let (_d, hanging) = fake_jp(&format!(
            "sleep 600 &\necho $! > '{}'\necho --knowledge\nwait",
            pid_file.display()
        ));
        assert_eq!(ask(&hanging, Duration::from_millis(500)), JpKind::Beside);
        let pid: i32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let pid = rustix::process::Pid::from_raw(pid).unwrap();
        // Killed at once; reaped by whoever inherited it, soon after.
        let gone = (0..200).any(|_| {
            let alive = rustix::process::test_kill_process(pid).is_ok()
                && !std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero()))
                    .is_ok_and(|s| s.contains(") Z "));
            if alive {
                std::thread::sleep(Duration::from_millis(10));
            }
            !alive
        });
        assert!(gone, "the `sleep` it started still runs");
    }
}
