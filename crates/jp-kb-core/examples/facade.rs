//! A program outside jp-kb that uses only the core's documented façade:
//! it computes the `<knowledge>` section and a `learn` answer for a
//! workspace, then plans and applies a curation edit and undoes it.
//!
//! `cargo run -p jp-kb-core --example facade [-- DIR]`: DIR is a JP
//! workspace to read (nothing is written there); without it a small
//! workspace is made in a temporary directory, and the edit is applied to
//! it. The core's test `facade_example` compiles this file into its own
//! binary (an outside crate's view of the core) and runs [`run`].

use std::error::Error;
use std::io::Write;
use std::path::Path;

use jp_kb_core::edit::plan::{self, Answer, Intent, List, Workspace};
use jp_kb_core::edit::{Journal, apply};
use jp_kb_core::{Environment, KnowledgeBase, LoadOptions};

#[allow(dead_code, reason = "the test calls `run`, not `main`")]
fn main() -> Result<(), Box<dyn Error>> {
    let given = std::env::args_os().nth(1);
    run(
        given.as_deref().map(Path::new),
        &mut std::io::stdout().lock(),
    )
}

/// Reads the workspace at `given` (or a demo one, to which the edit is
/// applied), writing what it finds to `out`.
///
/// # Errors
/// Loading, planning or applying failed.
pub fn run(given: Option<&Path>, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let scratch = tempfile::tempdir()?;
    let root = match given {
        Some(dir) => dir.to_path_buf(),
        None => demo(scratch.path())?,
    };
    let options = LoadOptions::default().workspace(&root);
    let kb = KnowledgeBase::load(&Environment::workspace_only(&root), &options)?;

    writeln!(out, "== section")?;
    writeln!(out, "{}", kb.knowledge_section().unwrap_or_default())?;
    writeln!(out, "== learn project")?;
    writeln!(out, "{}", kb.learn("project", None).text())?;
    writeln!(out, "== learn project people")?;
    let people = kb.learn("project", Some(&["people".to_owned()]));
    writeln!(out, "{}", people.text())?;
    if given.is_some() {
        return Ok(());
    }

    // Pre-load `people`: planned, then carried out by the one apply.
    let intent = Intent::Add {
        list: List::Learned,
        topic: "project".into(),
        entries: vec!["people".into()],
    };
    let Answer::Do(plan) = plan::plan(&Workspace::new(&kb), &intent) else {
        return Err("a plain addition needs no choice".into());
    };
    let mut journal = Journal::new(kb.boundaries());
    for written in apply(&plan, &mut journal)? {
        writeln!(out, "== applied: {}", written.applied.summary)?;
    }
    let after = KnowledgeBase::load(&Environment::workspace_only(&root), &options)?;
    let section = after.knowledge_section().unwrap_or_default();
    let preloaded = section.contains("Ask Ada.");
    writeln!(out, "== section now pre-loads people: {preloaded}")?;
    journal.undo()?;
    writeln!(out, "== undone")?;
    Ok(())
}

/// A workspace with one topic, `project`: `style` pre-loaded, `people`
/// available.
fn demo(dir: &Path) -> std::io::Result<std::path::PathBuf> {
    let root = dir.canonicalize()?;
    std::fs::create_dir_all(root.join(".jp/kb/project"))?;
    std::fs::write(
        root.join(".jp/kb.toml"),
        "[kb.topic.project]\ntitle = \"Project\"\nsubjects = \".jp/kb/project\"\nlearned = [\"style\"]\n",
    )?;
    std::fs::write(root.join(".jp/kb/project/style.md"), "Tabs, not spaces.\n")?;
    std::fs::write(root.join(".jp/kb/project/people.md"), "Ask Ada.\n")?;
    Ok(root)
}
