#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 16 item 3 in a real terminal, on a workspace built from JP's real
//! configuration: `Ctrl-a` marks the filtered rows, `l` learns them as
//! one write, `u` takes them back in one step, byte for byte.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use tmux_support::Tmux;
use tmux_support::jp_tree::{KB, jp_workspace, kb_toml, start, write};

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn marked_rows_are_learned_as_one_edit_and_undone_in_one_step() {
    let tmux = Tmux::start("select");
    let root = jp_workspace(&tmux);
    write(&root, "docs/api.md", "# API\n");
    write(&root, "docs/faq.md", "# FAQ\n");
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    // The filter keeps api and faq (guide has no `a`); mark them both.
    tmux.literal("/a");
    tmux.send(&["Enter"]);
    tmux.send(&["C-a"]);
    let screen = tmux.wait_for("the marks", |s| s.contains("· 2 marked"));
    assert!(screen.contains("+api.md"), "{screen}");
    assert!(screen.contains("+faq.md"), "{screen}");
    tmux.literal("l");
    tmux.wait_for("the edit", |s| {
        s.contains("added") && !s.contains("marked ")
    });
    let text = kb_toml(&root);
    assert!(
        text.contains("learned = [\"rules/core\", \"api\", \"faq\"]"),
        "{text}"
    );
    tmux.literal("u");
    tmux.wait_for("the undo", |s| s.contains("undid:"));
    assert_eq!(kb_toml(&root), KB, "one undo step restores the bytes");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
