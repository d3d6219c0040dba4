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
use jp_kb_core::internal::edit::{write::remove_checked, write_atomic};

use super::output::CliError;

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Show the diffs instead of writing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(kb: &KnowledgeBase, args: &MigrateArgs) -> Result<ExitCode, CliError> {
    let by_hand = move_tables(kb, args.dry_run, Leftovers::Blank, &mut |text| {
        print!("{text}");
    })?;
    Ok(if by_hand {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What may go with a `kb.toml` whose tables all moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leftovers {
    /// Only blank lines: a comment may be a person's.
    Blank,
    /// Comments too: the file was written by this run (`init`), comments
    /// and all, and they speak of a file JP does not read.
    Comments,
}

impl Leftovers {
    fn allow(self, rest: &str) -> bool {
        rest.lines().all(|line| {
            let line = line.trim();
            line.is_empty() || (self == Self::Comments && line.starts_with('#'))
        })
    }
}

/// Moves every `kb` table to where the JP here reads it, saying what it
/// did through `say` (each text ends its own line); whether a table must
/// be moved by hand (said on stderr). `jp-kb init` calls it after writing
/// `.jp/kb.toml` when JP has the knowledge base inside.
pub fn move_tables(
    kb: &KnowledgeBase,
    dry_run: bool,
    leftovers: Leftovers,
    say: &mut dyn FnMut(&str),
) -> Result<bool, CliError> {
    let inside = kb.loaded.jp.reads_kb();
    let found = if inside {
        kb_only_files(&kb.loaded)
    } else {
        kb_in_jp_files(&kb.loaded)
    };
    if found.is_empty() {
        say(if inside {
            "nothing to move: no kb.toml holds topics (the JP here has the knowledge base inside and reads `kb` from its own files)\n"
        } else {
            "nothing to move: no file JP loads holds a `kb` table\n"
        });
        return Ok(false);
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
        if dry_run {
            say(&unified_diff(&source, &moved.source, &shown(&file.path)));
            say(&unified_diff(
                before_kb.as_deref().unwrap_or(""),
                &moved.kb_file,
                &shown(target),
            ));
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
        // A kb.toml that held nothing but the table goes: an empty file
        // would only stand in the way of the next `jp-kb init`. JP's own
        // files stay, whatever is left in them.
        let emptied = inside && leftovers.allow(&moved.source);
        if emptied {
            remove_checked(&bounds, &file.path, source.as_bytes()).map_err(io)?;
        } else {
            write_atomic(
                &bounds,
                &file.path,
                Some(source.as_bytes()),
                moved.source.as_bytes(),
            )
            .map_err(io)?;
        }
        say(&format!(
            "moved the `kb` table (topics {}) from {} to {}, byte for byte{}\n",
            moved.topics.join(", "),
            shown(&file.path),
            shown(target),
            match (emptied, moved.source.trim().is_empty()) {
                (false, _) => String::new(),
                (true, true) => format!("; {} held nothing else and is removed", shown(&file.path)),
                (true, false) => format!(
                    "; {} is removed with the comments written with it",
                    shown(&file.path)
                ),
            }
        ));
    }
    if dry_run {
        say("dry run: nothing written\n");
    }
    Ok(by_hand)
}
