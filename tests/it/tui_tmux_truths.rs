#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 14's truths in a real terminal, on a workspace built from JP's
//! real configuration (65 layers through `extends`) plus a jp-kb topic:
//! the built binary runs inside tmux, keys go in with `send-keys`, the
//! screen comes back with `capture-pane`, files are read from disk.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use tmux_support::Tmux;
use tmux_support::jp_tree::{
    KB, jp_workspace, kb_toml, select_directory, start, tui_command, write,
};

/// Item 3: learning a hidden directory offers the exact slugs, never a
/// pattern that selects nothing, and the slugs it writes pre-load them.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn learning_a_hidden_directory_offers_exact_slugs_in_a_real_jp_workspace() {
    let tmux = Tmux::start("truth-hidden");
    let root = jp_workspace(&tmux);
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    select_directory(&tmux, "hidden-dir");
    let screen = tmux.wait_for("the hidden directory's preview", |s| {
        s.contains("all hidden: learned only by exact slug")
    });
    assert!(!screen.contains("hidden-dir/**"), "{screen}");

    tmux.literal("l");
    let dialog = tmux.wait_for("the learn dialog", |s| s.contains("one by one"));
    assert!(dialog.contains("add the 2 slugs one by one"), "{dialog}");
    assert!(!dialog.contains("hidden-dir/**"), "{dialog}");
    tmux.literal("1");
    tmux.wait_for("the edit", |s| s.contains("added"));
    let text = kb_toml(&root);
    assert!(
        text.contains("\"hidden-dir/one\"") && text.contains("\"hidden-dir/two\""),
        "{text}"
    );
    // What it wrote pre-loads them: both are in the Prompt tab.
    tmux.literal("2");
    tmux.wait_for("the prompt with the hidden subjects", |s| {
        s.contains("<subject \"hidden-dir/one\">")
    });
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

/// Item 4: disabling a directory counts its hidden subject and names the
/// pre-loaded one it removes from the prompt; the count is what it does.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn disabling_a_directory_names_what_leaves_the_prompt_in_a_real_jp_workspace() {
    let tmux = Tmux::start("truth-disable");
    let root = jp_workspace(&tmux);
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    select_directory(&tmux, "rules");
    tmux.literal("d");
    // The whole dialog: tmux may be read while a frame is half written.
    let dialog = tmux.wait_for("the disable dialog", |s| {
        s.contains("disabled: directory") && s.contains("leaves <knowledge>")
    });
    let joined: String = dialog.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!joined.contains("skips hidden"), "{dialog}");
    assert!(
        joined.contains("disables 1 subject and 1 hidden one"),
        "{dialog}"
    );
    assert!(joined.contains("rules/core"), "{dialog}");
    // Removing a pre-loaded subject is said under the option, with what
    // leaves the prompt: choosing it is the confirmation (not asked
    // again with the same lines).
    assert!(
        joined.contains("removes 1 pre-loaded subject from the prompt"),
        "{dialog}"
    );
    assert!(
        joined.contains("leaves <knowledge>: docs/rules/core"),
        "{dialog}"
    );
    tmux.literal("1");
    tmux.wait_for("the edit", |s| s.contains("added"));
    let text = kb_toml(&root);
    assert!(text.contains("disabled = [\"rules/**\"]"), "{text}");
    tmux.literal("2");
    let prompt = tmux.wait_for("the prompt tab", |s| s.contains("Prompt"));
    assert!(!prompt.contains("Core rules, pre-loaded."), "{prompt}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

/// Item 5: a topic too large to read in the TUI makes the check partial
/// — said on the status line and the Findings tab, never "no problems" —
/// while the budget check, which needs no file contents, still runs.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn a_partial_check_says_so_and_still_checks_the_budget() {
    let tmux = Tmux::start("truth-partial");
    let root = jp_workspace(&tmux);
    let huge = root.join("huge");
    std::fs::create_dir_all(&huge).unwrap();
    for i in 0..=jp_kb::tui::findings::state::CONTENT_SCAN_LIMIT {
        std::fs::write(huge.join(format!("s{i}.md")), "x\n").unwrap();
    }
    // ~40k tokens pre-loaded: over the default 20k budget.
    let big = (0..40_000).fold(String::new(), |mut s, i| {
        use std::fmt::Write as _;
        write!(s, "w{i} ").unwrap();
        s
    });
    std::fs::write(huge.join("big.md"), big).unwrap();
    write(
        &root,
        ".jp/kb.toml",
        &format!(
            "{KB}\n[kb.topic.huge]\ntitle = \"Huge\"\nsubjects = \"huge\"\nlearned = [\"big\"]\n"
        ),
    );
    start(&tmux, &root);
    let screen = tmux.wait_for("the partial check", |s| s.contains("partial"));
    assert!(!screen.contains("no problems"), "{screen}");
    tmux.literal("6");
    let findings = tmux.wait_for("the findings tab", |s| s.contains("KB112"));
    assert!(
        findings.contains("(partial — run `jp-kb check`)"),
        "{findings}"
    );
    assert!(findings.contains("above the budget of 20000"), "{findings}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

/// Item 8: an outside edit elsewhere in the file does not block undo (the
/// undo is re-applied around it); an outside edit of the same value drops
/// that file's history, says so once, and keeps the outside text.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn undo_after_outside_edits_is_re_applied_or_says_the_history_was_dropped() {
    let tmux = Tmux::start("truth-undo");
    let root = jp_workspace(&tmux);
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    tmux.literal("/guide");
    tmux.send(&["Enter"]);
    tmux.literal("l");
    tmux.wait_for("the first edit", |s| s.contains("added `guide`"));
    let learned = kb_toml(&root);
    assert!(learned.contains("\"guide\""), "{learned}");

    // A note added by hand far from the array: undo still works around it.
    // The Config tab shows the file as the TUI last read it.
    tmux.literal("5");
    std::fs::write(root.join(".jp/kb.toml"), format!("{learned}# by hand\n")).unwrap();
    tmux.wait_for("the reload", |s| s.contains("# by hand"));
    tmux.literal("u");
    tmux.wait_for("the undo", |s| s.contains("undid:"));
    assert_eq!(kb_toml(&root), format!("{KB}# by hand\n"));

    // Learn again, then change the same value by hand: undo is refused
    // once with the reason, and the hand edit stays.
    tmux.send(&["C-r"]);
    tmux.wait_for("the redo", |s| s.contains("redid:"));
    let by_hand = kb_toml(&root).replace("\"guide\"", "\"guide\", \"rules/style\"");
    std::fs::write(root.join(".jp/kb.toml"), &by_hand).unwrap();
    tmux.wait_for("the second reload", |s| s.contains("\"rules/style\""));
    tmux.literal("u");
    let screen = tmux.wait_for("the refusal", |s| s.contains("dropped the undo history"));
    assert!(screen.contains(".jp/kb.toml"), "{screen}");
    assert_eq!(kb_toml(&root), by_hand);
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

/// Item 9: with no workspace the demo banner says it is deleted on quit
/// and how to start one; quitting `$EDITOR` without a change is not
/// "edited"; toggling `enable` off and on again leaves the file as it was.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn banners_editor_and_enable_say_only_what_happened() {
    let tmux = Tmux::start("truth-small");
    let empty = tmux.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    tmux.type_line(&tui_command(&empty, "tui"));
    let screen = tmux.wait_for("the demo banner", |s| s.contains("DEMO"));
    assert!(screen.contains("deleted when you quit"), "{screen}");
    assert!(screen.contains("jp-kb init"), "{screen}");
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));

    let root = jp_workspace(&tmux);
    tmux.type_line("export EDITOR=true");
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    tmux.literal("/guide");
    tmux.send(&["Enter"]);
    tmux.literal("o");
    let screen = tmux.wait_for("the editor's outcome", |s| s.contains("no change to"));
    assert!(!screen.contains("edited "), "{screen}");

    tmux.send(&["BTab"]);
    tmux.literal("e");
    // Turning a topic off asks first.
    tmux.wait_for("the confirmation", |s| {
        s.contains("disables the whole topic")
    });
    tmux.literal("1");
    tmux.wait_for("the topic disabled", |s| {
        s.contains("enable = false") || s.contains("(disabled)")
    });
    assert!(
        kb_toml(&root).contains("enable = false"),
        "{}",
        kb_toml(&root)
    );
    tmux.literal("e");
    tmux.wait_for("the topic enabled", |s| !s.contains("(disabled)"));
    tmux.wait_for_within(
        "the file back as it was",
        std::time::Duration::from_secs(10),
        |_| kb_toml(&root) == KB,
    );
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
