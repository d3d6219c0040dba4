#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The terminal is never left broken (issue 12, item 9): the real binary
//! in tmux, under `sh` (which resets nothing), is sent SIGTERM, SIGHUP,
//! SIGINT and SIGQUIT (each must restore the terminal and end with
//! 128+n), SIGTSTP and Ctrl-z (restore, stop, redraw on `fg`), and a
//! panic on a worker thread (restore once, never draw again, exit 1 with
//! the message).
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use tmux_support::{Tmux, binary, shell_quote};

/// Starts `jp-kb tui --demo` in the pane through `sh -c … exec`, so the
/// TUI's pid is written to a file first; returns it once the TUI drew.
/// `then` runs after it ends (or stops: the shell goes on then too).
fn start_demo(tmux: &Tmux, then: &str) -> String {
    let pid = tmux.path("pid");
    tmux.type_line(&format!(
        "sh -c 'echo $$ > {}; exec {} tui --demo'{then}",
        shell_quote(&pid),
        binary(),
    ));
    wait_for_tui(tmux, "the demo");
    tmux.wait_for_file(&pid, "the pid").trim().to_owned()
}

fn wait_for_tui(tmux: &Tmux, what: &str) -> String {
    let screen = tmux.wait_for(what, |s| {
        s.contains("DEMO (--demo)") && s.contains("prompt: 245 tok")
    });
    assert!(
        tmux.modes().alternate,
        "{what}: not on the alternate screen"
    );
    screen
}

/// The first word starting with `prefix` on a line the shell printed
/// (not on an echoed command: that holds `EXIT-$?` too).
///
/// Only `PREFIX` followed by digits counts: the typed command line holds
/// `PREFIX$?`, and when it wraps right after `PREFIX` (long temporary
/// paths) the line with `PREFIX` has no `$` to tell it from the output.
fn printed<'a>(screen: &'a str, prefix: &str) -> Option<&'a str> {
    screen
        .lines()
        .filter(|l| !l.contains('$'))
        .filter_map(|l| l.find(prefix).map(|at| &l[at..]))
        .filter_map(|rest| rest.split_whitespace().next())
        .find(|token| {
            let status = &token[prefix.len()..];
            !status.is_empty() && status.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Waits until the process `pid` is gone (reaped by the shell).
fn wait_gone(pid: &str, tmux: &Tmux) {
    let start = std::time::Instant::now();
    while Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "jp-kb ({pid}) did not end; screen:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until the process `pid` is stopped (state `T` in
/// `/proc/PID/stat`), so nothing typed next can reach it.
fn wait_stopped(pid: &str, tmux: &Tmux) {
    let began = std::time::Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // `PID (comm) STATE …`: the state follows the last `)`.
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        if state.starts_with('T') {
            return;
        }
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "jp-kb ({pid}) did not stop: {stat}; screen:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn kill(signal: &str, pid: &str) {
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -{signal} {pid}"))
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

fn ends_with_signal(signal: &str, number: u8) {
    let tmux = Tmux::start(&format!("sig{signal}"));
    let pid = start_demo(&tmux, "");
    kill(signal, &pid);
    wait_gone(&pid, &tmux);
    // Typed only now (a shell aborts a command list whose command died of
    // SIGINT): the shell must read it, so this also fails when the tty is
    // left in raw mode.
    tmux.type_line("echo EXIT-$?");
    let status = format!("EXIT-{}", 128 + u32::from(number));
    let screen = tmux.wait_for_within(&status, Duration::from_secs(20), |s| {
        printed(s, "EXIT-").is_some()
    });
    assert_eq!(
        printed(&screen, "EXIT-"),
        Some(status.as_str()),
        "SIG{signal}: expected {status}; screen:\n{screen}"
    );
    assert!(
        !screen.contains("DEMO (--demo)"),
        "SIG{signal}: the TUI is still on screen:\n{screen}"
    );
    tmux.assert_restored(&format!("after SIG{signal}"));
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn sigterm_restores_the_terminal_and_exits_143() {
    ends_with_signal("TERM", 15);
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn sighup_restores_the_terminal_and_exits_129() {
    ends_with_signal("HUP", 1);
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn sigint_restores_the_terminal_and_exits_130() {
    ends_with_signal("INT", 2);
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn sigquit_restores_the_terminal_and_exits_131() {
    ends_with_signal("QUIT", 3);
}

/// Stopped: the shell has its terminal back; `fg`: the whole screen is
/// drawn again (not just what changed), then quitting is clean.
fn stop_and_resume(tmux: &Tmux, pid: &str, what: &str, stop: impl Fn()) {
    stop();
    wait_stopped(pid, tmux);
    let screen = tmux.wait_for(&format!("{what}: the shell's job message"), |s| {
        s.contains("Stopped")
    });
    assert!(
        !screen.contains("Terminated") && !screen.contains("Done"),
        "{what}: the TUI ended:\n{screen}"
    );
    tmux.assert_restored(what);
    tmux.type_line("fg");
    let screen = wait_for_tui(tmux, &format!("{what}: the TUI after fg"));
    // Drawn in full: the panes' frames and the status line, not only the
    // cells that differ from the last frame before the stop.
    assert!(screen.contains("Subjects of project"), "{screen}");
    assert!(screen.contains("check: 1 error, 3 warnings"), "{screen}");
    let modes = tmux.modes();
    assert!(modes.mouse && !modes.cursor_visible, "{what}: {modes:?}");
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn sigtstp_and_ctrl_z_stop_restored_and_fg_redraws() {
    let tmux = Tmux::start("tstp");
    let before = tmux.path("before.txt");
    tmux.type_line(&format!("stty -g > {}", shell_quote(&before)));
    tmux.wait_for_file(&before, "stty before");
    let pid = start_demo(&tmux, "");
    stop_and_resume(&tmux, &pid, "SIGTSTP", || kill("TSTP", &pid));
    stop_and_resume(&tmux, &pid, "Ctrl-z", || tmux.send(&["C-z"]));
    // Still working after both: a key is answered, `q` quits cleanly.
    tmux.literal("q");
    tmux.wait_for("the shell after quitting", |s| !s.contains("DEMO (--demo)"));
    tmux.type_line("echo QUIT-$?");
    let screen = tmux.wait_for("the exit status", |s| printed(s, "QUIT-").is_some());
    assert_eq!(printed(&screen, "QUIT-"), Some("QUIT-0"), "{screen}");
    tmux.assert_restored("quit after fg");
    let after = tmux.path("after.txt");
    tmux.type_line(&format!("stty -g > {}", shell_quote(&after)));
    assert_eq!(
        tmux.wait_for_file(&after, "stty after"),
        std::fs::read_to_string(&before).unwrap()
    );
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn a_worker_panic_restores_once_and_exits_1_with_the_message() {
    let tmux = Tmux::start("panic");
    let err = tmux.path("stderr.txt");
    // The debug build's fault injector panics a worker thread after the
    // first frames (see `tui::lifecycle`).
    tmux.type_line(&format!(
        "JP_KB_TEST_WORKER_PANIC=1500 {} tui --demo 2> {}; echo EXIT-$?",
        binary(),
        shell_quote(&err),
    ));
    let screen = tmux.wait_for("the exit", |s| printed(s, "EXIT-").is_some());
    assert_eq!(printed(&screen, "EXIT-"), Some("EXIT-1"), "{screen}");
    // Nothing drawn over the restored terminal: the main screen holds the
    // shell's lines only.
    assert!(
        !screen.contains("DEMO (--demo)") && !screen.contains("Subjects of"),
        "the TUI drew after the restore:\n{screen}"
    );
    let stderr = std::fs::read_to_string(Path::new(&err)).unwrap();
    assert!(
        stderr.contains("thread 'jp-kb-test-panic' panicked"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: the TUI stopped: thread 'jp-kb-test-panic' panicked: injected"),
        "{stderr}"
    );
    tmux.assert_restored("after a worker panic");
}
