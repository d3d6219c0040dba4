//! `jp-kb migrate [--dry-run]`: moves the `kb` table out of every file JP
//! loads into the `kb.toml` beside it, byte for byte (today's JP refuses
//! to start with a `kb` table in its own files). Used with a JP that has
//! the knowledge base inside, the other way: out of every `kb.toml` into
//! the `config.toml` beside it, the only files that JP reads `kb` from.

use std::process::ExitCode;

use clap::Args;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::clients::read_text;
use jp_kb_core::edit::{creatable, kb_in_jp_files, kb_only_files, move_kb, unified_diff};
use jp_kb_core::internal::edit::write_atomic;

use super::output::CliError;

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Show the diffs instead of writing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(kb: &KnowledgeBase, args: &MigrateArgs) -> Result<ExitCode, CliError> {
    let inside = kb.loaded.jp.reads_kb();
    let found = if inside {
        kb_only_files(&kb.loaded)
    } else {
        kb_in_jp_files(&kb.loaded)
    };
    if found.is_empty() {
        println!(
            "{}",
            if inside {
                "nothing to move: no kb.toml holds topics (the JP here has the knowledge base inside and reads `kb` from its own files)"
            } else {
                "nothing to move: no file JP loads holds a `kb` table"
            }
        );
        return Ok(ExitCode::SUCCESS);
    }
    let shown = |p: &std::path::Path| kb.display_path(p).display().to_string();
    let mut by_hand = false;
    let bounds = kb.boundaries();
    for file in &found {
        let Some(target) = &file.target else {
            if inside {
                eprintln!(
                    "{}: holds topics the JP here never reads, and no config.toml beside it takes them: move the table by hand into .jp/config.toml (or your user-workspace config.toml)",
                    shown(&file.path)
                );
            } else {
                eprintln!(
                    "{}: holds a `kb` table but no kb.toml is read beside it: move the table by hand into .jp/kb.toml (or your user-workspace kb.toml)",
                    shown(&file.path)
                );
            }
            by_hand = true;
            continue;
        };
        creatable(target).map_err(CliError::runtime)?;
        let source = read_text(&bounds, &file.path)
            .map_err(CliError::runtime)?
            .unwrap_or_default();
        let before_kb = read_text(&bounds, target).map_err(CliError::runtime)?;
        let moved = move_kb(&source, before_kb.as_deref().unwrap_or(""))
            .map_err(|e| CliError::runtime(format!("{}: {e}; nothing moved", shown(&file.path))))?;
        let Some(moved) = moved else { continue };
        if args.dry_run {
            print!(
                "{}",
                unified_diff(&source, &moved.source, &shown(&file.path))
            );
            print!(
                "{}",
                unified_diff(
                    before_kb.as_deref().unwrap_or(""),
                    &moved.kb_file,
                    &shown(target)
                )
            );
            continue;
        }
        // The target first: a failure in between leaves the topics in both
        // files (the later one wins), never in neither.
        let io = |e: jp_kb_core::edit::WriteError| CliError::runtime(e.to_string());
        write_atomic(
            &bounds,
            target,
            before_kb.as_deref().map(str::as_bytes),
            moved.kb_file.as_bytes(),
        )
        .map_err(io)?;
        write_atomic(
            &bounds,
            &file.path,
            Some(source.as_bytes()),
            moved.source.as_bytes(),
        )
        .map_err(io)?;
        println!(
            "moved the `kb` table (topics {}) from {} to {}, byte for byte",
            moved.topics.join(", "),
            shown(&file.path),
            shown(target)
        );
    }
    if args.dry_run {
        println!("dry run: nothing written");
    }
    Ok(if by_hand {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
