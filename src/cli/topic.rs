//! `jp-kb topic add|set|unset|enable|disable|rm`: edit topics.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use jp_kb_core::edit::plan::{FieldValue, Intent, TopicField};

use super::edits::{EditContext, EditOpts};
use super::output::CliError;

#[derive(Debug, Subcommand)]
pub enum TopicCommand {
    /// Create a topic.
    Add(AddArgs),
    /// Set a field: title, introduction, description, subjects or enable.
    Set(SetArgs),
    /// Remove a field from the file (lower layers' value, or the default, applies).
    Unset(UnsetArgs),
    /// Set `enable = true`.
    Enable(IdArgs),
    /// Set `enable = false`: the assistant sees nothing of the topic.
    Disable(IdArgs),
    /// Remove the topic from every TOML file that declares it (or only --file).
    Rm(IdArgs),
}

#[derive(Debug, Args)]
pub struct AddArgs {
    pub id: String,
    /// The subjects directory, relative to the workspace root.
    #[arg(long, value_name = "DIR")]
    pub subjects: String,
    #[arg(long)]
    pub title: Option<String>,
    #[arg(long)]
    pub introduction: Option<String>,
    #[arg(long)]
    pub description: Option<String>,
    #[command(flatten)]
    pub opts: EditOpts,
}

#[derive(Debug, Args)]
pub struct SetArgs {
    pub id: String,
    #[arg(value_parser = scalar_keys())]
    pub field: String,
    pub value: String,
    #[command(flatten)]
    pub opts: EditOpts,
}

#[derive(Debug, Args)]
pub struct UnsetArgs {
    pub id: String,
    #[arg(value_parser = scalar_keys())]
    pub field: String,
    #[command(flatten)]
    pub opts: EditOpts,
}

#[derive(Debug, Args)]
pub struct IdArgs {
    pub id: String,
    #[command(flatten)]
    pub opts: EditOpts,
}

pub fn run(ctx: &EditContext<'_>, command: &TopicCommand) -> Result<ExitCode, CliError> {
    match command {
        TopicCommand::Add(args) => add(ctx, args),
        TopicCommand::Set(args) => {
            let field = parse_field(&args.field)?;
            let value = match field {
                TopicField::Enable => match args.value.as_str() {
                    "true" => FieldValue::Bool(true),
                    "false" => FieldValue::Bool(false),
                    _ => return Err(CliError::usage("`enable` takes `true` or `false`")),
                },
                _ => FieldValue::Text(args.value.clone()),
            };
            set(ctx, &args.id, field, Some(value), &args.opts)
        }
        TopicCommand::Unset(args) => {
            set(ctx, &args.id, parse_field(&args.field)?, None, &args.opts)
        }
        TopicCommand::Enable(args) => enable(ctx, args, true),
        TopicCommand::Disable(args) => enable(ctx, args, false),
        TopicCommand::Rm(args) => remove(ctx, args),
    }
}

/// The fields `set` and `unset` take (the lists are edited entry by entry).
fn scalar_keys() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(TopicField::SCALARS.map(TopicField::key))
}

fn parse_field(name: &str) -> Result<TopicField, CliError> {
    TopicField::from_key(name)
        .filter(|f| TopicField::SCALARS.contains(f))
        .ok_or_else(|| {
            CliError::usage(format!(
                "unknown field `{name}`; valid: {}",
                TopicField::keys(&TopicField::SCALARS)
            ))
        })
}

fn add(ctx: &EditContext<'_>, args: &AddArgs) -> Result<ExitCode, CliError> {
    let intent = Intent::NewTopic {
        id: args.id.clone(),
        subjects: args.subjects.clone(),
        title: args.title.clone(),
        introduction: args.introduction.clone(),
        description: args.description.clone(),
    };
    ctx.run(&intent, &args.opts, false)?;
    ctx.report_topic(&args.id);
    Ok(ExitCode::SUCCESS)
}

fn set(
    ctx: &EditContext<'_>,
    id: &str,
    field: TopicField,
    value: Option<FieldValue>,
    opts: &EditOpts,
) -> Result<ExitCode, CliError> {
    let intent = Intent::Fields {
        topic: id.to_owned(),
        fields: vec![(field, value)],
    };
    ctx.run(&intent, opts, false)?;
    ctx.report_topic(id);
    Ok(ExitCode::SUCCESS)
}

/// `topic enable`/`disable`: enabling removes the `enable = false` line
/// when that is enough (enabled is the default), else writes `enable =
/// true`.
fn enable(ctx: &EditContext<'_>, args: &IdArgs, enable: bool) -> Result<ExitCode, CliError> {
    let intent = Intent::Enable {
        topic: args.id.clone(),
        enable,
    };
    ctx.run(&intent, &args.opts, false)?;
    ctx.report_topic(&args.id);
    Ok(ExitCode::SUCCESS)
}

fn remove(ctx: &EditContext<'_>, args: &IdArgs) -> Result<ExitCode, CliError> {
    let intent = Intent::RemoveTopic {
        topic: args.id.clone(),
    };
    if ctx.run(&intent, &args.opts, false)? {
        ctx.report_topic(&args.id);
    }
    Ok(ExitCode::SUCCESS)
}
