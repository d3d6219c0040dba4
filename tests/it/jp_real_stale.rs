//! Real JP when the knowledge base changes under it (issue 36, "nothing
//! stale without a word"). JP builds a request from the configuration it
//! read before it starts `jp-kb mcp`, and a conversation keeps the
//! configuration it began with: the model of the first query after an
//! outside edit, and of a conversation continued after a change, gets the
//! older section. Each time, the person is told where they look: the
//! `learn` answers (which JP prints), `check --client jp`, the CLI edit's
//! message. An outside edit that leaves no learnable subject must not
//! abort JP's next query.
//!
//! They need real JP (`bash tests/jp/setup.sh`, which `.ci/run` calls):
//! without it they are ignored with the reason, under `CI` they fail.

use super::jp_support::{Expected, Machine, write};

/// What the server starts its `learn` answers with while JP's copy of
/// the section is older than the knowledge base.
const NOTE: &str = "Note from jp-kb: the <knowledge> section and the `learn` description in this \
conversation are older than the knowledge base, which changed after JP read its \
configuration. This answer is current. A new JP conversation (`jp query --new`) gets \
the current section.\n\n";

fn noted(expected: &Expected) -> Expected {
    Expected {
        section: expected.section.clone(),
        listing: format!("{NOTE}{}", expected.listing),
        subjects: format!("{NOTE}{}", expected.subjects),
    }
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn the_first_query_after_an_outside_edit_is_told_and_the_next_is_current() {
    let machine = Machine::new();
    let dir = machine.path().join("work/project");
    machine.repository(&dir);
    machine.script_listing_and_subjects();
    let before = machine.expected(&dir);
    // Edited in an editor: no jp-kb command runs.
    write(
        &dir,
        "code-quality.md",
        "Code quality, rewritten by hand.\n",
    );
    let after = machine.expected(&dir);
    assert_ne!(before.section, after.section);

    let run = machine.query(&dir, None);
    // JP read the layer before the server rewrote it: the older section
    // (JP's design), and every answer says so first.
    run.assert_served(
        &Expected {
            section: before.section.clone(),
            ..noted(&after)
        },
        "the first query after the edit",
    );
    // JP prints tool answers (on stderr when stdout is not a terminal).
    let terminal = format!("{}{}", run.stdout(), run.stderr());
    assert!(
        terminal.contains("Note from jp-kb: the <knowledge> section"),
        "JP's terminal shows the note:\n{terminal}"
    );
    // That conversation keeps its copy: `check --client jp` says so.
    let check = machine.jp_kb(&dir, &["check", "--client", "jp"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        report.contains("KB125") && report.contains("jp query --new"),
        "{report}"
    );

    // The next conversation gets the new section and plain answers.
    machine
        .query(&dir, None)
        .assert_served(&after, "the next new conversation");
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn an_outside_edit_removing_the_last_learnable_subject_does_not_abort_jp() {
    let machine = Machine::new();
    let dir = machine.path().join("work/project");
    machine.repository(&dir);
    // Every subject disabled by hand in kb.toml: no topic is learnable.
    let kb_toml = dir.join(".jp/kb.toml");
    let text = std::fs::read_to_string(&kb_toml).unwrap();
    std::fs::write(&kb_toml, format!("{text}\ndisabled = [\"*\"]\n")).unwrap();
    assert_eq!(machine.jp_kb_ok(&dir, &["schema"]), "", "nothing learnable");
    machine
        .model
        .script(vec![serde_json::json!({"topic": "project"})]);

    let run = machine.query(&dir, None);
    let learn = machine.jp_kb(&dir, &["learn", "project"]);
    let answer = String::from_utf8_lossy(if learn.status.success() {
        &learn.stdout
    } else {
        &learn.stderr
    })
    .trim_end_matches('\n')
    .to_owned();
    assert_eq!(run.tool_results(), [format!("{NOTE}{answer}")]);

    // The next query: JP no longer declares the tool, nothing aborts.
    let run = machine.query(&dir, None);
    assert_eq!(run.sections(), Vec::<String>::new());
    assert_eq!(run.tool_results(), Vec::<String>::new());
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn a_conversation_continued_after_a_change_is_said() {
    let machine = Machine::new();
    let dir = machine.path().join("work/project");
    machine.repository(&dir);
    machine.script_listing_and_subjects();
    let before = machine.expected(&dir);
    machine
        .query(&dir, None)
        .assert_served(&before, "the first");

    // A CLI edit says that the conversation keeps its section.
    let edit = machine.jp_kb(&dir, &["learned", "rm", "project", "code-quality"]);
    assert!(edit.status.success());
    let said = String::from_utf8_lossy(&edit.stderr);
    assert!(
        said.contains("keeps the <knowledge> section it began with")
            && said.contains("jp query --new"),
        "{said}"
    );
    let check = machine.jp_kb(&dir, &["check", "--client", "jp"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(report.contains("KB125"), "{report}");

    // JP's design: the continued conversation sends its first section.
    let after = machine.expected(&dir);
    let run = machine.continue_query(&dir);
    assert_eq!(run.section(), before.section, "continued");
    // A new one gets the new section, and check is quiet again about it.
    machine.query(&dir, None).assert_served(&after, "a new one");
    let check = machine.jp_kb(&dir, &["check", "--client", "jp"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(!report.contains("KB125"), "{report}");
}
