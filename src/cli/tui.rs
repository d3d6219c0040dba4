//! `jp-kb tui [--demo]`: starts the curator (see `jp_kb::tui`).

use std::process::ExitCode;

use clap::Args;
use jp_kb::tui::StartOptions;

use super::{Cli, CliError};

#[derive(Debug, Args)]
pub struct TuiArgs {
    /// Open the bundled demo workspace (a temporary copy) instead of the current one.
    #[arg(long)]
    pub demo: bool,
    /// Browse only: every edit (l, d, e, u, i, n, o, the pattern tester's Enter) is refused.
    #[arg(long)]
    pub read_only: bool,
}

pub fn run(cli: &Cli, args: &TuiArgs) -> Result<ExitCode, CliError> {
    let start = StartOptions {
        load: cli.load_options(),
        demo: args.demo,
        read_only: args.read_only,
    };
    jp_kb::tui::run(start).map_err(CliError::runtime)?;
    Ok(ExitCode::SUCCESS)
}
