//! `jp-kb init`: adopt, in place, what other assistants read in this
//! repository (`CLAUDE.md`, `AGENTS.md`, rules, skills: see
//! `jp_kb_core::internal::adopt`), or, when there is none, scaffold
//! `.jp/kb.toml` with a commented example topic and one example subject.
//! Never overwrites, never writes outside `.jp/`, never touches JP's own
//! files, never hides a `kb.json`/`kb.yaml`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jp_kb_core::Environment;
use jp_kb_core::adopt::{
    AdoptError, Applied, Choices, Found, Plan, State, apply, find, plan, preview,
};

use super::init_plan;
use super::output::CliError;

const CONFIG: &str = include_str!("../../assets/init/kb.toml");
const SUBJECT: &str = include_str!("../../assets/init/conventions.md");

/// What a gated file becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GatedArg {
    /// Listed by `learn`; the gate goes in the topic's description.
    Learnable,
    /// Pre-loaded into every session.
    Learned,
}

#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// Print the plan (each file found, its topic, slug and state, and what
    /// the assistant would see) and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// What a file gated by paths (`paths:`, `globs:`, `applyTo`) or by its
    /// directory (a nested AGENTS.md) becomes: JP cannot wait for matching
    /// files.
    #[arg(long, value_enum, default_value = "learnable")]
    pub gated: GatedArg,
    /// Pre-load this file (a path the plan lists). Repeatable.
    #[arg(long, value_name = "PATH")]
    pub learned: Vec<String>,
    /// Make this file learnable. Repeatable.
    #[arg(long, value_name = "PATH")]
    pub learnable: Vec<String>,
    /// Leave this file out. Repeatable.
    #[arg(long, value_name = "PATH")]
    pub skip: Vec<String>,
    /// Scaffold the example topic even where there are files to adopt.
    #[arg(long)]
    pub example: bool,
}

impl InitArgs {
    fn choices(&self) -> Result<Choices, CliError> {
        let mut files = BTreeMap::new();
        for (paths, state) in [
            (&self.learned, State::Learned),
            (&self.learnable, State::Learnable),
            (&self.skip, State::Skipped),
        ] {
            for path in paths {
                let path = path.trim_start_matches("./").to_owned();
                if files
                    .insert(path.clone(), state)
                    .is_some_and(|s| s != state)
                {
                    return Err(CliError::usage(format!(
                        "{path} is given two states; choose one of --learned, --learnable, --skip"
                    )));
                }
            }
        }
        Ok(Choices {
            gated: match self.gated {
                GatedArg::Learnable => State::Learnable,
                GatedArg::Learned => State::Learned,
            },
            files,
        })
    }
}

pub fn run(
    env: &Environment,
    workspace: Option<&Path>,
    args: &InitArgs,
) -> Result<ExitCode, CliError> {
    let root = workspace.map_or_else(|| env.cwd.clone(), |w| env.cwd.join(w));
    if !root.is_dir() {
        return Err(CliError::runtime(format!(
            "{} is not a directory",
            root.display()
        )));
    }
    let choices = args.choices()?;
    let root = root
        .canonicalize()
        .map_err(|e| CliError::runtime(format!("{}: {e}", root.display())))?;
    let found = if args.example {
        Found::default()
    } else {
        find(&root)
    };
    let plan = plan(&found, &choices).map_err(CliError::usage)?;
    if plan.adopted().next().is_none() {
        if args.dry_run || args.json {
            init_plan::print_nothing(&plan, args.json);
            return Ok(ExitCode::SUCCESS);
        }
        let done = scaffold(&root, env.jp.reads_kb())?;
        into_jp_files(env, &root, &mut |text| print!("{text}"))?;
        return Ok(done);
    }
    let seen = preview(&plan);
    if args.json {
        let outcome = if args.dry_run {
            None
        } else {
            let outcome = adopt(&root, &plan)?;
            // stdout holds the JSON.
            into_jp_files(env, &root, &mut |text| eprint!("{text}"))?;
            Some(outcome)
        };
        init_plan::print_json(&plan, &seen, outcome.as_ref());
        return Ok(ExitCode::SUCCESS);
    }
    init_plan::print_plan(&plan, &seen);
    if args.dry_run {
        init_plan::print_dry_run(&plan);
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = adopt(&root, &plan)?;
    init_plan::print_outcome(&plan, &outcome);
    into_jp_files(env, &root, &mut |text| print!("{text}"))?;
    Ok(ExitCode::SUCCESS)
}

/// With a JP that has the knowledge base inside (docs/jp-inside.md), the
/// tables just written to `.jp/kb.toml`, a file that JP never reads, move
/// into `.jp/config.toml` as `jp-kb migrate` moves them, byte for byte.
fn into_jp_files(
    env: &Environment,
    root: &Path,
    say: &mut dyn FnMut(&str),
) -> Result<(), CliError> {
    if env.jp.reads_kb() {
        say("the JP here has the knowledge base inside and never reads .jp/kb.toml:\n");
    }
    jp_kb::kb_tables::after_init(env, root, say, &mut |text| eprint!("{text}"))
        .map_err(CliError::runtime)?;
    Ok(())
}

fn adopt(root: &Path, plan: &Plan) -> Result<Applied, CliError> {
    apply(root, plan).map_err(|e| match e {
        AdoptError::Exists(_) | AdoptError::Occupied { .. } | AdoptError::Shadowed { .. } => {
            CliError::runtime(e)
        }
        AdoptError::Write(w) => CliError::runtime(w),
    })
}

/// The example topic: `.jp/kb.toml` and `.jp/kb/project/conventions.md`.
fn scaffold(root: &Path, moved_next: bool) -> Result<ExitCode, CliError> {
    let root: PathBuf = root.to_path_buf();
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
    let bounds = jp_kb_core::edit::Boundaries::new([root.clone()]);
    // Checked before anything is written: no half-made workspace.
    for path in [&config, &subject] {
        bounds
            .resolve(path)
            .map_err(|e| CliError::runtime(e.to_string()))?;
    }
    // `None`: the file must not exist, so a concurrent init cannot clobber.
    jp_kb_core::internal::edit::write_atomic(&bounds, &config, None, CONFIG.as_bytes())
        .map_err(|e| CliError::runtime(e.to_string()))?;
    if moved_next {
        println!("created .jp/kb.toml (topic `project`)");
    } else {
        println!("created .jp/kb.toml (topic `project`; JP's own files untouched)");
    }
    match jp_kb_core::internal::edit::write_atomic(&bounds, &subject, None, SUBJECT.as_bytes()) {
        Ok(()) => println!("created .jp/kb/project/conventions.md (an example subject)"),
        Err(jp_kb_core::edit::WriteError::Conflict { .. }) => {
            println!("kept the existing .jp/kb/project/conventions.md");
        }
        Err(e) => return Err(CliError::runtime(e.to_string())),
    }
    println!("next: `jp-kb list project --all`, `jp-kb prompt`, or `jp-kb tui`");
    Ok(ExitCode::SUCCESS)
}
