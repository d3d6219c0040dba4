//! The `jp-kb` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 runtime error, 2 usage error).

// First: its print macros replace std's in every module below.
#[macro_use]
mod stdio;
mod cli;

use std::process::ExitCode;

use clap::Parser;
use jp_kb_core::display::escape_lines;

/// The encoder allocates and frees buffers of tens of megabytes at every
/// step; glibc returns them to the kernel each time and the next step
/// faults them in again. mimalloc keeps them: a first build of the
/// embeddings takes 6–19 % less wall time (docs/perf.md).
#[cfg(feature = "semantic")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(&cli) {
        Ok(code) => code,
        Err(err) => {
            // Messages quote names from files and arguments: escaped.
            eprintln!("error: {}", escape_lines(&err.message));
            ExitCode::from(err.code)
        }
    }
}
