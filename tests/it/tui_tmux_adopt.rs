#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 41 item 3 in a real terminal: `jp-kb tui` where there is no JP
//! workspace but files other assistants read (the fixture repository with
//! every kind, `tests/adopt/repo`) opens on the first-run screen with the
//! plan `jp-kb init` would carry out. Enter writes exactly what `init`
//! writes (`.jp/` byte for byte, nothing outside it) and opens the
//! curator on the new workspace; Esc writes nothing and opens the demo;
//! `q` writes nothing and leaves. Hostile names are shown escaped.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

#![cfg(unix)]

use super::adopt::tree;
use super::common;
use super::tmux_support;

use std::path::{Path, PathBuf};

use tmux_support::{Tmux, binary, shell_quote};

/// The fixture copied into the pane's directory, as `ws/`.
fn repository(tmux: &Tmux) -> PathBuf {
    let ws = tmux.path("ws");
    common::copy_tree(&common::fixtures().join("adopt/repo"), &ws);
    ws
}

/// Runs `jp-kb tui` in `ws` with no user or global configuration.
fn start_tui(tmux: &Tmux, ws: &Path) {
    start_tui_with(tmux, ws, "");
}

/// … with `vars` (`NAME=value …`) set too.
fn start_tui_with(tmux: &Tmux, ws: &Path, vars: &str) {
    let home = shell_quote(&tmux.path("home"));
    tmux.type_line(&format!(
        "cd {} && HOME={home} XDG_CONFIG_HOME={home}/xdg JP_GLOBAL_CONFIG_DIR={home}/global \
         JP_USER_DATA_DIR={home}/data {vars} {} tui; echo EXIT-$?",
        shell_quote(ws),
        binary()
    ));
}

/// `.jp/` of `ws`: each entry by path relative to `ws`, with its bytes
/// or its link's target (no times: another run's files are compared).
fn jp_bytes(ws: &Path) -> Vec<(String, String)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(ws.join(".jp"))
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            let rel = e.path().strip_prefix(ws).unwrap().display().to_string();
            let t = e.file_type();
            let what = if t.is_symlink() {
                format!("link {}", std::fs::read_link(e.path()).unwrap().display())
            } else if t.is_file() {
                String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned()
            } else {
                "dir".into()
            };
            (rel, what)
        })
        .collect();
    out.sort();
    out
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn tui_adopt_first_run_screen_enter_writes_what_init_writes() {
    let tmux = Tmux::start("adopt-accept");
    let ws = repository(&tmux);
    let before = tree(&ws);
    start_tui(&tmux, &ws);
    let screen = tmux.wait_for("the first-run screen", |s| {
        s.contains("adopt what other assistants read here?")
    });
    assert!(screen.contains("20 files found"), "{screen}");
    assert!(screen.contains("CLAUDE.md"), "{screen}");
    assert!(
        screen.contains(".claude/skills/deploy/SKILL.md"),
        "{screen}"
    );
    assert!(screen.contains("Enter adopt"), "{screen}");
    assert!(!ws.join(".jp").exists(), "written before Enter");

    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the curator on the adopted workspace", |s| {
        s.contains("adopted 20 files in place")
    });
    assert!(!screen.contains("DEMO"), "{screen}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    tmux.assert_restored("quit after adopting");

    // Exactly what `jp-kb init` writes on the same repository.
    let sb = common::Sandbox::with_fixture(&common::fixtures().join("adopt/repo"));
    let out = sb.cmd().arg("init").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(jp_bytes(&ws), jp_bytes(&sb.ws()));
    assert!(ws.join(".jp/kb.toml").is_file());
    assert_eq!(tree(&ws), before, "a file outside .jp/ changed");
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn with_a_jp_that_has_the_knowledge_base_inside_the_tables_go_where_it_reads_them() {
    let tmux = Tmux::start("adopt-inside");
    let ws = repository(&tmux);
    let before = tree(&ws);
    start_tui_with(&tmux, &ws, "JP_KB_JP=inside");
    tmux.wait_for("the first-run screen", |s| {
        s.contains("adopt what other assistants read here?")
    });
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the curator on the adopted workspace", |s| {
        s.contains("adopted 20 files in place")
    });
    assert!(screen.contains("moved into .jp/config.toml"), "{screen}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));

    // What `jp-kb init` writes for that JP, byte for byte.
    let sb = common::Sandbox::with_fixture(&common::fixtures().join("adopt/repo"));
    let out = sb
        .cmd()
        .env("JP_KB_JP", "inside")
        .arg("init")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(jp_bytes(&ws), jp_bytes(&sb.ws()));
    assert!(!ws.join(".jp/kb.toml").exists());
    let config = std::fs::read_to_string(ws.join(".jp/config.toml")).unwrap();
    assert!(config.contains("[kb.topic."), "{config}");
    assert_eq!(tree(&ws), before, "a file outside .jp/ changed");
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn tui_adopt_first_run_screen_esc_and_q_write_nothing() {
    let tmux = Tmux::start("adopt-decline");
    let ws = repository(&tmux);
    // A hostile name: shown escaped, never acted on by the terminal.
    std::fs::write(ws.join(".claude/rules/\x1b[2Jred.md"), "Red.\n").unwrap();
    let before = tree(&ws);

    // Esc: the demo, as without the screen.
    start_tui(&tmux, &ws);
    let screen = tmux.wait_for("the first-run screen", |s| {
        s.contains("adopt what other assistants read here?")
    });
    assert!(screen.contains("claude/rules/^[[2Jred.md"), "{screen}");
    tmux.send(&["Escape"]);
    tmux.wait_for("the demo", |s| s.contains("DEMO"));
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    tmux.assert_restored("quit the demo");
    assert!(!ws.join(".jp").exists(), "Esc wrote .jp/");
    assert_eq!(tree(&ws), before);

    // q: leaves at once.
    tmux.type_line("clear");
    start_tui(&tmux, &ws);
    tmux.wait_for("the first-run screen again", |s| {
        s.contains("adopt what other assistants read here?")
    });
    tmux.literal("q");
    let screen = tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
    assert!(!screen.contains("DEMO"), "{screen}");
    tmux.assert_restored("quit the first-run screen");
    assert!(!ws.join(".jp").exists(), "q wrote .jp/");
    assert_eq!(tree(&ws), before);
}
