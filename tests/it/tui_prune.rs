//! The curator's prune view (`P`) in tmux, on the Facts tree
//! (`tests/facts/valid`) with a usage ledger: it lists exactly the expired
//! and never-loaded subjects, shows what disabling them costs, and Enter
//! changes the prompt by that figure in one step that `u` undoes byte for
//! byte. Judged as of `JP_KB_TODAY=2026-07-15`, never the wall clock.

use super::common;
use super::tmux_support;

use std::path::Path;

use jp_kb_core::usage::{Entry, Kind, Ledger, ledger_path, time};
use tmux_support::{Tmux, binary, shell_quote};

/// Copies the Facts fixture to `root`.
fn copy_tree(from: &Path, root: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let to = root.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
}

fn load(root: &Path, topic: &str, slugs: &[&str]) {
    let canonical = root.canonicalize().unwrap();
    let ledger = Ledger::new(ledger_path(&root.join(".user-data"), &canonical));
    let now = time::now();
    let mut e = Entry::record(
        now - 60,
        Kind::Learn,
        topic.into(),
        "s1".into(),
        ("jp".into(), "1.0".into()),
    );
    e.slugs = slugs.iter().map(|s| (*s).to_owned().into()).collect();
    e.tokens = 10;
    ledger.append(&e, now).unwrap();
}

/// The number before `unit` after `marker` in `screen`.
fn figure(screen: &str, marker: &str) -> u64 {
    let at = screen
        .find(marker)
        .unwrap_or_else(|| panic!("no `{marker}`:\n{screen}"));
    let digits: String = screen[at + marker.len()..]
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn prune_view_lists_the_expired_and_never_loaded_and_disables_them_by_its_cost() {
    let tmux = Tmux::start_sized("prune", 130, 40);
    let root = tmux.path("ws");
    copy_tree(&common::fixtures().join("facts").join("valid"), &root);
    load(
        &root,
        "facts",
        &["global/pitfalls", "global/patterns", "global/tool-quirks"],
    );
    load(&root, "facts", &["index", "SCHEMA", "repos/jp-kb"]);
    load(&root, "notes", &["conventions"]);
    let kb_toml = std::fs::read(root.join(".jp/kb.toml")).unwrap();
    let q = shell_quote(&root);
    tmux.type_line(&format!(
        "cd {q} && JP_KB_TODAY=2026-07-15 JP_GLOBAL_CONFIG_DIR={q}/.user-config JP_USER_DATA_DIR={q}/.user-data {} tui; echo EXIT-$?",
        binary()
    ));
    // Settled: the prompt's count drawn (the walks and counts run on
    // workers).
    let start = tmux.wait_for("the prompt's count", |s| {
        s.contains("Subjects of facts")
            && s.split("prompt: ")
                .nth(1)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    });
    let before = figure(&start, "prompt: ");
    tmux.literal("P");
    // The list, then its exact cost (counted on a worker).
    let screen = tmux.wait_for("the prune list and its cost", |s| {
        s.contains("2 of 2 selected") && s.contains("disabling them: -") && s.contains(" tok → ")
    });
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains("[x]")).collect();
    assert_eq!(rows.len(), 2, "{screen}");
    assert!(
        rows[0].contains("facts/agents/reviewer") && rows[0].contains("never loaded"),
        "{screen}"
    );
    assert!(
        rows[1].contains("notes/release-freeze") && rows[1].contains("expired 2026-06-30"),
        "{screen}"
    );
    let minus = figure(&screen, "disabling them: -");
    let after = figure(&screen, " tok → ");
    assert_eq!(before - minus, after, "{screen}");
    tmux.send(&["Enter"]);
    let done = tmux.wait_for("the prompt after", |s| {
        s.contains(&format!("prompt: {after} tok"))
    });
    assert!(!done.contains("Prune:"), "{done}");
    let toml = std::fs::read_to_string(root.join(".jp/kb.toml")).unwrap();
    assert!(
        toml.contains("reviewer") && toml.contains("release-freeze"),
        "{toml}"
    );
    // One step: one `u` restores every byte.
    tmux.literal("u");
    tmux.wait_for("the prompt restored", |s| {
        s.contains(&format!("prompt: {before} tok"))
    });
    assert_eq!(std::fs::read(root.join(".jp/kb.toml")).unwrap(), kb_toml);
    tmux.literal("q");
    tmux.wait_for("the TUI's exit", |s| s.contains("EXIT-0"));
}
