#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 37 items 1 and 2 in a real terminal, on a tree shaped like JP's
//! documentation: the filter lands on its best match, `Esc` that clears
//! the filter keeps the cursor on the subject shown before (it went to
//! the same row number of the whole tree, `.vitepress/loaders/
//! rfd-board.data.js`), and `l` then learns that subject.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use tmux_support::Tmux;
use tmux_support::jp_tree::{jp_docs, kb_toml, start};

/// The subject the preview shows (its header: `slug  path · size`).
fn previewing(screen: &str, slug: &str, path: &str) -> bool {
    screen.contains(&format!("{slug}  {path} ·"))
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn the_filter_lands_on_its_best_match_and_esc_keeps_the_subject() {
    let tmux = Tmux::start("cursor");
    let root = tmux.path("jp");
    jp_docs(&root);
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    tmux.literal("/getting");
    let screen = tmux.wait_for("the filtered rows", |s| {
        s.contains("getting-started.md") && !s.contains("usage.md")
    });
    let at = |name: &str| screen.find(name).unwrap_or(usize::MAX);
    assert!(
        at("getting-started.md") < at("rfd/"),
        "the best match is the first row:\n{screen}"
    );
    tmux.send(&["Enter"]);
    tmux.wait_for("getting-started in the preview", |s| {
        previewing(s, "getting-started", "getting-started.md")
    });
    tmux.send(&["Escape"]);
    let screen = tmux.wait_for("the filter cleared", |s| s.contains("filter cleared"));
    assert!(
        previewing(&screen, "getting-started", "getting-started.md"),
        "Esc keeps the subject:\n{screen}"
    );
    assert!(screen.contains(".vitepress/"), "the whole tree:\n{screen}");
    tmux.literal("l");
    tmux.wait_for("the edit", |s| s.contains("added"));
    let text = kb_toml(&root);
    assert!(
        text.contains("learned = [\"getting-started\"]"),
        "l learns the subject shown before Esc:\n{text}"
    );
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

/// A subject chosen lower in the filtered rows is the one `Esc` keeps.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn esc_keeps_the_subject_moved_to_in_the_filtered_rows() {
    let tmux = Tmux::start("cursor-moved");
    let root = tmux.path("jp");
    jp_docs(&root);
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    tmux.literal("/persona");
    tmux.send(&["Enter"]);
    tmux.wait_for("personas in the preview", |s| {
        previewing(s, "features/personas", "features/personas.md")
    });
    tmux.send(&["Escape"]);
    let screen = tmux.wait_for("the filter cleared", |s| s.contains("filter cleared"));
    assert!(
        previewing(&screen, "features/personas", "features/personas.md"),
        "Esc keeps the subject:\n{screen}"
    );
    // One row up in the whole tree: the subject above it.
    tmux.literal("k");
    tmux.wait_for("contexts in the preview", |s| {
        previewing(s, "features/contexts", "features/contexts.md")
    });
    tmux.literal("l");
    tmux.wait_for("the edit", |s| s.contains("added"));
    let text = kb_toml(&root);
    assert!(text.contains("learned = [\"features/contexts\"]"), "{text}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
