#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The TUI keeps the connected clients' generated files current (contract
//! §8): a saved edit, an undo and a redo each re-sync them.

use super::tui_support;

use jp_kb_core::clients::{Client, Texts, plan};
use tui_support::Demo;

fn rules(d: &Demo) -> String {
    std::fs::read_to_string(d.root().join(".claude/rules/jp-kb.md")).unwrap()
}

fn prompt(d: &Demo) -> String {
    let section = d.h.section().unwrap();
    format!("{section}\n")
}

#[test]
fn edits_undo_and_redo_in_the_tui_sync_the_generated_files() {
    let mut d = Demo::new(120, 40);
    {
        let kb = d.h.kb().unwrap();
        let writes = plan(Client::named("claude-code").unwrap(), kb, &Texts::of(kb)).unwrap();
        let mut journal = jp_kb_core::edit::Journal::new(kb.boundaries());
        jp_kb_core::clients::write_all(&writes, &mut journal).unwrap();
    }
    let original = rules(&d);
    assert_eq!(original, prompt(&d));

    d.keys("\t");
    d.select("code-q");
    d.keys("l");
    assert!(
        d.h.status_line().contains("synced .claude/rules/jp-kb.md"),
        "{}",
        d.h.status_line()
    );
    assert!(rules(&d).contains("<subject \"code-quality\">"));
    assert_eq!(rules(&d), prompt(&d));

    d.keys("u");
    assert_eq!(rules(&d), original);
    d.ctrl('r');
    assert!(rules(&d).contains("<subject \"code-quality\">"));

    // A hand edit is left alone and the status line says so.
    std::fs::write(d.root().join(".claude/rules/jp-kb.md"), "mine\n").unwrap();
    d.keys("u");
    assert_eq!(rules(&d), "mine\n");
    assert!(
        d.h.status_line().contains("not overwritten"),
        "{}",
        d.h.status_line()
    );
}
