#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 37 item 5: the capture of the demo in the README is the first
//! screen `jp-kb tui --demo` draws (at 110×30, once its counts and check
//! are in), not a later one. The README is read for the block after the
//! line naming `tmux capture-pane` (in `docs/` too, should it move).
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use std::path::Path;

use super::tmux_support;

use tmux_support::Tmux;
use tmux_support::jp_tree::tui_command;

/// The `text` code block after the line saying it was captured with tmux.
fn documented_capture() -> (String, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    if let Ok(dir) = std::fs::read_dir(root.join("docs")) {
        files.extend(dir.flatten().map(|e| e.path()));
    }
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Some(at) = text.find("captured with `tmux capture-pane`, 110×30") else {
            continue;
        };
        let start = text[at..].find("```text\n").unwrap() + at + "```text\n".len();
        let end = text[start..].find("```\n").unwrap() + start;
        let lines = text[start..end].lines().map(str::to_owned).collect();
        return (file.display().to_string(), lines);
    }
    panic!("no capture of the demo in README.md or docs/");
}

/// The temporary directory's random name as the README writes it.
fn normalized(line: &str) -> String {
    let mut line = line.trim_end().to_owned();
    if let Some(at) = line.find("jp-kb-demo-") {
        let from = at + "jp-kb-demo-".len();
        let to = line[from..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .map_or(line.len(), |n| from + n);
        line.replace_range(from..to, "XXXXXX");
    }
    line
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn the_documented_capture_is_the_demos_first_screen() {
    let (file, documented) = documented_capture();
    let tmux = Tmux::start_sized("capture", 110, 30);
    let empty = tmux.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    tmux.type_line(&tui_command(&empty, "tui --demo"));
    // Settled: every row's count, the section's and the check's totals
    // drawn (the section's count arrives from its worker last on a busy
    // machine: "prompt: … tok" before).
    let screen = tmux.wait_for("the demo's counts and check", |s| {
        s.contains("check: ")
            && s.contains("140 tok")
            && s.contains("18 tok")
            && !s.contains("prompt: …")
    });
    let drawn: Vec<String> = screen.lines().map(normalized).collect();
    let documented: Vec<String> = documented.iter().map(|l| normalized(l)).collect();
    assert_eq!(
        drawn.join("\n").trim_end(),
        documented.join("\n").trim_end(),
        "{file}'s capture is not the first screen"
    );
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
