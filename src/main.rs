//! The `jp-kb` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 runtime error, 2 usage error).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(&cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", err.message);
            ExitCode::from(err.code)
        }
    }
}
