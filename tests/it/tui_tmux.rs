#![allow(clippy::expect_used, clippy::unwrap_used)]
//! End to end in a real terminal: the built binary runs inside tmux; keys
//! are sent with `send-keys`, the screen is read with `capture-pane`.
//! Checks start-up on the demo, learning a subject and seeing it in the
//! Prompt tab, suspending for `$EDITOR` and coming back, and that quitting
//! restores the terminal (same `stty` settings before and after: no raw
//! mode left behind).
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use tmux_support::{Tmux, binary, shell_quote};

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn demo_learn_prompt_and_quit_in_tmux() {
    let tmux = Tmux::start("tui");
    let before = tmux.path("before.txt");
    let after = tmux.path("after.txt");
    tmux.literal(&format!(
        "stty -g > {}; EDITOR='sed -i s/Bump/BUMPED/' {} tui --demo; stty -g > {}; echo EXIT-$?",
        shell_quote(&before),
        binary(),
        shell_quote(&after),
    ));
    tmux.send(&["Enter"]);

    // Start-up on the demo.
    // The check runs on a worker thread: its count arrives a little later.
    let screen = tmux.wait_for("the demo and its check", |s| {
        s.contains("prompt: 245 tok") && s.contains("check: 1 error, 3 warnings  ws")
    });
    assert!(screen.contains("DEMO (--demo)"), "{screen}");
    assert!(
        screen.contains("◆ project 4/2/2/1 ⚠2 General Project"),
        "{screen}"
    );
    assert!(screen.contains("◉ jean.md ← maintainers/*"), "{screen}");
    assert!(!screen.contains("<subject \"code-quality\">"));

    // Learn `code-quality`, then look at the Prompt tab.
    tmux.send(&["Tab"]);
    tmux.literal("/code");
    tmux.send(&["Enter"]);
    tmux.literal("l");
    tmux.wait_for("the edit", |s| {
        s.contains("added `code-quality` to kb.topic.project.learned")
    });
    tmux.literal("2");
    let screen = tmux.wait_for("the prompt tab", |s| {
        s.contains("<subject \"code-quality\">")
    });
    assert!(screen.contains("# Code quality"), "{screen}");
    assert!(screen.contains("● code-quality.md"), "{screen}");

    // `o` suspends the TUI for $EDITOR (here a sed script), then restores
    // it and re-reads the subject.
    // `/` reopens the filter with its text (`code`): erase it first.
    tmux.literal("1/");
    tmux.send(&["BSpace", "BSpace", "BSpace", "BSpace"]);
    tmux.literal("release");
    tmux.send(&["Enter"]);
    tmux.wait_for("the release subject", |s| {
        s.contains("1. Bump the version.")
    });
    tmux.literal("o");
    let screen = tmux.wait_for("the edited subject", |s| {
        s.contains("1. BUMPED the version.")
    });
    assert!(screen.contains("edited "), "{screen}");
    assert!(
        screen.contains("Subjects of project"),
        "TUI not restored: {screen}"
    );

    // Quit: the shell prints the exit status, and the terminal settings
    // are what they were before the TUI started.
    tmux.literal("q");
    let screen = tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    assert!(
        !screen.contains("Topics avail"),
        "alternate screen left: {screen}"
    );
    let before = std::fs::read_to_string(&before).unwrap();
    let after = std::fs::read_to_string(&after).unwrap();
    assert!(!before.trim().is_empty());
    assert_eq!(before, after, "stty settings differ after quitting");
    tmux.assert_restored("quit");
}

/// Issue 16 in a real terminal: `--read-only` (banner, every edit
/// refused, the file untouched), the filter's count and `Esc` clearing
/// it, `y` copying the slug through OSC 52 into tmux's paste buffer
/// (`set-clipboard on`: tmux takes the sequence), and a 40×12 window
/// keeping the token column.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn read_only_filter_esc_copy_and_a_small_window_in_tmux() {
    let tmux = Tmux::start("fluency");
    assert!(
        tmux.run(&["set-option", "-g", "set-clipboard", "on"])
            .status
            .success()
    );
    tmux.literal(&format!(
        "{} tui --demo --read-only; echo EXIT-$?",
        binary()
    ));
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the read-only demo", |s| {
        s.contains("prompt: 245 tok") && s.contains("READ-ONLY (--read-only)")
    });
    assert!(screen.contains("READ-ONLY"), "{screen}");

    // The filter with its count; `y` copies the selected slug.
    tmux.send(&["Tab"]);
    tmux.literal("/jean");
    tmux.send(&["Enter"]);
    tmux.wait_for("the filter count", |s| {
        s.contains("/ jean  (Esc clears)") && s.contains("1/9")
    });
    tmux.literal("y");
    tmux.wait_for("the copy", |s| s.contains("copied the slug"));
    let buffer = tmux.run(&["show-buffer"]);
    assert_eq!(String::from_utf8_lossy(&buffer.stdout), "maintainers/jean");

    // An edit is refused, naming the flag.
    tmux.literal("l");
    tmux.wait_for("the refusal", |s| {
        s.contains("read-only (--read-only): edits are refused")
    });

    // Esc clears the filter.
    tmux.send(&["Escape"]);
    tmux.wait_for("the cleared filter", |s| {
        !s.contains("/ jean") && s.contains("code-quality.md")
    });

    // 40×12: subject rows keep their token column (names are cut).
    assert!(
        tmux.run(&["resize-window", "-t", "main", "-x", "40", "-y", "12"])
            .status
            .success()
    );
    let screen = tmux.wait_for("the small window", |s| {
        s.lines().count() <= 12 && s.contains(" tok")
    });
    assert!(
        !screen.contains(" to\n") && !screen.contains(" to│"),
        "{screen}"
    );
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    tmux.assert_restored("quit");
}
