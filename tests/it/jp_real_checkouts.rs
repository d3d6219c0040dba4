//! Real JP over the checkouts of one repository (issue 36): a repository
//! that commits `.jp/.id` (JP's own does), its clones under another name
//! and under the same name, a git worktree, a moved checkout, checkouts
//! used in turn, `jp -w DIR` run from elsewhere, and the README's order.
//! JP keeps one per-user directory per workspace id, shared by all of
//! them; each must still be served its own subjects, with no jp-kb step
//! in any checkout but the first. What the model received is compared
//! byte for byte with `jp-kb prompt` / `jp-kb learn` in the checkout
//! JP ran for.
//!
//! They need real JP (`bash tests/jp/setup.sh`, which `.ci/run` calls):
//! without it they are ignored with the reason, under `CI` they fail.

use std::path::Path;

use super::jp_support::{Machine, write};

/// A branch `name` of the repository at `first` whose subjects differ
/// (the pre-loaded one, in the section, and one the server answers
/// `learn` with), committed as a team commits it (the generated layer
/// synced with it); `first` stays on `main`.
fn branch_with_own_text(machine: &Machine, first: &Path, name: &str) {
    machine.git(first, &["checkout", "-q", "-b", name]);
    write(
        first,
        "code-quality.md",
        &format!("Code quality on {name}.\n"),
    );
    write(
        first,
        "maintainers.md",
        &format!("Maintainers on {name}.\n"),
    );
    machine.jp_kb_ok(first, &["sync"]);
    machine.commit(first, "its own text");
    machine.git(first, &["checkout", "-q", "main"]);
}

/// A clone of `from`'s branch `branch` at `to`; nothing of jp-kb runs in it.
fn clone_with_own_text(machine: &Machine, from: &Path, to: &Path, branch: &str) {
    branch_with_own_text(machine, from, branch);
    let parent = to.parent().unwrap();
    std::fs::create_dir_all(parent).unwrap();
    machine.git(
        parent,
        &[
            "clone",
            "-q",
            "-b",
            branch,
            from.to_str().unwrap(),
            to.file_name().unwrap().to_str().unwrap(),
        ],
    );
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn the_repository_itself_is_served_exactly() {
    let machine = Machine::new();
    let first = machine.path().join("work/project");
    machine.repository(&first);
    machine.script_listing_and_subjects();
    let run = machine.query(&first, None);
    run.assert_served(&machine.expected(&first), "the first checkout");
    // JP's MCP client names itself after its SDK (`rmcp 1.8.0`); the
    // usage ledger names JP.
    let usage = machine.jp_kb_ok(&first, &["usage", "project"]);
    let learned = usage.lines().find(|l| l.starts_with("maintainers"));
    assert!(
        learned.is_some_and(|l| l.trim_end().ends_with("JP")) && !usage.contains("rmcp"),
        "{usage}"
    );
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn clones_under_another_name_are_each_served_their_own_in_turn() {
    let machine = Machine::new();
    let first = machine.path().join("work/project");
    machine.repository(&first);
    let clone = machine.path().join("work/project-review");
    clone_with_own_text(&machine, &first, &clone, "review");
    machine.script_listing_and_subjects();
    let (ours, theirs) = (machine.expected(&first), machine.expected(&clone));
    assert_ne!(
        ours.subjects, theirs.subjects,
        "the two checkouts must differ"
    );
    for (round, (dir, expected)) in [
        (&clone, &theirs),
        (&first, &ours),
        (&clone, &theirs),
        (&first, &ours),
    ]
    .into_iter()
    .enumerate()
    {
        let run = machine.query(dir, None);
        run.assert_served(expected, &format!("round {round}: {}", dir.display()));
    }
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn a_clone_under_the_same_name_is_served_its_own() {
    let machine = Machine::new();
    let first = machine.path().join("one/project");
    machine.repository(&first);
    let clone = machine.path().join("two/project");
    clone_with_own_text(&machine, &first, &clone, "review");
    machine.script_listing_and_subjects();
    let (ours, theirs) = (machine.expected(&first), machine.expected(&clone));
    for (dir, expected) in [(&clone, &theirs), (&first, &ours), (&clone, &theirs)] {
        machine
            .query(dir, None)
            .assert_served(expected, &dir.display().to_string());
    }
    // Setting up JP again in the clone moves nothing to the other one.
    machine.jp_kb_ok(&clone, &["connect", "jp"]);
    machine
        .query(&first, None)
        .assert_served(&ours, "the first after connect in the clone");
    let check = machine.jp_kb(&first, &["check", "--client", "jp"]);
    assert!(
        check.status.success(),
        "check in the first checkout:\n{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn a_git_worktree_is_served_its_own() {
    let machine = Machine::new();
    let first = machine.path().join("work/project");
    machine.repository(&first);
    let tree = machine.path().join("work/project-feature");
    branch_with_own_text(&machine, &first, "feature");
    machine.git(
        &first,
        &["worktree", "add", "-q", tree.to_str().unwrap(), "feature"],
    );
    machine.script_listing_and_subjects();
    let (ours, theirs) = (machine.expected(&first), machine.expected(&tree));
    assert_ne!(ours.subjects, theirs.subjects);
    for (dir, expected) in [(&tree, &theirs), (&first, &ours), (&tree, &theirs)] {
        machine
            .query(dir, None)
            .assert_served(expected, &dir.display().to_string());
    }
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn a_moved_checkout_is_served_where_it_is_now() {
    let machine = Machine::new();
    let first = machine.path().join("work/project");
    machine.repository(&first);
    let moved = machine.path().join("elsewhere/renamed");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&first, &moved).unwrap();
    machine.script_listing_and_subjects();
    let run = machine.query(&moved, None);
    run.assert_served(&machine.expected(&moved), "the moved checkout");
    // Another checkout of the repository where it was: still the moved
    // one is served where it is now.
    clone_with_own_text(&machine, &moved, &first, "elsewhere");
    assert_ne!(
        machine.expected(&first).subjects,
        machine.expected(&moved).subjects
    );
    let run = machine.query(&moved, None);
    run.assert_served(&machine.expected(&moved), "the moved checkout, again");
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn jp_w_from_elsewhere_serves_the_checkout_it_names() {
    let machine = Machine::new();
    let first = machine.path().join("work/project");
    machine.repository(&first);
    let clone = machine.path().join("work/project-review");
    clone_with_own_text(&machine, &first, &clone, "review");
    // Another repository with its own JP workspace (another id).
    let other = machine.path().join("work/other");
    machine.repository(&other);
    let outside = machine.path().join("home");
    machine.script_listing_and_subjects();
    let (ours, theirs) = (machine.expected(&first), machine.expected(&clone));
    for (cwd, dir, expected) in [
        (&outside, &first, &ours),
        (&outside, &clone, &theirs),
        (&other, &first, &ours),
        (&other, &clone, &theirs),
        (&outside, &first, &ours),
    ] {
        machine.query(cwd, Some(dir)).assert_served(
            expected,
            &format!("jp -w {} in {}", dir.display(), cwd.display()),
        );
    }
    // A relative `-w` (JP links its per-user directory to the path as
    // written, relative to where JP runs).
    let run = machine.query(
        &machine.path().join("work"),
        Some(Path::new("project-review")),
    );
    run.assert_served(&theirs, "jp -w project-review in work/");
}

#[test]
#[cfg_attr(
    lacks = "jp",
    ignore = "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
)]
fn the_readme_order_works_from_anywhere_at_once() {
    // init, edits, connect jp, then JP: no `.jp/.id` exists before JP
    // runs, and JP is first run from elsewhere.
    let machine = Machine::new();
    let dir = machine.path().join("work/fresh");
    std::fs::create_dir_all(&dir).unwrap();
    machine.jp_kb_ok(&dir, &["init"]);
    write(&dir, "code-quality.md", "Fresh code quality.\n");
    write(&dir, "maintainers.md", "Fresh maintainers.\n");
    machine.jp_kb_ok(&dir, &["learned", "add", "project", "code-quality"]);
    let connect = machine.jp_kb_ok(&dir, &["connect", "jp"]);
    machine.script_listing_and_subjects();
    let expected = machine.expected(&dir);
    let outside = machine.path().join("home");
    machine.query(&outside, Some(&dir)).assert_served(
        &expected,
        &format!("the first JP run, from elsewhere:\n{connect}"),
    );
    machine
        .query(&dir, None)
        .assert_served(&expected, "then inside");
}
