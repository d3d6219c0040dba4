//! The command line: argument definitions and dispatch. Each command lives
//! in its own file and only parses, calls the library and prints.

mod check;
mod learn;
mod list;
mod output;
mod prompt;
mod schema;
mod tui;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jp_kb::KnowledgeBase;
use jp_kb::config::{ConfigError, Environment, LoadOptions};

pub use output::CliError;

const AFTER_HELP: &str = "\
Examples:
  jp-kb list                              topics, with subject counts
  jp-kb list project --all                every subject of `project`, hidden and disabled too
  jp-kb prompt                            the <knowledge> section the assistant gets
  jp-kb -k 'project/maintainers/*' prompt the same, with maintainers pre-loaded
  jp-kb learn project                     what `learn(topic: \"project\")` returns
  jp-kb learn project 'maintainers/*'     what loading those subjects returns
  jp-kb schema                            the `learn` tool definition
  jp-kb check --deny-warnings             lint the knowledge base (for CI)

Configuration is read the way JP reads it: user-global config, .jp/config.toml
(with `extends`), .jp.toml files up to the current directory, the
user-workspace config, then --cfg values and -k flags.";

/// Curate the knowledge base of the JP assistant and see exactly what it is shown.
#[derive(Debug, Parser)]
#[command(name = "jp-kb", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    /// Workspace root (default: the nearest directory upwards holding `.jp/`).
    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    /// A config override: `key=value`, `key+=item`, `key:=JSON`, a config
    /// file, or a name searched in `config_load_paths`. Repeatable.
    #[arg(long = "cfg", global = true, value_name = "VALUE")]
    pub cfg: Vec<String>,

    /// Pre-load subjects: `TOPIC/GLOB`, appended to that topic's `learned`.
    /// Repeatable.
    #[arg(
        short = 'k',
        long = "knowledge",
        global = true,
        value_name = "TOPIC/GLOB"
    )]
    pub knowledge: Vec<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List topics, or the subjects of one topic with their states and sizes.
    #[command(after_help = "\
Markers: L learned (pre-loaded into the system prompt), H hidden (loadable only by
exact slug), D disabled (never shown). `list` reads no file contents; --tokens
reads every listed file to count tokens (o200k_base) and detect binary files.")]
    List(list::ListArgs),
    /// Print the <knowledge> system-prompt section (nothing when it is absent).
    Prompt(prompt::PromptArgs),
    /// Print what the `learn` tool returns: the listing, or the loaded subjects.
    Learn(learn::LearnArgs),
    /// Print the `learn` tool definition as JSON (nothing when no topic is learnable).
    Schema,
    /// Lint the knowledge base: configuration errors, patterns that match
    /// nothing, oversized subjects, topics the assistant cannot use.
    #[command(after_help = "\
Exit status: 1 when an error is found (or a warning, with --deny-warnings), else 0.
Every finding has a stable code (KB001…); docs/check.md explains each one.")]
    Check(check::CheckArgs),
    /// The curator: browse topics and subjects, toggle learned/disabled, preview
    /// exactly what the assistant sees (opens the bundled demo when no workspace is found).
    Tui(tui::TuiArgs),
}

/// Runs the parsed command line; returns the process exit code.
pub fn run(cli: &Cli) -> Result<ExitCode, CliError> {
    if let Command::Tui(args) = &cli.command {
        return tui::run(cli, args);
    }
    let env = Environment::from_process()
        .map_err(|e| CliError::runtime(format!("cannot read the current directory: {e}")))?;
    let options = LoadOptions {
        workspace: cli.workspace.clone(),
        cfg: cli.cfg.clone(),
        knowledge: cli.knowledge.clone(),
    };
    // `check` reports a configuration that does not load as a finding.
    if let Command::Check(args) = &cli.command {
        return check::run(&env, &options, args);
    }
    let kb = KnowledgeBase::load(&env, &options).map_err(|e| config_error(&e))?;
    output::print_config_warnings(&kb);
    match &cli.command {
        Command::List(args) => list::run(&kb, args),
        Command::Prompt(args) => prompt::run(&kb, args),
        Command::Learn(args) => learn::run(&kb, args),
        Command::Schema => schema::run(&kb),
        Command::Check(args) => check::run(&env, &options, args),
        Command::Tui(_) => Ok(ExitCode::SUCCESS),
    }
}

fn config_error(err: &ConfigError) -> CliError {
    if err.is_usage() {
        CliError::usage(err.to_string())
    } else {
        CliError::runtime(err.to_string())
    }
}
