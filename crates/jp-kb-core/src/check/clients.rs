//! Findings about what JP and the other clients load: a `kb` table in a
//! file today's JP loads (KB120; JP refuses to start) or, with a JP that
//! has the knowledge base inside, topics in a file it never reads
//! (KB123); a generated client file that differs from what jp-kb
//! generates now (KB121).

use crate::KnowledgeBase;
use crate::clients::connect::{Client, generated_files, is_connected};
use crate::clients::sync::stale;
use crate::config::{LayerKind, Origin, TopicField};
use crate::edit::move_kb::{KbInJpFile, kb_in_jp_files, kb_only_files};

use super::findings::{Code, Finding};
use super::locate::Locator;
use crate::remedy::Remedy;

/// Whether `--cfg` or `-k` changed the configuration checked.
fn has_overrides(kb: &KnowledgeBase) -> bool {
    let arg = |o: &Origin| !matches!(o, Origin::File { .. });
    kb.loaded.files.iter().any(|f| f.kind == LayerKind::Cfg)
        || kb
            .loaded
            .kb
            .topics
            .values()
            .any(|t| arg(&t.origin) || TopicField::ALL.into_iter().any(|f| t.origins(f).any(arg)))
}

pub fn findings(kb: &KnowledgeBase, locator: &mut Locator, out: &mut Vec<Finding>) {
    if kb.loaded.jp.reads_kb() {
        unread_by_jp(kb, locator, out);
        connected_twice(kb, locator, out);
    } else {
        refused_by_jp(kb, locator, out);
    }
    if has_overrides(kb) {
        // Generated files hold the workspace's configuration; compared with
        // one changed by --cfg/-k they would all look stale.
        return;
    }
    let (changed, errors) = stale(kb);
    out.extend(super::client_findings::stale_findings(
        kb, &changed, None, locator,
    ));
    out.extend(super::client_findings::machine_findings(kb, false, locator));
    for error in errors {
        out.push(
            Finding::new(
                Code::GeneratedStale,
                format!("a client file cannot be synced: {error}"),
            )
            .hint("fix the file; a client file that does not parse is never regenerated"),
        );
    }
}

/// KB123: topics in files a JP with the knowledge base inside never reads
/// (it reads `kb` from its own files only), so its model never sees them.
fn unread_by_jp(kb: &KnowledgeBase, locator: &mut Locator, out: &mut Vec<Finding>) {
    let files = kb_only_files(&kb.loaded);
    let finding = || {
        Finding::new(
            Code::KbUnreadByJp,
            "topics in a file JP never reads: the JP here has the knowledge base inside and reads `kb` from its own files only, so its model never gets them",
        )
    };
    let how = Moves {
        there: "JP reads it there",
        by_hand: "move the table by hand into .jp/config.toml (or the user-workspace config.toml)",
    };
    table_findings(&files, finding, &how, locator, out);
}

/// KB118: an earlier `connect jp` left jp-kb's layer, which a JP with the
/// knowledge base inside loads beside its own section and `learn`.
fn connected_twice(kb: &KnowledgeBase, locator: &mut Locator, out: &mut Vec<Finding>) {
    if !is_connected(Client::JP, kb.root()) {
        return;
    }
    for rel in generated_files(Client::JP) {
        let path = kb.root().join(&rel);
        out.push(
            Finding::new(
                Code::JpConnectedTwice,
                "jp-kb's JP layer is still set up, but the JP here has the knowledge base inside: \
                 if it loads the layer, its model gets the <knowledge> section twice and jp-kb's \
                 `learn` server instead of JP's own",
            )
            .at(locator.file(&path))
            .hint("remove the file and its `extends` entry in .jp/config.toml (nothing keeps it up to date now)"),
        );
    }
}

/// KB120: a `kb` table in a file today's JP loads (it refuses to start).
fn refused_by_jp(kb: &KnowledgeBase, locator: &mut Locator, out: &mut Vec<Finding>) {
    let files = kb_in_jp_files(&kb.loaded);
    let finding = || {
        Finding::new(
            Code::KbInJpFile,
            "a `kb` table in a file JP loads: today's JP refuses to start (`unknown field kb`)",
        )
    };
    let how = Moves {
        there: "jp-kb reads it there, JP does not",
        by_hand: "move the table by hand into .jp/kb.toml (or the user-workspace kb.toml): no kb.toml is read beside this file",
    };
    table_findings(&files, finding, &how, locator, out);
}

/// Where a file's `kb` table goes, said two ways.
struct Moves {
    /// Why the target is the place (after "byte for byte").
    there: &'static str,
    /// The hint when `migrate` cannot move it.
    by_hand: &'static str,
}

/// A finding per file, at its first topic, with `migrate`'s remedy or
/// the hint to move the table by hand.
fn table_findings(
    files: &[KbInJpFile],
    finding: impl Fn() -> Finding,
    how: &Moves,
    locator: &mut Locator,
    out: &mut Vec<Finding>,
) {
    for file in files {
        let location = match file.line {
            Some(line) => locator.line_column(&file.path, line, 1),
            None => locator.file(&file.path),
        };
        let finding = finding().at(location);
        out.push(match &file.target {
            Some(target) => {
                let to = locator.display(target);
                finding.remedy(Remedy::MoveKbTable { to }, |move_it| {
                    format!("{move_it}, byte for byte ({})", how.there)
                })
            }
            None => finding.hint(how.by_hand),
        });
    }
}
