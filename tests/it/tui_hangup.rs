#![allow(clippy::expect_used, clippy::unwrap_used)]
//! A terminal that goes away (an SSH session dropped, a tmux pane or
//! server killed) ends `jp-kb tui`: SIGHUP restores what it can and the
//! process exits. Before, restoring printed its failure to the hung-up
//! terminal, that print panicked, the panic hook waited for a lock its own
//! thread held, and the process stayed forever with its input thread
//! spinning on end-of-file (18 such processes were found on this machine,
//! ~10% CPU each).
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use std::time::{Duration, Instant};

use tmux_support::Tmux;
use tmux_support::jp_tree::{jp_workspace, tui_command};

fn alive(pid: u32) -> bool {
    // A zombie has exited: only its parent has not reaped it yet.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit(") ")
            .next()
            .is_some_and(|rest| !rest.starts_with('Z'))
    })
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn a_hung_up_terminal_ends_the_tui() {
    let tmux = Tmux::start("hangup");
    let root = jp_workspace(&tmux);
    let pid_file = tmux.path("tui.pid");
    // `exec` keeps the pid: the shell's child is the TUI itself.
    let command = tui_command(&root, "tui").replacen(
        "&& JP_GLOBAL",
        &format!(
            "&& echo $$ > {} && exec env JP_GLOBAL",
            tmux_support::shell_quote(&pid_file)
        ),
        1,
    );
    tmux.type_line(&format!("sh -c {}", shell_word(&command)));
    tmux.wait_for("the TUI", |s| s.contains("Subjects of docs"));
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(alive(pid));
    // The pane's terminal goes away.
    assert!(tmux.run(&["kill-server"]).status.success());
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let still = alive(pid);
    if still {
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
    }
    assert!(
        !still,
        "jp-kb tui (pid {pid}) still runs 10 s after its terminal hung up"
    );
}

/// `text` as one single-quoted shell word.
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}
