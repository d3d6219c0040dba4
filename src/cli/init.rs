//! `jp-kb init`: scaffold `.jp/kb.toml` with a commented example topic
//! and its subjects directory with one example subject. Never overwrites,
//! never touches JP's own files, never hides a `kb.json`/`kb.yaml`.

use std::path::Path;
use std::process::ExitCode;

use jp_kb_core::internal::config::Environment;

use super::output::CliError;

const CONFIG: &str = include_str!("../../assets/init/kb.toml");
const SUBJECT: &str = include_str!("../../assets/init/conventions.md");

pub fn run(env: &Environment, workspace: Option<&Path>) -> Result<ExitCode, CliError> {
    let root = workspace.map_or_else(|| env.cwd.clone(), |w| env.cwd.join(w));
    if !root.is_dir() {
        return Err(CliError::runtime(format!(
            "{} is not a directory",
            root.display()
        )));
    }
    let config = jp_kb_core::internal::edit::target::workspace_file(&root);
    if let Some(hidden) = jp_kb_core::internal::config::workspace::shadowed_by_creating(&config) {
        return Err(CliError::runtime(format!(
            "{} exists; jp-kb init would create {} beside it, which would hide it: nothing created \
             (add topics to it by hand, or with `jp-kb topic add ... --file PATH` naming a TOML file)",
            hidden.display(),
            config.display()
        )));
    }
    if config.exists() {
        return Err(CliError::runtime(format!(
            "{} already exists; jp-kb init never overwrites (see `jp-kb topic add` to add a topic)",
            config.display()
        )));
    }
    let subjects = jp_kb_core::internal::config::workspace::jp_dir(&root)
        .join("kb")
        .join("project");
    let subject = subjects.join("conventions.md");
    // Both files (and `.jp/kb/project/`) land inside the workspace or
    // not at all: a committed `.jp/kb -> ~/dir` is refused, naming ~/dir.
    let bounds = jp_kb_core::internal::edit::Boundaries::new([root.clone()]);
    // Checked before anything is written: no half-made workspace.
    for path in [&config, &subject] {
        bounds
            .resolve(path)
            .map_err(|e| CliError::runtime(e.to_string()))?;
    }
    // `None`: the file must not exist, so a concurrent init cannot clobber.
    jp_kb_core::internal::edit::write_atomic(&bounds, &config, None, CONFIG.as_bytes())
        .map_err(|e| CliError::runtime(e.to_string()))?;
    println!("created .jp/kb.toml (topic `project`; JP's own files untouched)");
    match jp_kb_core::internal::edit::write_atomic(&bounds, &subject, None, SUBJECT.as_bytes()) {
        Ok(()) => println!("created .jp/kb/project/conventions.md (an example subject)"),
        Err(jp_kb_core::internal::edit::WriteError::Conflict { .. }) => {
            println!("kept the existing .jp/kb/project/conventions.md");
        }
        Err(e) => return Err(CliError::runtime(e.to_string())),
    }
    println!("next: `jp-kb list project --all`, `jp-kb prompt`, or `jp-kb tui`");
    Ok(ExitCode::SUCCESS)
}
