#![allow(clippy::expect_used, clippy::unwrap_used)]
//! What JP gets from `connect jp` does not depend on this machine's paths,
//! stays current, and is not undone by an earlier setup (issue 24 items
//! 12, 13 and 14; contract §8, "Portable", "Fresh", "Earlier setups"); JP's
//! one per-user directory per workspace id (issue 36: what real JP does
//! with it is in `jp_real_*.rs`).

use super::common;

use std::path::{Path, PathBuf};

use common::{Sandbox, copy_tree};

const KB: &str =
    "[kb.topic.project]\ntitle = \"Project\"\nsubjects = \"kb\"\nlearned = [\"style\"]\n";

/// What `jp init` writes into `.jp/config.toml` among the rest: the `run`
/// default JP requires of every tool.
const JP_RUN: &str = "# JP\n[conversation.tools.'*']\nrun = \"ask\"\n";

fn ws() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", KB);
    sb.write("ws/.jp/config.toml", JP_RUN);
    sb.write("ws/.jp/.id", "abcde\n");
    sb.write("ws/kb/style.md", "Use rustfmt.\n");
    sb
}

fn run_in(sb: &Sandbox, cwd: &Path, args: &[&str]) -> (bool, String) {
    let out = common::jp_kb(sb.path(), cwd).args(args).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn run(sb: &Sandbox, args: &[&str]) -> (bool, String) {
    run_in(sb, &sb.ws(), args)
}

fn machine_layer(sb: &Sandbox, name: &str) -> PathBuf {
    sb.path()
        .join(format!("data/workspace/{name}-abcde/config.toml"))
}

#[test]
fn generated_files_hold_no_path_of_this_machine() {
    let sb = ws();
    for client in ["jp", "claude-code", "codex"] {
        let (ok, text) = run(&sb, &["connect", client]);
        assert!(ok, "{text}");
    }
    let root = sb.ws().canonicalize().unwrap().display().to_string();
    for rel in [
        ".jp/config.d/jp-kb.toml",
        ".jp/config.toml",
        ".claude/rules/jp-kb.md",
        ".mcp.json",
        ".codex/config.toml",
    ] {
        let text = std::fs::read_to_string(sb.ws().join(rel)).unwrap();
        assert!(!text.contains(&root), "{rel} holds {root}:\n{text}");
        assert!(
            !text.contains(&sb.path().display().to_string()),
            "{rel}:\n{text}"
        );
    }
    let layer = std::fs::read_to_string(sb.ws().join(".jp/config.d/jp-kb.toml")).unwrap();
    assert!(layer.contains("# Commit it"), "{layer}");
    // The machine's part: JP's user-workspace layer, per workspace id; it
    // names the id, not this checkout.
    let machine = std::fs::read_to_string(machine_layer(&sb, "ws")).unwrap();
    assert!(
        machine.contains(
            "arguments = [\"mcp\", \"--client\", \"jp\", \"--jp-workspace-id\", \"abcde\"]"
        ),
        "{machine}"
    );
    assert!(!machine.contains(&root), "{machine}");
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!text.contains("KB013") && !text.contains("KB121"), "{text}");
    let _ = ok;
}

/// A copy sharing JP's per-user directory (a clone under the same name,
/// a moved checkout) needs nothing: the machine's entry names the id.
#[test]
fn a_copy_sharing_the_machine_layer_needs_nothing() {
    let sb = ws();
    assert!(run(&sb, &["connect", "jp"]).0);
    let copy = sb.path().join("elsewhere/ws");
    copy_tree(&sb.ws(), &copy);
    let (ok, text) = run_in(&sb, &copy, &["check", "--client", "jp"]);
    assert!(ok, "{text}");
    assert!(!text.contains("KB013"), "{text}");
}

/// An entry an earlier jp-kb wrote (`--workspace PATH`) serves PATH to
/// every checkout of the id: an error under `--client jp`, a warning in a
/// plain check, each said once, and `sync` rewrites it.
#[test]
fn an_entry_naming_a_checkout_is_an_error_and_sync_rewrites_it() {
    let sb = ws();
    assert!(run(&sb, &["connect", "jp"]).0);
    let machine = machine_layer(&sb, "ws");
    std::fs::write(
        &machine,
        "[providers.mcp.kb]\ntype = \"stdio\"\ncommand = \"jp-kb\"\narguments = [\"mcp\", \"--workspace\", \"/old/ws\"]\n",
    )
    .unwrap();
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!ok, "{text}");
    assert_eq!(text.matches("KB013").count(), 1, "{text}");
    assert!(!text.contains("KB121"), "said once: {text}");
    assert!(
        text.contains("/old/ws") && text.contains("jp-kb sync"),
        "{text}"
    );
    let (ok, text) = run(&sb, &["check"]);
    assert!(ok, "{text}");
    assert_eq!(text.matches("KB121").count(), 1, "{text}");
    assert!(run(&sb, &["sync"]).0);
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(ok && !text.contains("KB013"), "{text}");
}

/// A missing entry (a new machine, or the layer's directory merged away)
/// is an error under `--client jp`, not an "edited by hand" warning.
#[test]
fn a_missing_machine_entry_is_an_error_saying_what_it_breaks() {
    let sb = ws();
    assert!(run(&sb, &["connect", "jp"]).0);
    std::fs::remove_file(machine_layer(&sb, "ws")).unwrap();
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("KB013") && text.contains("jp -w DIR") && !text.contains("by hand"),
        "{text}"
    );
    assert_eq!(text.matches("KB121").count(), 0, "{text}");
}

#[test]
fn a_subject_changed_outside_is_an_error_for_check_client_and_mcp_refreshes_it() {
    let sb = ws();
    assert!(run(&sb, &["connect", "jp"]).0);
    sb.write("ws/kb/style.md", "Use rustfmt and clippy.\n");
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!ok, "{text}");
    assert!(text.contains("KB121") && text.contains("error"), "{text}");
    // A server starting rewrites the stale generated file, and says so.
    let out = common::jp_kb(sb.path(), &sb.ws())
        .arg("mcp")
        .write_stdin("")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("rewrote .jp/config.d/jp-kb.toml"), "{log}");
    let layer = std::fs::read_to_string(sb.ws().join(".jp/config.d/jp-kb.toml")).unwrap();
    assert!(layer.contains("Use rustfmt and clippy."), "{layer}");
    let (_, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!text.contains("KB121"), "{text}");
}

#[test]
fn an_earlier_readme_setup_and_a_hand_made_section_are_reported_with_the_fix() {
    let sb = ws();
    sb.write(
        "ws/.jp/config.toml",
        format!("{JP_RUN}[providers.mcp.kb]\ntype = \"stdio\"\ncommand = \"jp-kb\"\narguments = [\"mcp\"]\n\n[conversation.tools.learn]\nenable = true\nsource = \"mcp.kb.learn\"\nrun = \"unattended\"\n"),
    );
    sb.write(
        "ws/.jp.toml",
        "[[assistant.system_prompt_sections]]\ncontent = \"<knowledge>\\nold copy\\n</knowledge>\"\n",
    );
    let (ok, text) = run(&sb, &["connect", "jp"]);
    assert!(ok, "{text}");
    assert!(
        text.contains(".jp/config.toml:4") && text.contains("[providers.mcp.kb]"),
        "{text}"
    );
    assert!(
        text.contains("[conversation.tools.learn (enable, source)]"),
        "{text}"
    );
    assert!(
        text.contains(".jp.toml") && text.contains("twice"),
        "{text}"
    );
    let (ok, text) = run(&sb, &["check", "--client", "jp"]);
    assert!(!ok, "{text}");
    assert_eq!(text.matches("KB013").count(), 3, "{text}");
}

#[test]
fn jp_kb_missing_from_path_is_said_with_the_fix() {
    let sb = ws();
    // A PATH without jp-kb, whatever this machine has installed.
    let empty = sb.path().join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let run = |args: &[&str]| {
        let out = common::jp_kb(sb.path(), &sb.ws())
            .env("PATH", &empty)
            .args(args)
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let text = run(&["connect", "jp"]);
    assert!(
        text.contains("not on PATH") && text.contains("cargo install"),
        "{text}"
    );
    assert!(run(&["check", "--client", "jp"]).contains("KB124"));
}

/// A `jp-kb` set by path in JP's user-workspace layer (the way to one not
/// on JP's `PATH`, as KB124's fix says) is kept by `connect`, and `check`
/// then has nothing to say about `PATH`.
#[test]
fn a_jp_kb_set_by_path_is_kept_and_counts_as_reachable() {
    let sb = ws();
    let bin = sb.path().join("opt/bin/jp-kb");
    sb.write("opt/bin/jp-kb", "#!/bin/sh\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let empty = sb.path().join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let run = |args: &[&str]| {
        let out = common::jp_kb(sb.path(), &sb.ws())
            .env("PATH", &empty)
            .args(args)
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    run(&["connect", "jp"]);
    let machine = machine_layer(&sb, "ws");
    let text = std::fs::read_to_string(&machine).unwrap();
    std::fs::write(
        &machine,
        text.replace(
            "command = \"jp-kb\"",
            &format!("command = \"{}\"", bin.display()),
        ),
    )
    .unwrap();
    let again = run(&["connect", "jp"]);
    let kept = std::fs::read_to_string(&machine).unwrap();
    assert!(kept.contains(&bin.display().to_string()), "{kept}");
    assert!(!again.contains("not on PATH"), "{again}");
    assert!(!run(&["check", "--client", "jp"]).contains("KB124"));
}
