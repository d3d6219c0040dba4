#![allow(clippy::expect_used, clippy::unwrap_used)]
//! End to end in a real terminal: the built binary runs inside tmux; keys
//! are sent with `send-keys`, the screen is read with `capture-pane`.
//! Checks start-up on the demo, learning a subject and seeing it in the
//! Prompt tab, suspending for `$EDITOR` and coming back, and that quitting
//! restores the terminal (same `stty` settings before and after: no raw
//! mode left behind).
//!
//! Skipped, with a message, only when tmux is not installed (`.ci/run`
//! installs it).

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    fn literal(&self, text: &str) {
        assert!(
            self.run(&["send-keys", "-t", "main", "-l", text])
                .status
                .success()
        );
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout)
            .into_owned()
    }

    /// Waits until the screen satisfies `ok`; panics with the screen.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

fn tmux_installed() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

#[test]
fn demo_learn_prompt_and_quit_in_tmux() {
    if !tmux_installed() {
        eprintln!("SKIPPED tui_tmux: tmux is not installed (.ci/run installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let before = dir.path().join("before.txt");
    let after = dir.path().join("after.txt");
    let tmux = Tmux {
        socket: format!("jp-kb-test-{}", std::process::id()),
    };
    let started = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "main",
        "-x",
        "120",
        "-y",
        "40",
        "-c",
        &dir.path().display().to_string(),
        "sh",
    ]);
    assert!(started.status.success(), "{started:?}");
    let bin = Path::new(env!("CARGO_BIN_EXE_jp-kb"));
    tmux.literal(&format!(
        "stty -g > {}; EDITOR='sed -i s/Bump/BUMPED/' {} tui --demo; stty -g > {}; echo EXIT-$?",
        shell_quote(&before),
        shell_quote(bin),
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
}
