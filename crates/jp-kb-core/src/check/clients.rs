//! Findings about what JP and the other clients load: a `kb` table in a
//! file JP loads (KB120; JP refuses to start), and a generated client file
//! that differs from what `jp-kb sync` writes (KB121).

use crate::KnowledgeBase;
use crate::clients::sync::stale;
use crate::config::{LayerKind, Origin, TopicField};
use crate::edit::move_kb::kb_in_jp_files;

use super::findings::{Code, Finding};
use super::locate::Locator;

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
        let hint = match &file.target {
            Some(target) => format!(
                "run `jp-kb migrate`: it moves the table to {}, byte for byte (jp-kb reads it there, JP does not)",
                locator.display(target).display()
            ),
            None => "move the table by hand into .jp/kb.toml (or the user-workspace kb.toml): no kb.toml is read beside this file".to_owned(),
        };
        out.push(
            Finding::new(
                Code::KbInJpFile,
                "a `kb` table in a file JP loads: today's JP refuses to start (`unknown field kb`)",
            )
            .at(location)
            .hint(hint),
        );
    }
    if has_overrides(kb) {
        // Generated files hold the workspace's configuration; compared with
        // one changed by --cfg/-k they would all look stale.
        return;
    }
    let (changed, errors) = stale(kb);
    for write in changed {
        out.push(
            Finding::new(
                Code::GeneratedStale,
                format!(
                    "this {} file differs from what `jp-kb sync` writes (edited by hand, or the knowledge base changed outside jp-kb)",
                    write.client.name()
                ),
            )
            .at(locator.file(&write.path))
            .hint("run `jp-kb sync` (it overwrites hand edits of generated files)"),
        );
    }
    for error in errors {
        out.push(
            Finding::new(
                Code::GeneratedStale,
                format!("a client file cannot be synced: {error}"),
            )
            .hint("fix the file; `jp-kb sync` never writes a file that does not parse"),
        );
    }
}
