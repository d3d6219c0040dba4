//! `jp-kb learned add|rm TOPIC PATTERN...` and `jp-kb disabled add|rm
//! TOPIC SLUG...`: edit a topic's `learned` or `disabled` list.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use jp_kb::display::escape_name;
use jp_kb::edit::plan::{List, Planned, Removal, list_edit, plan_removal};
use jp_kb::edit::target::for_lists;
use jp_kb::subjects::PatternList;

use super::edits::{EditContext, EditOpts};
use super::output::{CliError, print_human, warn};

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
    /// For a subject learned through a glob: replace the glob by the
    /// explicit slugs it selects, minus this one.
    #[arg(long)]
    pub expand: bool,
}

pub fn run(ctx: &EditContext<'_>, list: List, command: &ListCommand) -> Result<ExitCode, CliError> {
    match command {
        ListCommand::Add(args) => add(ctx, list, args),
        ListCommand::Rm(args) => remove(ctx, list, args),
    }
}

fn known_topic<'a>(
    ctx: &'a EditContext<'_>,
    topic: &str,
) -> Result<&'a jp_kb::topic::TopicState, CliError> {
    ctx.kb.topic(topic).ok_or_else(|| {
        let ids: Vec<&str> = ctx
            .kb
            .topics
            .iter()
            .map(jp_kb::topic::TopicState::id)
            .collect();
        CliError::runtime(format!(
            "unknown topic `{topic}`; valid topics: {} (create one with `jp-kb topic add`)",
            if ids.is_empty() {
                "(none)".to_owned()
            } else {
                ids.join(", ")
            }
        ))
    })
}

fn add(ctx: &EditContext<'_>, list: List, args: &ListArgs) -> Result<ExitCode, CliError> {
    let state = known_topic(ctx, &args.topic)?;
    let path = match ctx.explicit_file(&args.opts)? {
        Some(path) => path,
        None => for_lists(Some(&state.config), ctx.kb.root()).path,
    };
    warn_selecting_nothing(state, list, &args.entries);
    let edit = list_edit(list, &args.topic, args.entries.clone(), true);
    ctx.carry_out(&[Planned { path, edit }], &args.opts, true)?;
    ctx.report_topic(&args.topic);
    Ok(ExitCode::SUCCESS)
}

/// Patterns that select no subject are written anyway (the files may come
/// later) but never silently.
fn warn_selecting_nothing(state: &jp_kb::topic::TopicState, list: List, entries: &[String]) {
    let Some(r) = state.resolution() else {
        return;
    };
    let patterns = PatternList::new(entries);
    let subjects = r.subjects();
    let per = match list {
        List::Learned => patterns.select_per_pattern(subjects, &|_| true),
        List::Disabled => {
            let firsts = patterns.first_match_any(subjects);
            (0..entries.len())
                .map(|p| {
                    firsts
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| **f == Some(p))
                        .map(|(i, _)| i)
                        .collect()
                })
                .collect()
        }
    };
    for (entry, hits) in entries.iter().zip(per) {
        if hits.is_empty() {
            warn(&format!(
                "`{}` selects no subject of topic `{}` (yet)",
                escape_name(entry),
                escape_name(state.id())
            ));
        }
    }
}

fn remove(ctx: &EditContext<'_>, list: List, args: &RmArgs) -> Result<ExitCode, CliError> {
    let a = &args.list;
    let state = known_topic(ctx, &a.topic)?;
    if let Some(path) = ctx.explicit_file(&a.opts)? {
        let edit = list_edit(list, &a.topic, a.entries.clone(), false);
        ctx.carry_out(&[Planned { path, edit }], &a.opts, false)?;
        ctx.report_topic(&a.topic);
        return Ok(ExitCode::SUCCESS);
    }
    let mut refused = Vec::new();
    for entry in &a.entries {
        match plan_removal(state, ctx.kb.root(), list, entry) {
            Removal::Edits(planned) => {
                ctx.carry_out(&planned, &a.opts, false)?;
            }
            Removal::Nothing(why) => {
                print_human(&format!("nothing changed: {}", escape_name(&why)));
            }
            Removal::NotInAFile(why) => refused.push(why),
            Removal::ViaGlob(choice) => {
                if args.expand {
                    ctx.carry_out(std::slice::from_ref(&choice.expand), &a.opts, false)?;
                } else {
                    refused.push(format!(
                        "`{}` is learned through the glob `{}` ({}), not by an entry of its own. Either:\n  remove the pattern (un-learns everything it selects):\n    jp-kb learned rm {} '{}'\n  or replace it by the {} it selects, minus this one:\n    jp-kb learned rm {} '{}' --expand",
                        choice.slug,
                        choice.pattern,
                        choice.origin.display_relative(ctx.kb.root()),
                        a.topic,
                        choice.pattern,
                        jp_kb::plural::count(choice.replacement.len(), "slug", "slugs"),
                        a.topic,
                        choice.slug
                    ));
                }
            }
        }
    }
    ctx.report_topic(&a.topic);
    if refused.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(CliError::runtime(refused.join("\n")))
    }
}
