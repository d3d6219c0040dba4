#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 26 item 3 in a real terminal: the layer picker (`f`) on JP's
//! real configuration, which extends 62 MCP tool files (67 layers in
//! all), fits the screen at 160×45 and 80×24, says which rows show,
//! answers Home/End/PgUp/PgDn and typing, lists jp-kb's own file, the
//! user-workspace file and `.jp.toml` first and folds the files only JP
//! reads.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use tmux_support::Tmux;
use tmux_support::jp_tree::{jp_workspace, mcp_tools, start, write};

/// The screen rows inside the picker's box (between its top and bottom
/// border lines), spaces collapsed; and the two border lines.
fn picker(screen: &str) -> (String, Vec<String>, String) {
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains("Edit file"))
        .unwrap_or_else(|| panic!("no picker box:\n{screen}"));
    let bottom = lines
        .iter()
        .position(|l| l.contains("Enter: edits go there"))
        .unwrap_or_else(|| panic!("the picker's bottom border is off screen:\n{screen}"));
    // The box's columns, from its top border (`┌ Edit file … ┐`).
    let top_chars: Vec<char> = lines[top].chars().collect();
    let start = lines[top][..lines[top].find("┌ Edit file").unwrap()]
        .chars()
        .count();
    let end = (start + 1..top_chars.len())
        .find(|&i| top_chars[i] == '┐')
        .unwrap();
    let rows = lines[top + 1..bottom]
        .iter()
        .map(|l| {
            let inner: String = l.chars().skip(start + 1).take(end - start - 1).collect();
            inner.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect();
    (lines[top].to_owned(), rows, lines[bottom].to_owned())
}

fn open_at(tmux: &Tmux, width: &str, height: &str) {
    assert!(
        tmux.run(&["resize-window", "-t", "main", "-x", width, "-y", height])
            .status
            .success()
    );
    let root = jp_workspace(tmux);
    write(&root, ".jp/.id", "abc12\n");
    mcp_tools(&root, 62);
    start(tmux, &root);
    tmux.literal("f");
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn the_picker_on_jps_67_layers_fits_folds_scrolls_and_filters() {
    let tmux = Tmux::start("picker-67");
    open_at(&tmux, "160", "45");
    let screen = tmux.wait_for("the layer picker", |s| {
        s.contains("Enter: edits go there") && picker(s).1.len() == 4
    });
    let (_, rows, _) = picker(&screen);
    assert_eq!(
        rows,
        [
            "› team .jp/kb.toml declares `docs`",
            "user-workspace .user-data/workspace/jp-abc12/kb.toml new: created on the first edit",
            ".jp.toml .jp.toml new · JP loads it: a `kb` table stops today's JP",
            "65 more files JP loads (.jp/mcp/tools/ 62, .jp/ 1, …) — type to filter, Enter to show",
        ],
        "{screen}"
    );

    // Enter on the fold row shows every file; the list then scrolls
    // inside the screen, with a marker saying which rows show.
    tmux.send(&["End"]);
    tmux.send(&["Enter"]);
    // Under load a capture can catch a frame half drawn: wait for the
    // title and every row of the list.
    let screen = tmux.wait_for("the unfolded list", |s| {
        s.contains("rows 1–41 of 68") && picker(s).1.len() == 41
    });
    let (top, rows, _) = picker(&screen);
    assert_eq!(rows.len(), 41, "{screen}");
    assert!(top.contains("↓"), "{top}");
    tmux.send(&["End"]);
    // Under load a capture can catch the new title above rows of another
    // frame (a full test run did, 2026-12-04): wait for both.
    let screen = tmux.wait_for("End", |s| {
        s.contains("rows 28–68 of 68 ↑")
            && picker(s)
                .1
                .last()
                .is_some_and(|row| row.contains(".jp/config.toml"))
    });
    assert!(
        picker(&screen)
            .1
            .last()
            .unwrap()
            .contains(".jp/config.toml"),
        "{screen}"
    );
    tmux.send(&["PageUp"]);
    tmux.wait_for("PgUp", |s| s.contains("rows 27–67 of 68"));
    tmux.send(&["Home"]);
    tmux.wait_for("Home", |s| s.contains("rows 1–41 of 68"));
    tmux.send(&["PageDown"]);
    tmux.wait_for("PgDn", |s| s.contains("rows 2–42 of 68"));

    // Typing filters, folded files included; Enter picks the one match.
    tmux.literal("default");
    let screen = tmux.wait_for("the filter", |s| s.contains("filter: default"));
    let (_, rows, _) = picker(&screen);
    assert_eq!(
        rows,
        ["extends .jp/config/personas/default.toml JP loads it: a `kb` table stops today's JP"],
        "{screen}"
    );
    tmux.send(&["Enter"]);
    tmux.wait_for("the choice", |s| {
        s.contains("edits→ .jp/config/personas/default.toml")
    });
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn the_picker_on_jps_67_layers_fits_80_by_24() {
    let tmux = Tmux::start("picker-80");
    open_at(&tmux, "80", "24");
    let screen = tmux.wait_for("the layer picker", |s| {
        s.contains("Enter: edits go there") && picker(s).1.len() == 4
    });
    let (_, rows, _) = picker(&screen);
    assert_eq!(rows.len(), 4, "{screen}");
    tmux.send(&["Up"]);
    tmux.send(&["Enter"]);
    // A capture under load can hold two frames at once: wait for a whole
    // one (a wrong row count then fails as a timeout, with the screen).
    let screen = tmux.wait_for("the unfolded list", |s| {
        s.contains("rows 1–20 of 68") && picker(s).1.len() == 20
    });
    let (top, rows, _) = picker(&screen);
    assert_eq!(rows.len(), 20, "the box fits 24 rows: {screen}");
    assert!(top.contains("rows 1–20 of 68"), "{top}");
    tmux.send(&["End"]);
    tmux.wait_for("End", |s| s.contains("rows 49–68 of 68"));
}
