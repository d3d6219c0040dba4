//! `jp-kb topic add|set|unset|enable|disable|rm`: edit topics.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use jp_kb::display::escape_name;
use jp_kb::edit::plan::Planned;
use jp_kb::edit::target::{editable, enable_by_removal, for_field, for_new_topic};
use jp_kb::edit::{Edit, Field, FieldValue};

use super::edits::{EditContext, EditOpts};
use super::output::{CliError, print_human, warn};

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
    #[arg(value_parser = ["title", "introduction", "description", "subjects", "enable"])]
    pub field: String,
    pub value: String,
    #[command(flatten)]
    pub opts: EditOpts,
}

#[derive(Debug, Args)]
pub struct UnsetArgs {
    pub id: String,
    #[arg(value_parser = ["title", "introduction", "description", "subjects", "enable"])]
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
                Field::Enable => match args.value.as_str() {
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
        TopicCommand::Enable(args) => enable(ctx, args),
        TopicCommand::Disable(args) => set(
            ctx,
            &args.id,
            Field::Enable,
            Some(FieldValue::Bool(false)),
            &args.opts,
        ),
        TopicCommand::Rm(args) => remove(ctx, args),
    }
}

fn parse_field(name: &str) -> Result<Field, CliError> {
    Field::from_key(name).ok_or_else(|| {
        CliError::usage(format!(
            "unknown field `{name}`; valid: title, introduction, description, subjects, enable"
        ))
    })
}

fn add(ctx: &EditContext<'_>, args: &AddArgs) -> Result<ExitCode, CliError> {
    if let Some(existing) = ctx.kb.topic(&args.id) {
        return Err(CliError::runtime(format!(
            "topic `{}` already exists (declared at {}); use `jp-kb topic set` to change it",
            args.id,
            existing.config.origin.display_relative(ctx.kb.root())
        )));
    }
    let path = ctx
        .explicit_file(&args.opts)?
        .unwrap_or_else(|| for_new_topic(&ctx.kb.loaded).path);
    let edit = Edit::AddTopic {
        id: args.id.clone(),
        subjects: args.subjects.clone(),
        title: args.title.clone(),
        introduction: args.introduction.clone(),
        description: args.description.clone(),
    };
    ctx.carry_out(&[Planned { path, edit }], &args.opts, false)?;
    if !ctx.kb.root().join(&args.subjects).is_dir() {
        warn(&format!(
            "the subjects directory `{}` does not exist yet; create it and add files",
            escape_name(&args.subjects)
        ));
    }
    ctx.report_topic(&args.id);
    Ok(ExitCode::SUCCESS)
}

fn set(
    ctx: &EditContext<'_>,
    id: &str,
    field: Field,
    value: Option<FieldValue>,
    opts: &EditOpts,
) -> Result<ExitCode, CliError> {
    let Some(state) = ctx.kb.topic(id) else {
        return Err(CliError::runtime(format!(
            "unknown topic `{id}`; create it with `jp-kb topic add {id} --subjects DIR`"
        )));
    };
    let path = match ctx.explicit_file(opts)? {
        Some(path) => path,
        None => for_field(Some(&state.config), field.key(), ctx.kb.root()).path,
    };
    let declare = value.is_some();
    let edit = match value {
        Some(value) => Edit::SetField {
            topic: id.to_owned(),
            field,
            value,
        },
        None => Edit::UnsetField {
            topic: id.to_owned(),
            field,
        },
    };
    ctx.carry_out(&[Planned { path, edit }], opts, declare)?;
    ctx.report_topic(id);
    Ok(ExitCode::SUCCESS)
}

/// `topic enable`: removes the `enable = false` line when that is enough
/// (enabled is the default), else writes `enable = true`.
fn enable(ctx: &EditContext<'_>, args: &IdArgs) -> Result<ExitCode, CliError> {
    let by_removal = match (ctx.kb.topic(&args.id), ctx.explicit_file(&args.opts)?) {
        (Some(state), file) => {
            let file = file.unwrap_or_else(|| {
                for_field(Some(&state.config), Field::Enable.key(), ctx.kb.root()).path
            });
            enable_by_removal(&ctx.kb.loaded, &state.config, &file)
        }
        (None, _) => false,
    };
    let value = (!by_removal).then_some(FieldValue::Bool(true));
    set(ctx, &args.id, Field::Enable, value, &args.opts)
}

fn remove(ctx: &EditContext<'_>, args: &IdArgs) -> Result<ExitCode, CliError> {
    let planned: Vec<Planned> = if let Some(path) = ctx.explicit_file(&args.opts)? {
        vec![Planned {
            path,
            edit: Edit::RemoveTopic {
                topic: args.id.clone(),
            },
        }]
    } else {
        let mut files = Vec::new();
        for file in &ctx.kb.loaded.files {
            let declares = file.partial.topics.contains_key(&args.id);
            let origin = jp_kb::config::Origin::File {
                path: file.path.clone(),
                line: None,
            };
            if declares && editable(&origin).is_some() && !files.contains(&file.path) {
                files.push(file.path.clone());
            }
        }
        if files.is_empty() {
            print_human(&format!(
                "nothing changed: no TOML file declares topic `{}`",
                escape_name(&args.id)
            ));
            return Ok(ExitCode::SUCCESS);
        }
        files
            .into_iter()
            .map(|path| Planned {
                path,
                edit: Edit::RemoveTopic {
                    topic: args.id.clone(),
                },
            })
            .collect()
    };
    ctx.carry_out(&planned, &args.opts, false)?;
    ctx.report_topic(&args.id);
    Ok(ExitCode::SUCCESS)
}
