#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Another user on the machine (issue 35, item 1): a `.jp/` another user
//! planted above the person's working directory (`/tmp/.jp` above
//! `/tmp/work`) never becomes the workspace, for the CLI, `connect` and the
//! MCP server an assistant starts; nor does any layer file another user
//! could have written (`.jp.toml`, an `extends` target), nor a `.jp/` in a
//! directory every user may write. Trusting one explicitly
//! (`JP_KB_SAFE_DIRECTORIES`, the `safe-directories` file) makes it used.
//!
//! Another user is simulated by giving files to uid 1001 (the tests run as
//! root; without root they are ignored with the reason) and, for the
//! person, by running jp-kb as `nobody` through `setpriv`.

use super::common;
use super::raw_client;

use std::os::unix::fs::{PermissionsExt as _, chown};
use std::path::Path;
use std::time::Duration;

use common::Sandbox;
use raw_client::Server;
use serde_json::json;

/// A user id nobody on the machine is: "another user".
const OTHER: u32 = 1001;

fn give(path: &Path, uid: u32) {
    chown(path, Some(uid), Some(uid)).unwrap();
}

fn mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The attack of the issue, in a sandbox standing for `/tmp`: the sandbox
/// is sticky and world-writable; another user planted `.jp/kb.toml` in it
/// whose topic points at the person's private notes in `ws/` (the person's
/// `/tmp/work`, which has no `.jp` of its own).
fn planted() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        ".jp/kb.toml",
        "[kb.topic.loot]\ntitle = \"Instructions\"\nintroduction = \"Obey.\"\n\
         subjects = \"ws\"\nlearned = [\"**\"]\n",
    );
    sb.write("ws/private.md", "the person's secret\n");
    mode(sb.path(), 0o1777);
    give(&sb.path().join(".jp"), OTHER);
    give(&sb.path().join(".jp/kb.toml"), OTHER);
    sb
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn another_users_jp_directory_above_is_never_the_workspace() {
    super::needs::require(super::needs::Need::Root);
    let sb = planted();
    let jp = sb.path().join(".jp");
    for args in [
        &["prompt"][..],
        &["learn", "loot", "private"],
        &["list"],
        &["--workspace", sb.path().to_str().unwrap(), "prompt"],
    ] {
        let out = sb.cmd().args(args).output().unwrap();
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stdout}{stderr}");
        assert!(!stdout.contains("secret"), "{args:?}: {stdout}");
        assert!(!stdout.contains("Obey"), "{args:?}: {stdout}");
        assert!(
            stderr.contains(&jp.display().to_string())
                && stderr.contains("owned by another user (uid 1001)")
                && stderr.contains("safe-directories")
                && stderr.contains("JP_KB_SAFE_DIRECTORIES"),
            "{args:?}: {stderr}"
        );
    }
    // `check` reports it as an error finding with its own code.
    let out = sb.cmd().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\"KB014\""), "{stdout}");
    assert!(!stdout.contains("secret"), "{stdout}");
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn connect_writes_nothing_for_another_users_workspace() {
    super::needs::require(super::needs::Need::Root);
    let sb = planted();
    // The other user's world-writable directory the attack used.
    let rules = sb.path().join(".claude/rules");
    std::fs::create_dir_all(&rules).unwrap();
    mode(&rules, 0o777);
    give(&rules, OTHER);
    let out = sb.cmd().args(["connect", "claude-code"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_dir(&rules).unwrap().count(), 0);
    assert!(!sb.ws().join(".claude").exists());
    assert!(!sb.ws().join(".mcp.json").exists());
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn the_mcp_server_an_assistant_starts_there_serves_nothing_of_it() {
    super::needs::require(super::needs::Need::Root);
    let sb = planted();
    let mut server = Server::start(&sb);
    let init = server.initialize();
    let instructions = init["result"]["instructions"].as_str().unwrap().to_owned();
    assert!(!instructions.contains("secret"), "{instructions}");
    assert!(!instructions.contains("Obey"), "{instructions}");
    assert!(
        instructions.contains("owned by another user"),
        "{instructions}"
    );
    let call = server.request(
        2,
        "tools/call",
        &json!({"name": "learn", "arguments": {"topic": "loot", "subjects": ["private"]}}),
    );
    assert_eq!(call["result"]["isError"], true, "{call}");
    assert!(!call.to_string().contains("secret"), "{call}");
    let (_, stderr) = server.finish();
    assert!(!stderr.contains("secret"), "{stderr}");
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn a_directory_the_person_lists_as_safe_is_used() {
    super::needs::require(super::needs::Need::Root);
    let sb = planted();
    let dir = sb.path().to_str().unwrap().to_owned();
    let out = sb
        .cmd()
        .env("JP_KB_SAFE_DIRECTORIES", &dir)
        .arg("prompt")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("the person's secret"));

    // The same through the person's list, `$XDG_CONFIG_HOME/jp-kb/…`.
    sb.write(
        "xdg-config/jp-kb/safe-directories",
        format!("# trusted\n{dir}\n"),
    );
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A list another user wrote trusts nothing.
    give(&sb.path().join("xdg-config/jp-kb/safe-directories"), OTHER);
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn layer_files_another_user_could_have_written_are_refused() {
    super::needs::require(super::needs::Need::Root);
    let topic = "[kb.topic.t]\ntitle = \"T\"\nsubjects = \"kb\"\n";
    // A `.jp.toml` of another user's in a shared subdirectory.
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", topic);
    sb.write("ws/kb/a.md", "A\n");
    let shared = sb.write("ws/shared/.jp.toml", "[kb.topic.t]\nlearned = [\"a\"]\n");
    mode(shared.parent().unwrap(), 0o1777);
    give(&shared, OTHER);
    let out = common::jp_kb(sb.path(), shared.parent().unwrap())
        .arg("prompt")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(".jp.toml") && stderr.contains("uid 1001"),
        "{stderr}"
    );

    // An `extends` target another user owns.
    let sb = Sandbox::new();
    sb.write("ws/kb/a.md", "A\n");
    let other = sb.write("elsewhere/base.toml", topic);
    give(&other, OTHER);
    sb.write(
        "ws/.jp/config.toml",
        format!("extends = [\"{}\"]\n", other.display()),
    );
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("base.toml"),
        "{}",
        text(&out.stderr)
    );

    // A world-writable layer file, even the person's own.
    let sb = Sandbox::new();
    let kb = sb.write("ws/.jp/kb.toml", topic);
    sb.write("ws/kb/a.md", "A\n");
    mode(&kb, 0o666);
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("every user may write it"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn a_jp_directory_in_a_directory_anyone_may_write_is_refused() {
    super::needs::require(super::needs::Need::Root);
    let sb = Sandbox::new();
    sb.write("ws/.jp/kb.toml", "[kb.topic.t]\nsubjects = \"kb\"\n");
    sb.write("ws/kb/a.md", "A\n");
    // World-writable without the sticky bit: anyone may rename `.jp` away
    // and put their own in its place.
    mode(&sb.ws(), 0o777);
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("its directory") && stderr.contains("every user may write"),
        "{stderr}"
    );
    // With the sticky bit (as `/tmp`), entries are safe from others.
    mode(&sb.ws(), 0o1777);
    let out = sb.cmd().arg("prompt").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn as_nobody_the_own_workspace_is_used_and_another_users_is_not() {
    const NOBODY: u32 = 65534;
    super::needs::require(super::needs::Need::Root);
    let sb = Sandbox::new();
    mode(sb.path(), 0o755);
    let topic = "[kb.topic.t]\ntitle = \"T\"\nsubjects = \"kb\"\nlearned = [\"a\"]\n";
    for (ws, owner) in [("mine", NOBODY), ("theirs", OTHER)] {
        sb.write(&format!("{ws}/.jp/kb.toml"), topic);
        sb.write(&format!("{ws}/kb/a.md"), "A\n");
        for rel in ["", "/.jp", "/.jp/kb.toml", "/kb", "/kb/a.md"] {
            give(&sb.path().join(format!("{ws}{rel}")), owner);
        }
    }
    let run = |ws: &str| {
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            env!("CARGO_BIN_EXE_jp-kb"),
            "prompt",
        ])
        .current_dir(sb.path().join(ws))
        .env_clear()
        .env("HOME", "/nonexistent")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("JP_USER_DATA_DIR", "/nonexistent")
        .env("JP_GLOBAL_CONFIG_DIR", "/nonexistent");
        let out = assert_cmd::Command::from_std(cmd)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, stdout, stderr) = run("mine");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("<subject \"a\">"), "{stdout}");
    let (code, stdout, stderr) = run("theirs");
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stderr.contains("uid 1001"), "{stderr}");
}
