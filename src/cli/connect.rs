//! `jp-kb connect CLIENT [--dry-run]` and `jp-kb sync [--dry-run]`: write
//! (or show) the files a client needs (`jp_kb_core::internal::clients`).

use std::process::ExitCode;

use clap::Args;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::clients::{
    Client, FileWrite, Part, Texts, after_edit, generated_files, is_connected, not_needed, plan,
    plan_sync, write_all,
};
use jp_kb_core::edit::{Journal, unified_diff};

use super::output::CliError;

/// The clients `connect` offers: the ids of the profiles.
pub fn client_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(jp_kb_core::clients::client_ids())
}

#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// The assistant to connect.
    #[arg(value_parser = client_names())]
    pub client: String,
    /// Show the diff of every file instead of writing it.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// Show the diff of every file instead of writing it.
    #[arg(long)]
    pub dry_run: bool,
}

fn shown(kb: &KnowledgeBase, write: &FileWrite) -> String {
    kb.display_path(&write.path).display().to_string()
}

/// The diff `--dry-run` shows. Both sides quote files a repository may
/// hold (titles, slugs, a hand-edited client file), so it is escaped like
/// every human-facing text: a name is shown, never obeyed.
fn print_diff(kb: &KnowledgeBase, write: &FileWrite) {
    let old = write.before.as_deref().unwrap_or("");
    let diff = unified_diff(old, &write.after, &shown(kb, write));
    print!("{}", jp_kb_core::display::escape_lines(&diff));
}

/// What the person must know after connecting: how the client finds the
/// tool, and what it asks first.
/// What the person is told once the files are written: from the client's
/// profile (the one source of truth for what a client gets).
fn next_steps(client: Client) -> String {
    client.profile().map(|p| p.connect.next).unwrap_or_default()
}

pub fn connect(kb: &KnowledgeBase, args: &ConnectArgs) -> Result<ExitCode, CliError> {
    let client = Client::named(&args.client).map_err(CliError::usage)?;
    if let Some(why) = not_needed(client, kb) {
        println!("nothing to connect: {why}");
        if is_connected(client, kb.root()) {
            println!(
                "an earlier `jp-kb connect {}` is still set up: remove {} and its `extends` entry",
                client.name(),
                generated_files(client).join(", ")
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let texts = Texts::of(kb);
    // Everything is planned (and validated) before anything is written.
    let writes = plan(client, kb, &texts).map_err(|e| CliError::runtime(e.to_string()))?;
    let mut to_write = Vec::new();
    for write in &writes {
        for note in &write.notes {
            eprintln!("note: {note}");
        }
        let name = shown(kb, write);
        if !write.changed() {
            println!("{name}: up to date");
        } else if write.part == Part::Generated && write.before.is_some() {
            // Only `sync` overwrites a generated file that is not what
            // jp-kb wrote: it may hold someone's edit.
            println!(
                "{name}: differs from what jp-kb generates (edited by hand, or the knowledge base \
                 changed outside jp-kb); left as it is: `jp-kb sync` overwrites it"
            );
        } else if args.dry_run {
            print_diff(kb, write);
        } else {
            to_write.push(write);
        }
    }
    // One plan, carried out like every edit: all checked, then written.
    let mut journal = Journal::new(kb.boundaries());
    write_all(to_write.iter().copied(), &mut journal)
        .map_err(|e| CliError::runtime(e.to_string()))?;
    for write in to_write {
        let what = match (write.part, write.before.is_some()) {
            (Part::Generated, _) => "created (generated)",
            (Part::Entry, false) => "created",
            (Part::Entry, true) => "updated, every other byte kept",
            // A kind of file newer than this CLI.
            _ => "written",
        };
        println!("{}: {what}", shown(kb, write));
    }
    if args.dry_run {
        println!("dry run: nothing written");
    } else {
        println!("{}", next_steps(client));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn sync(kb: &KnowledgeBase, args: &SyncArgs) -> Result<ExitCode, CliError> {
    let (writes, errors) = plan_sync(kb);
    if writes.is_empty() && errors.is_empty() {
        println!(
            "nothing to sync: no client is connected (see `jp-kb connect jp|claude-code|codex`)"
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut failed = !errors.is_empty();
    for error in &errors {
        eprintln!("error: {error}");
    }
    for write in writes.iter().filter(|w| !w.changed()) {
        println!("{}: up to date", shown(kb, write));
    }
    // One plan per client: a client whose file cannot be written (a link
    // leading out, a file changed meanwhile) leaves its files as they
    // were, and the other clients are still synced.
    for client in Client::all() {
        let changed: Vec<&FileWrite> = writes
            .iter()
            .filter(|w| w.client == client && w.changed())
            .collect();
        if changed.is_empty() {
            continue;
        }
        for write in &changed {
            for note in &write.notes {
                eprintln!("note: {note}");
            }
            if args.dry_run {
                print_diff(kb, write);
            }
        }
        if args.dry_run {
            continue;
        }
        let mut journal = Journal::new(kb.boundaries());
        if let Err(e) = write_all(changed.iter().copied(), &mut journal) {
            eprintln!("error: {e}");
            failed = true;
            continue;
        }
        for write in changed {
            println!(
                "{}: {}",
                shown(kb, write),
                match (write.part, &write.before) {
                    (_, None) => "created",
                    (Part::Generated, Some(_)) => {
                        "differed from what jp-kb generates (edited by hand, or the knowledge base \
                         changed outside jp-kb); rewritten"
                    }
                    (Part::Entry, Some(_)) =>
                        "jp-kb's entry differed; rewritten, every other byte kept",
                    // A kind of file newer than this CLI.
                    (_, Some(_)) => "differed; rewritten",
                }
            );
        }
    }
    if args.dry_run {
        println!("dry run: nothing written");
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// After an edit: keeps the generated files current (prints what it did).
pub fn after_write(before: &KnowledgeBase, after: &KnowledgeBase) {
    for line in after_edit(before, after) {
        let text = jp_kb::hints::synced(&line);
        if line.is_warning() {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
    }
}
