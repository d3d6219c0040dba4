//! The peak memory of the real binary, driven in tmux (issue 6).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::super::{HEIGHT, WIDTH};

/// Peak RSS (`VmHWM`) of the real binary at `root`, run in tmux: start,
/// move, learn, undo, show the Prompt tab, then quit.
pub fn peak_memory(root: &Path, run: usize) -> Option<(u64, u64)> {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("(tmux not installed: peak memory not measured)");
        return None;
    }
    let socket = format!("jp-kb-bench-{}-{run}", std::process::id());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .arg("-L")
            .arg(&socket)
            .args(args)
            .output()
            .expect("tmux")
    };
    let cmd = format!(
        "env JP_GLOBAL_CONFIG_DIR=/nonexistent JP_USER_DATA_DIR=/nonexistent '{}' --workspace '{}' tui",
        env!("CARGO_BIN_EXE_jp-kb"),
        root.display()
    );
    let w = WIDTH.to_string();
    let h = HEIGHT.to_string();
    assert!(
        tmux(&["new-session", "-d", "-s", "main", "-x", &w, "-y", &h, &cmd])
            .status
            .success()
    );
    let pid =
        String::from_utf8_lossy(&tmux(&["display", "-p", "-t", "main", "#{pane_pid}"]).stdout)
            .trim()
            .to_owned();
    let screen = || {
        String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", "main"]).stdout).into_owned()
    };
    let wait = |what: &str, ok: &dyn Fn(&str) -> bool| {
        let t = Instant::now();
        while !ok(&screen()) {
            assert!(
                t.elapsed() < Duration::from_secs(120),
                "timed out waiting for {what}: {}",
                screen()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        t.elapsed()
    };
    let first = wait("the first frame", &|s| s.contains("Subjects of bench"));
    wait("the prompt size", &|s| {
        s.contains("prompt: ") && !s.contains("prompt: …")
    });
    let keys = |k: &[&str]| {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(k);
        tmux(&args);
    };
    keys(&["Tab", "j", "j", "j", "j", "j"]);
    keys(&["2"]);
    std::thread::sleep(Duration::from_secs(2));
    // Learn the selected subject and undo: each renders the prompt again
    // (and checks again) while the last one is still held.
    // The last row is an available subject in the generated corpus.
    keys(&["1", "G", "l"]);
    std::thread::sleep(Duration::from_secs(3));
    keys(&["u"]);
    std::thread::sleep(Duration::from_secs(3));
    keys(&["1", "g", "a", "p", "i", "*", "/", "*", "*"]);
    std::thread::sleep(Duration::from_secs(2));
    keys(&["Escape"]);
    std::thread::sleep(Duration::from_secs(1));
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let (hwm, rss) = (field("VmHWM:"), field("VmRSS:"));
    keys(&["q"]);
    std::thread::sleep(Duration::from_millis(500));
    tmux(&["kill-server"]);
    println!(
        "\nreal binary in tmux ({WIDTH}x{HEIGHT}): first frame on screen after {:.0} ms (tmux polling every 100 ms)",
        first.as_secs_f64() * 1e3
    );
    Some((hwm?, rss?))
}
