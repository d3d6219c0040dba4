//! `jp-kb learned add|rm TOPIC PATTERN...` and `jp-kb disabled add|rm
//! TOPIC SLUG...`: edit a topic's `learned` or `disabled` list.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use jp_kb_core::edit::plan::{Intent, List};

use super::edits::{EditContext, EditOpts};
use super::output::CliError;

#[derive(Debug, Subcommand)]
pub enum ListCommand {
    /// Add entries (patterns for `learned`, slugs or globs for `disabled`).
    Add(ListArgs),
    /// Remove entries. Naming a subject that a glob selects says which
    /// pattern (and file) does, and offers the two fixes.
    Rm(RmArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    pub topic: String,
    #[arg(required = true, value_name = "ENTRY")]
    pub entries: Vec<String>,
    #[command(flatten)]
    pub opts: EditOpts,
}

#[derive(Debug, Args)]
pub struct RmArgs {
    #[command(flatten)]
    pub list: ListArgs,
    /// For a subject learned (or disabled) through a glob: replace the
    /// glob by the explicit slugs it selects, minus this one.
    #[arg(long)]
    pub expand: bool,
}

pub fn run(ctx: &EditContext<'_>, list: List, command: &ListCommand) -> Result<ExitCode, CliError> {
    match command {
        ListCommand::Add(args) => add(ctx, list, args),
        ListCommand::Rm(args) => remove(ctx, list, args),
    }
}

fn add(ctx: &EditContext<'_>, list: List, args: &ListArgs) -> Result<ExitCode, CliError> {
    let intent = Intent::Add {
        list,
        topic: args.topic.clone(),
        entries: args.entries.clone(),
    };
    ctx.run(&intent, &args.opts, false)?;
    ctx.report_topic(&args.topic);
    Ok(ExitCode::SUCCESS)
}

fn remove(ctx: &EditContext<'_>, list: List, args: &RmArgs) -> Result<ExitCode, CliError> {
    let a = &args.list;
    let intent = Intent::Remove {
        list,
        topic: a.topic.clone(),
        entries: a.entries.clone(),
    };
    // A refused or failed edit says why on stderr, and nothing on
    // stdout: a `now: …` line there read as a change made (issue 37).
    ctx.run(&intent, &a.opts, args.expand)?;
    if ctx.kb.topic(&a.topic).is_some() {
        ctx.report_topic(&a.topic);
    }
    Ok(ExitCode::SUCCESS)
}
