//! `jp-kb tui [--demo]`: starts the curator (see `jp_kb::tui`).

use std::process::ExitCode;

use clap::Args;
use jp_kb::config::LoadOptions;
use jp_kb::tui::StartOptions;

use super::{Cli, CliError};

#[derive(Debug, Args)]
pub struct TuiArgs {
    /// Open the bundled demo workspace (a temporary copy) instead of the current one.
    #[arg(long)]
    pub demo: bool,
}

pub fn run(cli: &Cli, args: &TuiArgs) -> Result<ExitCode, CliError> {
    let start = StartOptions {
        load: LoadOptions {
            workspace: cli.workspace.clone(),
            cfg: cli.cfg.clone(),
            knowledge: cli.knowledge.clone(),
        },
        demo: args.demo,
    };
    jp_kb::tui::run(start).map_err(CliError::runtime)?;
    Ok(ExitCode::SUCCESS)
}
