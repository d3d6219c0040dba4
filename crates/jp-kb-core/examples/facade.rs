//! A program outside jp-kb that uses only the core's documented façade.
//!
//! First as JP does, with the knowledge base inside it: JP's own loader
//! merged the `kb` tables, so the program hands the topics in
//! ([`KnowledgeBase::from_topics`]) and gets the `<knowledge>` section,
//! the `learn` tool's definition and a `learn` answer. Then (feature
//! `config`, on by default) as a curator does: the core reads the
//! workspace's files itself, plans a curation edit, applies it and undoes
//! it.
//!
//! `cargo run -p jp-kb-core --example facade [-- DIR]`: DIR is a JP
//! workspace to read with the core's loader (nothing is written there);
//! without it a small workspace is made in a temporary directory. The
//! core's test `facade_example` compiles this file into its own binary (an
//! outside crate's view of the core) and runs [`run`].

use std::error::Error;
use std::io::Write;
use std::path::Path;

use jp_kb_core::{KnowledgeBase, TopicConfig};

#[allow(dead_code, reason = "the test calls `run`, not `main`")]
fn main() -> Result<(), Box<dyn Error>> {
    let given = std::env::args_os().nth(1);
    run(
        given.as_deref().map(Path::new),
        &mut std::io::stdout().lock(),
    )
}

/// Reads the workspace at `given`, or a demo one (to which the edit is
/// applied), writing what it finds to `out`.
///
/// # Errors
/// Loading, planning or applying failed.
pub fn run(given: Option<&Path>, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let scratch = tempfile::tempdir()?;
    if let Some(dir) = given {
        return read_files(dir, out);
    }
    let root = demo(scratch.path())?;
    host(&root, out)?;
    curate(&root, out)
}

/// What a host with its own configuration loader does: the topics it
/// merged (here written out by hand), then the texts.
fn host(root: &Path, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let mut project = TopicConfig::new("project", ".jp/kb/project");
    project.title = Some("Project".to_owned());
    project.learned = vec!["style".to_owned()];
    let kb = KnowledgeBase::from_topics(root, [project]);

    writeln!(out, "== section")?;
    writeln!(out, "{}", kb.knowledge_section().unwrap_or_default())?;
    writeln!(out, "== tool")?;
    writeln!(out, "{}", kb.tool_definition().unwrap_or_default())?;
    writeln!(out, "== learn project")?;
    writeln!(out, "{}", kb.learn("project", None).text())?;
    writeln!(out, "== learn project people")?;
    let people = kb.learn("project", Some(&["people".to_owned()]));
    writeln!(out, "{}", people.text())?;
    Ok(())
}

/// The workspace at `dir`, read with the core's own loader.
#[cfg(feature = "config")]
fn read_files(dir: &Path, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    use jp_kb_core::{Environment, LoadOptions};

    let options = LoadOptions::default().workspace(dir);
    let kb = KnowledgeBase::load(&Environment::workspace_only(dir), &options)?;
    writeln!(out, "== section")?;
    writeln!(out, "{}", kb.knowledge_section().unwrap_or_default())?;
    writeln!(out, "== learn project")?;
    writeln!(out, "{}", kb.learn("project", None).text())?;
    Ok(())
}

#[cfg(not(feature = "config"))]
fn read_files(_: &Path, _: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    Err("reading a workspace's files needs the core's `config` feature".into())
}

/// Pre-loads `people` in the demo's files: planned, carried out by the
/// one apply, then undone.
#[cfg(feature = "config")]
fn curate(root: &Path, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    use jp_kb_core::edit::plan::{self, Answer, Intent, List, Workspace};
    use jp_kb_core::edit::{Journal, apply};
    use jp_kb_core::{Environment, LoadOptions};

    let options = LoadOptions::default().workspace(root);
    let load = || KnowledgeBase::load(&Environment::workspace_only(root), &options);
    let kb = load()?;
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
    let section = load()?.knowledge_section().unwrap_or_default();
    let preloaded = section.contains("Ask Ada.");
    writeln!(out, "== section now pre-loads people: {preloaded}")?;
    journal.undo()?;
    writeln!(out, "== undone")?;
    Ok(())
}

#[cfg(not(feature = "config"))]
fn curate(_: &Path, _: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    Ok(())
}

/// A workspace with one topic, `project`: `style` pre-loaded, `people`
/// available. Its `.jp/kb.toml` says what [`host`] hands in by hand.
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
