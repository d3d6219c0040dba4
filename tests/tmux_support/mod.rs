//! Driving the built binary in a real terminal: a private tmux server
//! whose one pane runs `sh` (dash on Debian: it resets nothing about the
//! tty, so a terminal left broken stays broken and the tests see it).
//! Keys go in with `send-keys`, the screen comes back with
//! `capture-pane`, the pane's modes with `display-message`.
//!
//! Each test that uses it carries
//! `#[cfg_attr(lacks = "tmux", ignore = "…")]`: without tmux cargo lists it
//! as ignored with the reason, under `CI` it fails (`.ci/run` installs tmux;
//! see `tests/needs/mod.rs`).
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

pub(crate) use super::needs;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub struct Tmux {
    socket: String,
    /// The pane's working directory (and where the tests put files).
    pub dir: tempfile::TempDir,
    /// One real terminal at a time: in the one test binary, tmux tests
    /// otherwise run beside each other and beside the CPU-heavy ones, and
    /// their waits (a frame, a count, a key after Escape) time out on a
    /// two-core machine. Held until the test's `Tmux` is dropped.
    _serial: std::sync::MutexGuard<'static, ()>,
}

static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Tmux {
    /// A new server with one 120×40 pane running `sh` in a fresh temporary
    /// directory.
    pub fn start(name: &str) -> Self {
        Self::start_sized(name, 120, 40)
    }

    /// [`Tmux::start`] with a `width`×`height` pane.
    pub fn start_sized(name: &str, width: u16, height: u16) -> Self {
        needs::require(needs::Need::Tmux);
        // A test that failed while holding it leaves it poisoned: the
        // next one still runs.
        let serial = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let dir = tempfile::tempdir().unwrap();
        let tmux = Self {
            socket: format!("jp-kb-{name}-{}", std::process::id()),
            dir,
            _serial: serial,
        };
        let started = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            "-c",
            &tmux.dir.path().display().to_string(),
            "sh",
        ]);
        assert!(started.status.success(), "{started:?}");
        tmux
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    pub fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    pub fn literal(&self, text: &str) {
        assert!(
            self.run(&["send-keys", "-t", "main", "-l", text])
                .status
                .success()
        );
    }

    /// Types `line` and Enter into the pane.
    pub fn type_line(&self, line: &str) {
        self.literal(line);
        self.send(&["Enter"]);
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout)
            .into_owned()
    }

    /// A tmux format evaluated for the pane (`#{alternate_on}`…).
    pub fn format(&self, format: &str) -> String {
        let out = self.run(&["display-message", "-p", "-t", "main", format]);
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Waits until the screen satisfies `ok`; panics with the screen.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        self.wait_for_within(what, Duration::from_secs(60), ok)
    }

    pub fn wait_for_within(
        &self,
        what: &str,
        limit: Duration,
        ok: impl Fn(&str) -> bool,
    ) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < limit,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the file exists and is not empty; its text. The shell
    /// writes it only if it still reads lines (a tty left in raw mode
    /// never turns Enter into a newline, so the file never comes).
    pub fn wait_for_file(&self, path: &Path, what: &str) -> String {
        let start = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(path)
                && !text.trim().is_empty()
            {
                return text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "timed out waiting for {what} ({}); screen:\n{}",
                path.display(),
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The pane's terminal modes: alternate screen, cursor visible, any
    /// mouse reporting, as tmux tracks them.
    pub fn modes(&self) -> Modes {
        let text = self.format("#{alternate_on} #{cursor_flag} #{mouse_any_flag}");
        let flags: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(flags.len(), 3, "unexpected tmux formats: {text:?}");
        Modes {
            alternate: flags[0] == "1",
            cursor_visible: flags[1] == "1",
            mouse: flags[2] == "1",
        }
    }

    /// Asserts the shell got a usable terminal back: main screen, cursor
    /// visible, no mouse reports, and (asked of the shell itself, which
    /// can only answer if it reads lines) canonical mode with echo.
    pub fn assert_restored(&self, what: &str) {
        let modes = self.modes();
        assert_eq!(
            modes,
            Modes {
                alternate: false,
                cursor_visible: true,
                mouse: false,
            },
            "{what}: terminal not restored; screen:\n{}",
            self.screen()
        );
        let file = self.path(&format!("stty-{}.txt", what.replace(' ', "-")));
        self.type_line(&format!("stty -a > {}", shell_quote(&file)));
        let stty = self.wait_for_file(&file, &format!("{what}: the shell to run stty"));
        let words: Vec<&str> = stty
            .split(|c: char| c.is_whitespace() || c == ';')
            .collect();
        for mode in ["icanon", "echo", "isig", "icrnl", "opost"] {
            assert!(
                words.contains(&mode),
                "{what}: `{mode}` is off after exit:\n{stty}"
            );
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct Modes {
    pub alternate: bool,
    pub cursor_visible: bool,
    pub mouse: bool,
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

pub fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

/// The binary under test, quoted for the shell.
pub fn binary() -> String {
    shell_quote(Path::new(env!("CARGO_BIN_EXE_jp-kb")))
}
pub mod jp_tree;
