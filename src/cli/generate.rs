//! `jp-kb completions SHELL` and `jp-kb man`: shell completion scripts and a
//! roff man page, both generated from the clap definition in `cli/mod.rs`, so
//! they can never drift from the real arguments.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, CliError};

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the completion script for `args.shell` to stdout.
pub fn completions(args: &CompletionsArgs) -> Result<ExitCode, CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "jp-kb", &mut script);
    write_stdout(&script)
}

/// Writes the man page (roff, section 1) to stdout.
pub fn man() -> Result<ExitCode, CliError> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| CliError::runtime(format!("cannot render the man page: {e}")))?;
    write_stdout(&page)
}

/// A closed pipe (`jp-kb man | head`) is not an error; other write
/// failures are.
fn write_stdout(bytes: &[u8]) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(CliError::runtime(format!("cannot write to stdout: {e}"))),
    }
}
