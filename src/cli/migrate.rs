//! `jp-kb migrate [--dry-run]`: moves the `kb` table out of every file JP
//! loads into the `kb.toml` beside it, byte for byte (today's JP refuses
//! to start with a `kb` table in its own files). Used with a JP that has
//! the knowledge base inside, the other way: out of every `kb.toml` into
//! the `config.toml` beside it, the only files that JP reads `kb` from.

use std::process::ExitCode;

use clap::Args;
use jp_kb::kb_tables::{Scope, move_tables};
use jp_kb_core::KnowledgeBase;

use super::output::CliError;

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Show the diffs instead of writing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(kb: &KnowledgeBase, args: &MigrateArgs) -> Result<ExitCode, CliError> {
    let by_hand = move_tables(
        kb,
        args.dry_run,
        &Scope::Everywhere,
        &mut |text| print!("{text}"),
        &mut |text| eprint!("{text}"),
    )
    .map_err(CliError::runtime)?;
    Ok(if by_hand {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
