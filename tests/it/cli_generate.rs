#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `jp-kb completions SHELL` and `jp-kb man`: generated from the clap
//! definition, usable without a workspace.

use super::common;

use common::{Sandbox, jp_kb};

/// Every subcommand a user can type; the generated texts must name each.
const SUBCOMMANDS: &[&str] = &[
    "list",
    "prompt",
    "learn",
    "schema",
    "check",
    "learned",
    "disabled",
    "topic",
    "init",
    "mcp",
    "tui",
    "completions",
    "man",
];

/// Runs `jp-kb ARGS` from a directory with no `.jp/` anywhere above it in
/// the sandbox: generating must not need a workspace.
fn run(args: &[&str]) -> String {
    let sb = Sandbox::new();
    let out = jp_kb(sb.path(), sb.path()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "jp-kb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = run(&["completions", shell]);
        assert!(script.len() > 500, "{shell}: {script}");
        for sub in SUBCOMMANDS {
            let named = script
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .any(|word| word == *sub);
            assert!(named, "{shell} completion does not name `{sub}`");
        }
        // Nested subcommands are completed too.
        assert!(script.contains("add"), "{shell}: no `learned add`");
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let sb = Sandbox::new();
    let out = jp_kb(sb.path(), sb.path())
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tcsh") && err.contains("bash"), "{err}");
}

#[test]
fn man_page_is_roff_with_a_title_header_and_the_subcommands() {
    let page = run(&["man"]);
    // The first line that is neither a comment nor a conditional string
    // definition is the title header: `.TH jp-kb 1 ...`.
    let title = page
        .lines()
        .find(|l| !l.starts_with(".\\\"") && !l.starts_with(".ie") && !l.starts_with(".el"))
        .unwrap();
    let fields: Vec<&str> = title.split_whitespace().collect();
    assert_eq!(fields.get(..3), Some(&[".TH", "jp-kb", "1"][..]), "{title}");
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS"] {
        assert!(
            page.lines().any(|l| l == format!(".SH {section}")),
            "no .SH {section}:\n{page}"
        );
    }
    // Every request line is a macro roff knows, so `man` renders it.
    for line in page.lines().filter(|l| l.starts_with('.')) {
        let name = line[1..].split_whitespace().next().unwrap_or("");
        assert!(
            [
                "TH", "SH", "SS", "TP", "PP", "IP", "RS", "RE", "B", "I", "br", "ie", "el", "\\\""
            ]
            .contains(&name),
            "unknown roff request: {line}"
        );
    }
    for sub in SUBCOMMANDS {
        // clap_mangen writes subcommands as `jp\-kb\-NAME(1)`.
        let roff_name = format!("jp\\-kb\\-{}(1)", sub.replace('-', "\\-"));
        assert!(page.contains(&roff_name), "man page does not list `{sub}`");
    }
}
