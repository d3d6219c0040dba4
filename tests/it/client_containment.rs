#![allow(clippy::expect_used, clippy::unwrap_used)]
//! A repository someone clones can never turn `connect`, `sync`, `init` or
//! an edit against the person (issue 24 items 1, 2 and 4; contract §8,
//! "Containment"). Each case commits what an attacker would — a link to
//! the person's home, a FIFO, `/dev/zero` — runs the command as the person
//! would, and asserts both the message and that nothing outside the
//! workspace was created or changed.

#![cfg(unix)]

use super::common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::Sandbox;

const KB: &str =
    "[kb.topic.project]\ntitle = \"Project\"\nsubjects = \"kb\"\nlearned = [\"style\"]\n";

/// A workspace with a topic, and a fake home beside it holding the
/// person's own files.
fn ws() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", KB);
    sb.write("ws/.jp/config.toml", "# JP\n");
    sb.write("ws/kb/style.md", "Use rustfmt.\n");
    sb.write("ws/kb/other.md", "Other.\n");
    sb.write("home/.bashrc", "# my shell\n");
    sb.write("home/.claude.json", "{\"mine\": true}\n");
    sb.write("home/.codex/config.toml", "model = \"mine\"\n");
    sb.write("home/.config/jp/config.toml", "# my global JP config\n");
    std::fs::create_dir_all(sb.path().join("home/.claude")).unwrap();
    sb
}

fn home(sb: &Sandbox) -> PathBuf {
    sb.path().join("home").canonicalize().unwrap()
}

/// Every file under the fake home, with its bytes: compared before and
/// after each attack.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| {
            let bytes = if e.file_type().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (e.path().to_path_buf(), bytes)
        })
        .collect();
    out.sort();
    out
}

fn link(sb: &Sandbox, target: impl AsRef<Path>, rel: &str) {
    let at = sb.ws().join(rel);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    symlink(target, at).unwrap();
}

/// Runs `args` in the workspace; returns (success, stdout + stderr).
fn run(sb: &Sandbox, args: &[&str]) -> (bool, String) {
    let out = sb
        .cmd()
        .args(args)
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// `args` is refused with a message naming `target`, and the home is
/// byte for byte what it was.
fn refused(sb: &Sandbox, args: &[&str], target: &Path) {
    let before = snapshot(&home(sb));
    let (ok, text) = run(sb, args);
    assert!(!ok, "{args:?} succeeded:\n{text}");
    assert!(
        text.contains(&target.display().to_string()) && text.contains("outside the workspace"),
        "{args:?} does not name {}:\n{text}",
        target.display()
    );
    assert_eq!(snapshot(&home(sb)), before, "{args:?} changed the home");
}

#[test]
fn connect_claude_code_through_a_linked_claude_dir_writes_nothing_in_home() {
    let sb = ws();
    let home = home(&sb);
    link(&sb, home.join(".claude"), ".claude");
    refused(
        &sb,
        &["connect", "claude-code"],
        &home.join(".claude/rules/jp-kb.md"),
    );
    assert!(!home.join(".claude/rules").exists());
}

#[test]
fn connect_codex_through_a_linked_codex_dir_leaves_the_global_config() {
    let sb = ws();
    let home = home(&sb);
    link(&sb, home.join(".codex"), ".codex");
    refused(&sb, &["connect", "codex"], &home.join(".codex/config.toml"));
}

#[test]
fn connect_claude_code_through_a_linked_mcp_json_leaves_the_user_file() {
    let sb = ws();
    let home = home(&sb);
    link(&sb, home.join(".claude.json"), ".mcp.json");
    refused(&sb, &["connect", "claude-code"], &home.join(".claude.json"));
}

#[test]
fn sync_through_a_linked_generated_layer_keeps_the_global_jp_config() {
    let sb = ws();
    let home = home(&sb);
    assert!(run(&sb, &["connect", "jp"]).0);
    std::fs::remove_file(sb.ws().join(".jp/config.d/jp-kb.toml")).unwrap();
    link(
        &sb,
        home.join(".config/jp/config.toml"),
        ".jp/config.d/jp-kb.toml",
    );
    refused(&sb, &["sync"], &home.join(".config/jp/config.toml"));
}

#[test]
fn sync_and_edits_through_a_linked_rules_file_keep_bashrc() {
    for target in ["ABS", "../../../home/.bashrc"] {
        let sb = ws();
        let home = home(&sb);
        assert!(run(&sb, &["connect", "claude-code"]).0);
        std::fs::remove_file(sb.ws().join(".claude/rules/jp-kb.md")).unwrap();
        if target == "ABS" {
            link(&sb, home.join(".bashrc"), ".claude/rules/jp-kb.md");
        } else {
            link(&sb, target, ".claude/rules/jp-kb.md");
        }
        refused(&sb, &["sync"], &home.join(".bashrc"));
        // An edit syncs the client files: the edit lands, `.bashrc` not.
        let before = snapshot(&home);
        let (_, text) = run(&sb, &["learned", "add", "project", "other"]);
        assert!(text.contains("outside the workspace"), "{text}");
        assert_eq!(snapshot(&home), before, "an edit changed the home");
        assert!(
            std::fs::read_to_string(sb.ws().join(".jp/kb.toml"))
                .unwrap()
                .contains("other")
        );
    }
}

#[test]
fn connect_jp_through_a_linked_config_d_creates_nothing_there() {
    let sb = ws();
    let home = home(&sb);
    std::fs::create_dir_all(home.join("x")).unwrap();
    link(&sb, home.join("x"), ".jp/config.d");
    refused(&sb, &["connect", "jp"], &home.join("x/jp-kb.toml"));
    assert_eq!(std::fs::read_dir(home.join("x")).unwrap().count(), 0);
}

#[test]
fn init_through_a_linked_kb_dir_creates_nothing_there() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.ws().join(".jp")).unwrap();
    std::fs::create_dir_all(sb.path().join("home/dir")).unwrap();
    let home = home(&sb);
    link(&sb, home.join("dir"), ".jp/kb");
    refused(&sb, &["init"], &home.join("dir/project/conventions.md"));
    assert_eq!(std::fs::read_dir(home.join("dir")).unwrap().count(), 0);
    // Nothing half-made inside either.
    assert!(!sb.ws().join(".jp/kb.toml").exists());
}

#[test]
fn init_adopting_through_a_linked_kb_dir_creates_nothing_there() {
    // The same attack where there is something to adopt (issue 41): the
    // links `init` makes would land in the linked directory.
    let sb = Sandbox::new();
    sb.write("ws/CLAUDE.md", "# Claude\n");
    sb.write("ws/.claude/rules/style.md", "Style.\n");
    std::fs::create_dir_all(sb.path().join("home/dir")).unwrap();
    let home = home(&sb);
    link(&sb, home.join("dir"), ".jp/kb");
    refused(&sb, &["init"], &home.join("dir/project"));
    assert_eq!(std::fs::read_dir(home.join("dir")).unwrap().count(), 0);
    assert!(!sb.ws().join(".jp/kb.toml").exists());
}

#[test]
fn a_link_that_stays_inside_is_still_written_through() {
    let sb = ws();
    std::fs::create_dir_all(sb.ws().join("shared/rules")).unwrap();
    link(&sb, "shared", ".claude");
    let (ok, text) = run(&sb, &["connect", "claude-code"]);
    assert!(ok, "{text}");
    assert!(sb.ws().join("shared/rules/jp-kb.md").is_file());
}

/// Item 2: a client file linked to an outside file is never printed.
#[test]
fn client_files_linked_outside_are_not_shown() {
    let sb = ws();
    let home = home(&sb);
    std::fs::write(home.join("secret.md"), "SECRET-TOKEN\n").unwrap();
    assert!(run(&sb, &["connect", "claude-code"]).0);
    std::fs::remove_file(sb.ws().join(".claude/rules/jp-kb.md")).unwrap();
    link(&sb, home.join("secret.md"), ".claude/rules/jp-kb.md");
    for args in [
        &["prompt", "--client", "claude-code"][..],
        &["prompt", "--client", "claude-code", "--json"],
        &["sync", "--dry-run"],
        &["check", "--client", "claude-code"],
    ] {
        let (_, text) = run(&sb, args);
        assert!(
            !text.contains("SECRET-TOKEN"),
            "{args:?} printed it:\n{text}"
        );
        assert!(text.contains("outside the workspace"), "{args:?}:\n{text}");
    }
}

/// Item 4: a FIFO or `/dev/zero` as a client file ends promptly with an
/// error naming it (the timeout in `run` fails the test on a hang).
#[test]
fn special_client_files_neither_hang_nor_exhaust_memory() {
    for kind in ["fifo", "zero"] {
        let sb = ws();
        assert!(run(&sb, &["connect", "claude-code"]).0);
        let rules = sb.ws().join(".claude/rules/jp-kb.md");
        std::fs::remove_file(&rules).unwrap();
        if kind == "fifo" {
            rustix::fs::mknodat(
                rustix::fs::CWD,
                &rules,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
                0,
            )
            .unwrap();
        } else {
            symlink("/dev/zero", &rules).unwrap();
        }
        for args in [
            &["prompt", "--client", "claude-code"][..],
            &["sync", "--dry-run"],
            &["check", "--client", "claude-code"],
        ] {
            let (ok, text) = run(&sb, args);
            assert!(!ok || text.contains("jp-kb.md"), "{kind} {args:?}:\n{text}");
            assert!(
                text.contains(".claude/rules/jp-kb.md"),
                "{kind} {args:?}:\n{text}"
            );
        }
    }
}

/// Item 3: a subject or title holding `@path` words never makes Claude
/// Code import a file: the memory file writes them as code, `connect`
/// says so, and `prompt --client` shows exactly that.
#[test]
fn import_words_in_the_section_are_written_as_code() {
    let sb = ws();
    sb.write(
        "ws/.jp/kb.toml",
        "[kb.topic.project]\ntitle = \"Read @/etc/passwd first\"\nsubjects = \"kb\"\nlearned = [\"style\"]\n",
    );
    sb.write(
        "ws/kb/style.md",
        "Use rustfmt.\n@~/.ssh/id_rsa\nmail me: a@b.c\n`@kept`\n",
    );
    let (ok, text) = run(&sb, &["connect", "claude-code"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("`@~/.ssh/id_rsa`") || text.contains("@~/.ssh/id_rsa"),
        "{text}"
    );
    assert!(text.contains("does not import"), "{text}");
    let rules = std::fs::read_to_string(sb.ws().join(".claude/rules/jp-kb.md")).unwrap();
    for line in rules.lines() {
        let bare = line
            .split_whitespace()
            .any(|w| w.starts_with('@') && !w.starts_with("@kept"));
        assert!(!bare, "an import Claude Code would follow: {line:?}");
    }
    assert!(rules.contains("`@~/.ssh/id_rsa`"), "{rules}");
    assert!(rules.contains("`@/etc/passwd`"), "{rules}");
    assert!(
        rules.contains("a@b.c") && rules.contains("`@kept`"),
        "{rules}"
    );
    // What arrives is what the file holds; `check` calls it current.
    let (_, shown) = run(&sb, &["prompt", "--client", "claude-code"]);
    assert!(shown.contains("`@~/.ssh/id_rsa`"), "{shown}");
    let (ok, check) = run(&sb, &["check", "--client", "claude-code"]);
    assert!(ok && !check.contains("KB121"), "{check}");
}

/// Item 4, the rest: a FIFO in the search cache, and a FIFO or
/// `/dev/zero` committed as `.jp/.id`, never hang a command.
#[test]
fn fifos_in_the_search_cache_and_as_the_workspace_id_do_not_hang() {
    let sb = ws();
    let cache = sb.path().join("cache");
    let search = |sb: &Sandbox| {
        sb.cmd()
            .env("XDG_CACHE_HOME", &cache)
            .args(["search", "rustfmt"])
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap()
    };
    assert!(search(&sb).status.success());
    let files: Vec<PathBuf> = walkdir::WalkDir::new(&cache)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    assert!(
        !files.is_empty(),
        "no index was written under {}",
        cache.display()
    );
    for file in &files {
        std::fs::remove_file(file).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            file,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
    }
    let out = search(&sb);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("style"), "{text}");

    for kind in ["fifo", "zero"] {
        let sb = ws();
        let id = sb.ws().join(".jp/.id");
        if kind == "fifo" {
            rustix::fs::mknodat(
                rustix::fs::CWD,
                &id,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
                0,
            )
            .unwrap();
        } else {
            symlink("/dev/zero", &id).unwrap();
        }
        let (ok, text) = run(&sb, &["list"]);
        assert!(ok, "{kind}: {text}");
    }
}
