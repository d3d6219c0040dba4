#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Real JP and the TUI in a real terminal (issue 36, "a continued
//! conversation after a change is said"): JP runs a conversation in a
//! checkout, the person then changes the section in the TUI; the TUI says
//! after the edit that the conversation JP continues keeps the section it
//! began with, and its JP view says so too, with what to do.
//!
//! Needs real JP (`bash tests/jp/setup.sh`) and tmux (`.ci/run` sets up
//! both): ignored without them, failed under `CI`.

use std::path::Path;

use super::jp_support::Machine;
use super::tmux_support::{Tmux, binary, shell_quote};

/// What the TUI says of the conversation (`older_line`).
const KEEPS: &str = "keeps the <knowledge> section it began with";

/// The shell line that runs `jp-kb tui` in `dir` with the machine's
/// environment (JP's directories, `PATH`), then prints `EXIT-<status>`.
fn tui_line(machine: &Machine, dir: &Path) -> String {
    let vars: Vec<String> = machine
        .vars()
        .into_iter()
        .map(|(key, value)| {
            let value = value.into_string().unwrap();
            format!("{key}={}", shell_quote(Path::new(&value)))
        })
        .collect();
    format!(
        "cd {} && env -i TERM=\"$TERM\" {} {} tui; echo EXIT-$?",
        shell_quote(dir),
        vars.join(" "),
        binary()
    )
}

/// The screen's text with every run of spaces and box-drawing borders
/// collapsed to one space, so a line wrapped in a pane reads as one.
fn flat(screen: &str) -> String {
    screen
        .split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
#[cfg_attr(
    all(not(lacks = "jp"), lacks = "tmux"),
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn a_tui_edit_says_the_conversation_jp_continues_keeps_its_section() {
    let machine = Machine::new();
    let dir = machine.path().join("work/project");
    // JP has run one conversation here, with the current section.
    machine.repository(&dir);
    let check = machine.jp_kb(&dir, &["check", "--client", "jp"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(!report.contains("KB125"), "nothing older yet:\n{report}");

    let tmux = Tmux::start_sized("jp-conversation", 160, 45);
    tmux.type_line(&tui_line(&machine, &dir));
    tmux.wait_for("the project topic", |s| s.contains("Subjects of project"));
    // Pre-load `maintainers` too: the section changes.
    tmux.send(&["Tab"]);
    tmux.literal("/maintainers");
    tmux.send(&["Enter"]);
    tmux.literal("l");
    tmux.wait_for("the edit", |s| s.contains("added"));
    // The whole status message, in the message log.
    tmux.literal("M");
    let log = tmux.wait_for("the note in the message log", |s| flat(s).contains(KEEPS));
    let log = flat(&log);
    assert!(
        log.contains("JP's conversation") && log.contains("jp query --new"),
        "{log}"
    );
    tmux.send(&["Escape"]);

    // The Prompt tab as JP (`c` cycles RFD → JP → …): the view says it
    // too, with the finding's fix.
    tmux.literal("2");
    tmux.literal("c");
    let view = flat(&tmux.wait_for("the JP view's note", |s| {
        flat(s).contains("start a new JP conversation after a change")
    }));
    // (Flattened beside the subjects pane, the note's rows interleave
    // with its rows: each phrase is within one row.)
    assert!(
        view.contains("warning: JP's conversation")
            && view.contains("keeps the <knowledge> section"),
        "{view}"
    );

    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    // `check --client jp` agrees.
    let check = machine.jp_kb(&dir, &["check", "--client", "jp"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(report.contains("KB125"), "{report}");
}
