#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The search mode (issue 17 item 3) in a real terminal, on a real tree:
//! JP's own configuration (65 layers through `extends`) plus a topic of
//! the tldr project's git pages (real text, from `../shared/corpora`,
//! copied). The built binary runs inside tmux with its own cache
//! directory; the search runs on its worker and the index is saved there.
//!
//! Needs tmux and the tldr corpus: ignored without them, failed under `CI`.

use super::tmux_support;

use tmux_support::jp_tree::{copy_jp_config, tui_command, write};
use tmux_support::needs::{self, Need};
use tmux_support::{Tmux, shell_quote};

const KB: &str = "[kb.topic.git]\ntitle = \"Git\"\nsubjects = \"git\"\n";

/// JP's configuration and a `git` topic of tldr's `common/git-*` pages,
/// one of them hidden.
fn workspace(tmux: &Tmux) -> std::path::PathBuf {
    let root = tmux.path("jp");
    copy_jp_config(&root);
    write(&root, ".jp/kb.toml", KB);
    let pages = needs::require(Need::Corpora).join("tldr/pages/common");
    let mut copied = 0;
    for entry in std::fs::read_dir(&pages).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("git-") {
            let text = std::fs::read_to_string(&path).unwrap();
            let rel = if name == "git-stash.md" {
                format!("git/.{name}")
            } else {
                format!("git/{name}")
            };
            write(&root, &rel, &text);
            copied += 1;
        }
    }
    assert!(copied > 100, "only {copied} git pages");
    root
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
#[cfg_attr(
    all(not(lacks = "tmux"), lacks = "corpora"),
    ignore = "needs the tldr corpus in ../shared/corpora beside the checkout (then touch build.rs)"
)]
fn search_mode_finds_learns_and_goes_to_a_subject_in_a_real_terminal() {
    let tmux = Tmux::start("search");
    let root = workspace(&tmux);
    let cache = tmux.path("cache");
    // The index goes to a cache directory of the test's own (exported:
    // the command starts with `cd`, and an assignment before it would
    // reach only the `cd`, leaving jp-kb on the user's own cache).
    let command = format!(
        "export XDG_CACHE_HOME={}; {}",
        shell_quote(&cache),
        tui_command(&root, "tui")
    );
    tmux.type_line(&command);
    tmux.wait_for("the git topic", |s| s.contains("Subjects of git"));

    tmux.literal("S");
    tmux.wait_for("the query line", |s| s.contains("Search:"));
    tmux.literal("undo the last commit");
    // The hits of the whole query (the first ones can show while it is
    // still being typed).
    let screen = tmux.wait_for("the hits", |s| {
        s.contains("git/git-reset") && s.contains("Search: undo the last commit")
    });
    assert!(screen.contains("Search: undo the last commit"), "{screen}");
    // The hidden page is found and marked.
    tmux.send(&["C-u"]);
    for _ in 0.."undo the last commit".len() {
        tmux.send(&["BSpace"]);
    }
    tmux.literal("stash changes");
    let screen = tmux.wait_for("the hidden hit", |s| s.contains("git-stash (hidden)"));
    assert!(screen.contains("◌"), "{screen}");

    // `l` on the hit list learns the hit's subject through the planner:
    // after the reload its markers are learned and hidden.
    tmux.send(&["Tab"]);
    tmux.literal("l");
    tmux.wait_for("the edit", |s| s.contains("●◌ git/git-stash (hidden)"));
    let text = std::fs::read_to_string(root.join(".jp/kb.toml")).unwrap();
    assert!(text.contains(r#"learned = ["git-stash"]"#), "{text}");

    // Esc leaves, keeping the query: `S` comes back to it. (Each Esc is
    // waited for: Esc followed at once by a key reads as Alt-key.)
    tmux.send(&["Escape"]);
    tmux.wait_for("the search to close", |s| !s.contains("Search:"));
    tmux.literal("S");
    tmux.wait_for("the same query", |s| {
        s.contains("Search: stash changes") && s.contains("git-stash (hidden)")
    });

    // Enter goes to it: its topic, its row, the Subject tab.
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the subject's preview", |s| {
        !s.contains("Search:") && s.contains("Stash local Git changes")
    });
    assert!(screen.contains("git-stash"), "{screen}");
    // The index was saved under the given cache directory.
    assert!(cache.join("jp-kb/search").is_dir());
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
