#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 16 items 5 and 4 in a real terminal, on a workspace built from
//! JP's real configuration plus a jp-kb topic: acting on findings (the
//! cursor, the fix key, `Enter` to the config line, `o` at the line) and
//! searching inside a preview (`/`, `n`/`N`, the count, `Esc`). The built
//! binary runs inside tmux; files are read from disk.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use tmux_support::jp_tree::{copy_jp_config, tui_command, write};
use tmux_support::{Tmux, shell_quote};

/// JP's configuration and a `docs` topic with a learned entry that selects
/// nothing and a binary subject.
fn jp_workspace(tmux: &Tmux, kb: &str) -> std::path::PathBuf {
    let root = tmux.path("jp");
    copy_jp_config(&root);
    write(&root, ".jp/kb.toml", kb);
    write(&root, "docs/guide.md", "# Guide\n\nStart here.\n");
    write(&root, "docs/rules/style.md", "Style.\n");
    std::fs::write(root.join("docs/logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0binary").unwrap();
    root
}

fn kb_toml(root: &Path) -> String {
    std::fs::read_to_string(root.join(".jp/kb.toml")).unwrap()
}

/// Goes to the first finding, then presses `j` until the screen
/// satisfies `ok` (the findings' order is the check's, which JP's
/// configuration may add to). Each look waits for the frame to settle.
fn move_until(tmux: &Tmux, what: &str, ok: impl Fn(&str) -> bool) -> String {
    tmux.send(&["Home"]);
    for _ in 0..40 {
        std::thread::sleep(Duration::from_millis(300));
        let screen = tmux.screen();
        if ok(&screen) {
            return screen;
        }
        tmux.literal("j");
    }
    panic!("never reached {what}:\n{}", tmux.screen());
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn findings_are_fixed_visited_and_opened_at_their_line_in_a_real_jp_workspace() {
    let tmux = Tmux::start("actions-findings");
    let kb = "[kb.topic.docs]\ntitle = \"Docs\"\nsubjects = \"docs\"\nlearned = [\"guide\", \"nope/**\"]\n";
    let root = jp_workspace(&tmux, kb);
    // An "editor" named vim that records its arguments: the line form
    // of the vi family is `+LINE file`.
    let bin = tmux.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let args = tmux.path("editor-args.txt");
    write(
        &bin,
        "vim",
        &format!("#!/bin/sh\necho \"$@\" > {}\n", shell_quote(&args)),
    );
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(bin.join("vim"))
        .status()
        .unwrap();
    tmux.type_line(&format!(
        "export EDITOR={}; {}",
        shell_quote(&bin.join("vim")),
        tui_command(&root, "tui")
    ));
    tmux.wait_for("the docs topic", |s| s.contains("Subjects of docs"));
    tmux.literal("t");
    tmux.wait_for("the findings cursor", |s| s.contains('❯'));
    // The footer names the fix of the finding under the cursor.
    move_until(&tmux, "the dead learned entry", |s| {
        s.contains("x fix: remove \"nope/**\" from learned")
    });
    // o opens the editor at the entry's line in kb.toml (line 4).
    tmux.literal("o");
    let got = tmux.wait_for_file(&args, "the editor's arguments");
    assert!(got.starts_with("+4 "), "{got}");
    assert!(got.trim_end().ends_with(".jp/kb.toml"), "{got}");
    // Enter shows that line on the Config tab, marked.
    tmux.send(&["Enter"]);
    let config = tmux.wait_for("the config line", |s| s.contains("▶  4 learned"));
    assert!(config.contains("a finding's place"), "{config}");
    // Back on the Findings tab, x removes the entry: one write.
    tmux.literal("t");
    tmux.wait_for("the findings tab", |s| s.contains("(t: only `docs`)"));
    move_until(&tmux, "the dead learned entry", |s| {
        s.contains("x fix: remove \"nope/**\" from learned")
    });
    tmux.literal("x");
    tmux.wait_for("the fix", |s| s.contains("removed"));
    let text = kb_toml(&root);
    assert!(text.contains("learned = [\"guide\"]"), "{text}");
    // The binary subject: x disables it (the footer said so first).
    tmux.literal("t");
    tmux.wait_for("the findings of docs only", |s| {
        s.contains("topic `docs` only")
    });
    move_until(&tmux, "the binary subject", |s| {
        s.contains("x fix: disable \"logo\"")
    });
    tmux.literal("x");
    tmux.wait_for("the second fix", |s| s.contains("added"));
    let text = kb_toml(&root);
    assert!(text.contains("disabled = [\"logo\"]"), "{text}");
    // One undo step per fix.
    tmux.literal("u");
    tmux.wait_for("the undo", |s| s.contains("undid") || s.contains("undo"));
    let text = kb_toml(&root);
    assert!(!text.contains("logo"), "{text}");
    assert!(text.contains("learned = [\"guide\"]"), "{text}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn searching_the_prompt_scrolls_to_each_match_in_a_real_jp_workspace() {
    let tmux = Tmux::start("actions-search");
    let kb = "[kb.topic.docs]\ntitle = \"Docs\"\nsubjects = \"docs\"\nlearned = [\"guide\"]\n";
    let root = jp_workspace(&tmux, kb);
    // A pre-loaded subject long enough to scroll, a word on three lines.
    let mut guide = String::from("# Guide\n\n");
    for i in 0..300 {
        writeln!(guide, "filler line {i}").unwrap();
        if i == 100 || i == 200 || i == 290 {
            writeln!(guide, "the marker word at {i}").unwrap();
        }
    }
    write(&root, "docs/guide.md", &guide);
    tmux.type_line(&tui_command(&root, "tui"));
    tmux.wait_for("the docs topic", |s| s.contains("Subjects of docs"));
    // The Prompt tab, focused.
    tmux.literal("2");
    tmux.send(&["Tab"]);
    tmux.send(&["Tab"]);
    tmux.wait_for("the prompt", |s| s.contains("filler line 0"));
    tmux.literal("/");
    tmux.wait_for("the query line", |s| s.contains("Enter find · Esc cancel"));
    tmux.literal("marker");
    tmux.send(&["Enter"]);
    let first = tmux.wait_for("the first match", |s| s.contains("/marker  1/3"));
    assert!(first.contains("the marker word at 100"), "{first}");
    assert!(
        !first.contains("filler line 0 "),
        "scrolled to it:\n{first}"
    );
    tmux.literal("n");
    let second = tmux.wait_for("the second match", |s| s.contains("/marker  2/3"));
    assert!(second.contains("the marker word at 200"), "{second}");
    tmux.literal("N");
    tmux.literal("N");
    let last = tmux.wait_for("the last match", |s| s.contains("/marker  3/3"));
    assert!(last.contains("the marker word at 290"), "{last}");
    // Esc clears the search; the subjects pane's / is still the filter.
    tmux.send(&["Escape"]);
    tmux.wait_for("the search cleared", |s| !s.contains("/marker"));
    tmux.send(&["Escape"]);
    tmux.literal("/");
    tmux.literal("style");
    tmux.send(&["Enter"]);
    tmux.wait_for("the filter", |s| s.contains("/ style"));
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
