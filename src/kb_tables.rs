//! Moving `kb` tables to where the JP in use reads them, byte for byte:
//! out of JP's own files into the `kb.toml` beside each (today's JP
//! refuses them there), or, with a JP that has the knowledge base inside,
//! out of `kb.toml` files into the `config.toml` beside each (the only
//! files that JP reads `kb` from). `jp-kb migrate` runs it; `jp-kb init`
//! and the TUI's first-run adoption run it after writing `.jp/kb.toml`
//! when JP has the knowledge base inside.

use std::path::{Path, PathBuf};

use jp_kb_core::clients::read_text;
use jp_kb_core::edit::{creatable, kb_in_jp_files, kb_only_files, move_kb, unified_diff};
use jp_kb_core::internal::edit::{write::remove_checked, write_atomic};
use jp_kb_core::{Environment, KnowledgeBase, LoadOptions};

/// Which tables move, and what may go with a `kb.toml` they all left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every file's (`jp-kb migrate`); a `kb.toml` left with only blank
    /// lines is removed, one with a comment kept (it may be a person's).
    Everywhere,
    /// Only the file this run just wrote (`init`, the TUI's first-run
    /// adoption: `.jp/kb.toml`), removed with the comments written with
    /// it, which speak of a file JP does not read. A user's own
    /// `kb.toml` elsewhere is not this run's to move.
    JustWritten(PathBuf),
}

impl Scope {
    fn covers(&self, path: &Path) -> bool {
        match self {
            Self::Everywhere => true,
            Self::JustWritten(file) => file == path,
        }
    }

    fn may_remove(&self, rest: &str) -> bool {
        let comments = matches!(self, Self::JustWritten(_));
        rest.lines().all(|line| {
            let line = line.trim();
            line.is_empty() || (comments && line.starts_with('#'))
        })
    }
}

/// After `jp-kb init` or the TUI's first-run adoption wrote the
/// workspace's `.jp/kb.toml` at `root`: with a JP that has the knowledge
/// base inside (`env.jp`), its tables move into `.jp/config.toml`, and
/// only its (a user's own `kb.toml` elsewhere is not this run's to move).
/// `Ok(None)`: today's JP, nothing moves; else whether a table must be
/// moved by hand.
///
/// # Errors
/// The workspace does not load, or a file cannot be read or written: the
/// message names it.
pub fn after_init(
    env: &Environment,
    root: &Path,
    say: &mut dyn FnMut(&str),
    warn: &mut dyn FnMut(&str),
) -> Result<Option<bool>, String> {
    if !env.jp.reads_kb() {
        return Ok(None);
    }
    let options = LoadOptions::default().workspace(root);
    let kb = KnowledgeBase::load(env, &options).map_err(|e| crate::hints::config_error(&e))?;
    let written = Scope::JustWritten(jp_kb_core::internal::edit::target::workspace_file(
        kb.root(),
    ));
    move_tables(&kb, false, &written, say, warn).map(Some)
}

/// Moves every `kb` table to where the JP here reads it, saying what it
/// did through `say` and what must be moved by hand through `warn` (each
/// text ends its own line); whether any must. An error (a file that does
/// not parse, a write refused) stops it, and names the file.
pub fn move_tables(
    kb: &KnowledgeBase,
    dry_run: bool,
    scope: &Scope,
    say: &mut dyn FnMut(&str),
    warn: &mut dyn FnMut(&str),
) -> Result<bool, String> {
    let inside = kb.loaded.jp.reads_kb();
    let mut found = if inside {
        kb_only_files(&kb.loaded)
    } else {
        kb_in_jp_files(&kb.loaded)
    };
    found.retain(|file| scope.covers(&file.path));
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
                warn(&format!(
                    "{}: holds topics the JP here never reads, and no config.toml beside it takes them: move the table by hand into .jp/config.toml (or your user-workspace config.toml)\n",
                    shown(&file.path)
                ));
            } else {
                warn(&format!(
                    "{}: holds a `kb` table but no kb.toml is read beside it: move the table by hand into .jp/kb.toml (or your user-workspace kb.toml)\n",
                    shown(&file.path)
                ));
            }
            by_hand = true;
            continue;
        };
        creatable(target).map_err(|e| e.to_string())?;
        let source = read_text(&bounds, &file.path)
            .map_err(|e| e.to_string())?
            .unwrap_or_default();
        let before_kb = read_text(&bounds, target).map_err(|e| e.to_string())?;
        let moved = move_kb(&source, before_kb.as_deref().unwrap_or(""))
            .map_err(|e| format!("{}: {e}; nothing moved", shown(&file.path)))?;
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
        let io = |e: jp_kb_core::edit::WriteError| e.to_string();
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
        let emptied = inside && scope.may_remove(&moved.source);
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
