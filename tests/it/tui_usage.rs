//! Usage in the TUI (issue 27): figures beside subjects, the Subject
//! preview's usage line, the `U` order, the dialogs' and the tester's
//! notes (in the headless harness, the ledger's read handed in as the
//! usage worker would); and, in tmux, a figure appearing beside a subject
//! after a real `jp-kb mcp` served it while the TUI runs.

use super::tmux_support;
use super::tui_support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use jp_kb::tui::event::Event;
use jp_kb::tui::usage::Read;
use jp_kb_core::usage::{Entry, Kind, Tally, time};
use tmux_support::Tmux;
use tmux_support::jp_tree::{jp_workspace, start};
use tui_support::Demo;

/// A read of a ledger in which `code-quality` of `project` was loaded
/// twice, by two sessions of one client.
fn read() -> Read {
    let now = time::now();
    let mut text = String::new();
    for session in ["s1", "s2"] {
        let mut e = Entry::record(
            now - 3600,
            Kind::Learn,
            "project".into(),
            session.into(),
            ("claude-code".into(), "2.0.31".into()),
        );
        e.slugs = vec!["code-quality".to_owned().into()];
        e.tokens = 140;
        text += &e.to_line();
    }
    Read {
        tally: Tally::read_bytes(text.as_bytes(), None),
        at: now,
    }
}

fn row<'a>(screen: &'a str, name: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(name))
        .unwrap_or_else(|| panic!("no row {name}:\n{screen}"))
}

#[test]
fn figures_and_the_preview_line_appear_once_the_ledger_is_read() {
    let mut d = Demo::with_color(120, 40, false);
    let before = d.screen();
    assert!(!row(&before, "code-quality.md").contains('×'), "{before}");
    d.h.action(Event::Usage(Box::new(read())));
    let screen = d.screen();
    assert!(
        row(&screen, "code-quality.md").contains("2× 140 tok"),
        "{screen}"
    );
    assert!(row(&screen, "release.md").contains("· "), "{screen}");

    d.keys("\t");
    d.select("code-q");
    let screen = d.screen();
    assert!(
        screen.contains(
            "usage: 2 loads in 30 days · 2 sessions · last 1h ago · by claude-code 2.0.31"
        ),
        "{screen}"
    );
    d.select("release");
    assert!(d.screen().contains("usage: never loaded in 30 days"));
}

#[test]
fn u_orders_the_tree_by_usage() {
    let mut d = Demo::with_color(120, 40, false);
    d.h.action(Event::Usage(Box::new(read())));
    d.keys("\tU");
    let screen = d.screen();
    let status = d.h.status_line().to_owned();
    assert_eq!(status, "subjects: never loaded in 30 days (U: next)");
    assert!(screen.contains("(never loaded)"), "{screen}");
    assert!(!screen.contains("code-quality.md"), "{screen}");
    assert!(screen.contains("release.md"), "{screen}");
    d.keys("U");
    let screen = d.screen();
    let status = d.h.status_line().to_owned();
    assert_eq!(status, "subjects: loaded in 30 days, most first (U: next)");
    assert!(screen.contains("code-quality.md"), "{screen}");
    assert!(!screen.contains("release.md"), "{screen}");
    d.keys("U");
    let screen = d.screen();
    assert!(screen.contains("code-quality.md") && screen.contains("release.md"));
    // The help lists the key (it comes from the key table).
    d.keys("?");
    assert!(
        d.screen()
            .contains("usage: all / never loaded / most loaded")
    );
}

#[test]
fn the_tester_and_the_dialogs_say_how_often_it_was_loaded() {
    let mut d = Demo::with_color(140, 40, false);
    d.h.action(Event::Usage(Box::new(read())));
    d.keys("\tgcode*");
    let screen = d.screen();
    assert!(screen.contains("loaded 2× in 30 days"), "{screen}");
    d.h.action(jp_kb::tui::command::Command::Cancel);
    // Un-learning a glob-selected maintainer opens the two-fix dialog.
    d.select("jean");
    d.keys("l");
    let screen = d.screen();
    assert!(
        screen.contains("usage: it was never loaded in 30 days")
            || screen.contains("usage: they were never loaded in 30 days"),
        "{screen}"
    );
}

/// A `jp-kb mcp` session that loads `guide` of `docs` once, as a client.
fn load_through_mcp(root: &std::path::Path) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jp-kb"))
        .current_dir(root)
        .env("JP_GLOBAL_CONFIG_DIR", root.join(".user-config"))
        .env("JP_USER_DATA_DIR", root.join(".user-data"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for request in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tmux-test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"learn","arguments":{"topic":"docs","subjects":"guide"}}}"#,
    ] {
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert!(line.contains("\"result\""), "{line}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn a_load_by_a_running_server_shows_beside_the_subject_in_tmux() {
    let tmux = Tmux::start("usage");
    let root = jp_workspace(&tmux);
    start(&tmux, &root);
    tmux.send(&["Tab"]);
    // Read at start: nothing recorded yet, so every subject shows `·`.
    let screen = tmux.wait_for("the usage figures", |s| {
        s.lines()
            .any(|l| l.contains("guide.md") && l.contains(" · "))
    });
    assert!(!screen.contains('×'), "{screen}");
    load_through_mcp(&root);
    let screen = tmux.wait_for("guide's load beside it", |s| {
        s.lines()
            .any(|l| l.contains("guide.md") && l.contains("1×"))
    });
    assert!(screen.contains("guide.md"), "{screen}");
    tmux.literal("q");
    tmux.wait_for("the TUI's exit", |s| s.contains("EXIT-0"));
}
