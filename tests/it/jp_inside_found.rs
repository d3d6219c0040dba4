//! jp-kb beside a JP with the knowledge base inside (issue 38): the `jp` on
//! the person's `PATH` is the real patched JP, and jp-kb must take it for
//! what it is (`src/jp_found.rs`): the `kb` tables in JP's own files are
//! valid, `connect jp` is not needed, a first topic goes where that JP
//! reads it, and `prompt --client jp` (the TUI's JP view) is what that JP
//! sends, byte for byte.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

use super::jp_support::Machine;
use super::jp_support::inside::{jp_inside_binary, kb_workspace};

/// `jp-kb ARGS` in `cwd` on `machine`, with `extra` variables set.
fn jp_kb_with(machine: &Machine, cwd: &Path, extra: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jp-kb"))
        .env_clear()
        .envs(machine.vars())
        .envs(extra.iter().copied())
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap()
}

fn all_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A machine whose `jp` on `PATH` has the knowledge base inside.
fn machine() -> Machine {
    let machine = Machine::inside();
    std::os::unix::fs::symlink(jp_inside_binary(), machine.path().join("bin/jp")).unwrap();
    machine
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn the_kb_tables_in_jps_own_files_are_valid_and_nothing_needs_connecting() {
    let machine = machine();
    let dir = machine.path().join("work/project");
    kb_workspace(&dir);
    let config = std::fs::read(dir.join(".jp/config.toml")).unwrap();

    let check = machine.jp_kb(&dir, &["check"]);
    let said = all_text(&check);
    assert!(check.status.success(), "{said}");
    assert!(!said.contains("KB120"), "{said}");
    assert!(!said.contains("migrate"), "{said}");
    let check = machine.jp_kb(&dir, &["check", "--client", "jp"]);
    assert!(check.status.success(), "{}", all_text(&check));

    // The same files, told that the JP is today's: its refusal, and the way out.
    let beside = jp_kb_with(&machine, &dir, &[("JP_KB_JP", "beside")], &["check"]);
    let said = all_text(&beside);
    assert!(said.contains("KB120"), "{said}");
    assert!(said.contains("jp-kb migrate"), "{said}");

    let connect = machine.jp_kb_ok(&dir, &["connect", "jp"]);
    assert!(
        connect.starts_with("nothing to connect: the JP here has the knowledge base inside"),
        "{connect}"
    );
    assert!(!dir.join(".jp/config.d").exists());
    assert!(!dir.join(".jp/mcp").exists());
    assert_eq!(std::fs::read(dir.join(".jp/config.toml")).unwrap(), config);
    let sync = machine.jp_kb(&dir, &["sync"]);
    assert!(sync.status.success(), "{}", all_text(&sync));
    assert!(!dir.join(".jp/config.d").exists());
    let migrate = machine.jp_kb_ok(&dir, &["migrate"]);
    assert!(migrate.starts_with("nothing to move"), "{migrate}");
    assert_eq!(std::fs::read(dir.join(".jp/config.toml")).unwrap(), config);
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn the_jp_view_is_what_that_jp_sends() {
    let machine = machine();
    let dir = machine.path().join("work/project");
    kb_workspace(&dir);
    let run = machine.query_with(&dir, &[], &[]);
    let offered = run.offered_tool("learn").expect("JP offers `learn`");

    let view: Value =
        serde_json::from_str(&machine.jp_kb_text(&dir, &["prompt", "--client", "jp", "--json"]))
            .unwrap();
    assert_eq!(
        view,
        json!([
            {"channel": "system-prompt-section", "text": run.section(), "cut": false},
            {"channel": "tool-description", "text": offered["description"], "cut": false},
        ])
    );
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn a_first_topic_goes_where_that_jp_reads_it_and_kb_toml_is_reported() {
    let machine = machine();
    let dir = machine.path().join("work/fresh");
    std::fs::create_dir_all(dir.join(".jp")).unwrap();
    std::fs::create_dir_all(dir.join("notes")).unwrap();
    std::fs::write(dir.join("notes/style.md"), "# Style\n\nTabs.\n").unwrap();
    std::fs::write(dir.join("notes/review.md"), "# Review\n").unwrap();

    machine.jp_kb_ok(&dir, &["topic", "add", "notes", "--subjects", "notes"]);
    machine.jp_kb_ok(&dir, &["learned", "add", "notes", "style"]);
    assert!(!dir.join(".jp/kb.toml").exists());
    let config = std::fs::read_to_string(dir.join(".jp/config.toml")).unwrap();
    assert!(config.contains("[kb.topic.notes]"), "{config}");
    let run = machine.query_with(&dir, &[], &[]);
    let expected = machine.jp_kb_text(&dir, &["prompt"]);
    assert!(expected.contains("Tabs."), "{expected}");
    assert_eq!(run.section(), expected, "JP sends the new topic");

    // A topic in a kb.toml (jp-kb's place for today's JP) never reaches
    // this JP: reported, and moved into JP's file by `migrate`.
    std::fs::write(
        dir.join(".jp/kb.toml"),
        "[kb.topic.more]\nsubjects = \"notes\"\nlearned = [\"review\"]\n",
    )
    .unwrap();
    let check = machine.jp_kb(&dir, &["check"]);
    let said = all_text(&check);
    assert!(said.contains("KB123"), "{said}");
    assert!(said.contains("jp-kb migrate"), "{said}");
    let sent = machine.query_with(&dir, &[], &[]);
    assert!(
        !sent.section().contains("# Review"),
        "this JP never reads kb.toml"
    );
    machine.jp_kb_ok(&dir, &["migrate"]);
    let check = machine.jp_kb(&dir, &["check"]);
    assert!(!all_text(&check).contains("KB123"), "{}", all_text(&check));
    let run = machine.query_with(&dir, &[], &[]);
    let expected = machine.jp_kb_text(&dir, &["prompt"]);
    assert!(expected.contains("# Review"), "{expected}");
    assert_eq!(run.section(), expected, "JP sends the moved topic");
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn init_writes_the_example_and_adopted_files_where_that_jp_reads_them() {
    let machine = machine();

    // The example topic, in a directory with nothing yet.
    let dir = machine.path().join("work/new");
    std::fs::create_dir_all(&dir).unwrap();
    let said = machine.jp_kb_ok(&dir, &["init"]);
    assert!(said.contains("never reads .jp/kb.toml"), "{said}");
    assert!(!dir.join(".jp/kb.toml").exists(), "{said}");
    let config = std::fs::read_to_string(dir.join(".jp/config.toml")).unwrap();
    assert!(config.contains("[kb.topic.project]"), "{config}");
    machine.jp_kb_ok(&dir, &["learned", "add", "project", "conventions"]);
    let run = machine.query_with(&dir, &[], &[]);
    let expected = machine.jp_kb_text(&dir, &["prompt"]);
    assert!(expected.contains("example subject"), "{expected}");
    assert_eq!(run.section(), expected, "the example topic reaches JP");

    // A repository with a CLAUDE.md: adopted in place, into JP's file.
    let repo = machine.path().join("work/adopting");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("CLAUDE.md"), "# Rules\n\nUse tabs.\n").unwrap();
    let said = machine.jp_kb_ok(&repo, &["init"]);
    assert!(!repo.join(".jp/kb.toml").exists(), "{said}");
    let run = machine.query_with(&repo, &[], &[]);
    let expected = machine.jp_kb_text(&repo, &["prompt"]);
    assert!(expected.contains("Use tabs."), "{expected}");
    assert_eq!(run.section(), expected, "the adopted file reaches JP");
}
