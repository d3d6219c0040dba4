//! `jp-kb check [--json] [--deny-warnings]`: lint the knowledge base
//! (`docs/check.md` lists every finding). Unlike the other commands, a
//! configuration that does not load is reported as a finding, not as an
//! early error. Exit status 1 when an error is found (or a warning, with
//! `--deny-warnings`), else 0.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Args;
use jp_kb_core::check::{HumanStyle, Thresholds, check, render_human, render_json_lines};
use jp_kb_core::{Environment, LoadOptions};

use super::output::CliError;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print one JSON object per finding, one per line (JSON Lines), with the
    /// keys code, severity, message, file, line, column, topic, subject, hint.
    #[arg(long)]
    pub json: bool,
    /// Exit with status 1 on warnings too (for CI).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Report a subject larger than N tokens (`o200k_base`).
    #[arg(long, value_name = "N", default_value_t = Thresholds::DEFAULT_MAX_SUBJECT_TOKENS)]
    pub max_subject_tokens: usize,
    /// Report a <knowledge> section larger than N tokens (`o200k_base`).
    #[arg(long, value_name = "N", default_value_t = Thresholds::DEFAULT_MAX_PROMPT_TOKENS)]
    pub max_prompt_tokens: usize,
    /// Also warn (KB122) when part of the <knowledge> section or the tool's
    /// topic list does not reach this client's model, as its configuration
    /// in the workspace sets it up; report what in its setup keeps it from
    /// getting what `connect` set up.
    #[arg(long, value_name = "NAME", value_parser = super::connect::client_names())]
    pub client: Option<String>,
}

pub fn run(
    env: &Environment,
    options: &LoadOptions,
    args: &CheckArgs,
) -> Result<ExitCode, CliError> {
    let thresholds = Thresholds::default()
        .max_subject_tokens(args.max_subject_tokens)
        .max_prompt_tokens(args.max_prompt_tokens)
        .today(Some(jp_kb::today::today()));
    let mut report = check(env, options, &thresholds);
    if let Some(client) = &args.client {
        let findings = client_findings(env, options, client)?;
        jp_kb_core::check::add_client_findings(&mut report, findings);
    }
    jp_kb::hints::with_commands(&mut report);
    let text = if args.json {
        render_json_lines(&report)
    } else {
        render_human(&report, human_style())
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    drop(out);
    if !args.json {
        // Informational only (stderr, never a finding, never the exit
        // status): what the usage ledger says about pre-loaded subjects.
        super::usage::check_note(env, options);
    }
    Ok(if report.fails(args.deny_warnings) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// KB122 findings for `client`; none when the configuration does not load
/// (the report already says why).
fn client_findings(
    env: &Environment,
    options: &LoadOptions,
    client: &str,
) -> Result<Vec<jp_kb_core::check::Finding>, CliError> {
    let profile = jp_kb_core::clients::profile(client).map_err(CliError::usage)?;
    let Ok(kb) = jp_kb_core::KnowledgeBase::load(env, options) else {
        return Ok(Vec::new());
    };
    let setup = jp_kb_core::clients::read_setup(kb.root(), &profile).map_err(CliError::runtime)?;
    let arrivals = jp_kb_core::clients::arrivals(&kb, &profile, &setup);
    let mut findings = jp_kb_core::check::client_findings(&kb, &profile, &setup, &arrivals);
    findings.extend(jp_kb_core::check::setup_findings(&kb, &profile));
    Ok(findings)
}

/// Colour only on a terminal, and never when `NO_COLOR` is set to
/// anything (<https://no-color.org>).
fn human_style() -> HumanStyle {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    HumanStyle::default().color(!no_color && std::io::stdout().is_terminal())
}
