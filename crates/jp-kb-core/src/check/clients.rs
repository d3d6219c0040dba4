//! Findings about what JP and the other clients load: a `kb` table in a
//! file JP loads (KB120; JP refuses to start), and a generated client file
//! that differs from what jp-kb generates now (KB121).

use crate::KnowledgeBase;
use crate::clients::sync::stale;
use crate::config::{LayerKind, Origin, TopicField};
use crate::edit::move_kb::kb_in_jp_files;

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
    for file in kb_in_jp_files(&kb.loaded) {
        let location = match file.line {
            Some(line) => locator.line_column(&file.path, line, 1),
            None => locator.file(&file.path),
        };
        let finding = Finding::new(
            Code::KbInJpFile,
            "a `kb` table in a file JP loads: today's JP refuses to start (`unknown field kb`)",
        )
        .at(location);
        out.push(match &file.target {
            Some(target) => {
                let to = locator.display(target);
                finding.remedy(Remedy::MoveKbTable { to }, |move_it| {
                    format!("{move_it}, byte for byte (jp-kb reads it there, JP does not)")
                })
            }
            None => finding.hint(
                "move the table by hand into .jp/kb.toml (or the user-workspace kb.toml): no kb.toml is read beside this file",
            ),
        });
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
