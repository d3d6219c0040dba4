#![allow(clippy::expect_used, clippy::unwrap_used)]
//! A configuration file that is not a regular file (issue 12, item 14):
//! a directory, a FIFO, a socket, a device or a dangling symbolic link
//! where jp-kb looks for a config file is an error naming the file and
//! what it is, for every layer — never a silently missing layer, never a
//! hang on a FIFO nobody writes to.

use super::common;

use std::os::unix::net::UnixListener;
use std::path::Path;
use std::time::Duration;

use common::Sandbox;

const TOPIC: &str = "[kb.topic.project]\nsubjects = \"kb\"\n";

fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.ws().join(".jp")).unwrap();
    sb.write("ws/kb/intro.md", "Intro");
    sb
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
}

fn symlink(target: &str, path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, path).unwrap();
}

/// `jp-kb <args>` fails, within seconds, with an error naming `file` (a
/// path ending) as `what`.
fn fails_naming(sb: &Sandbox, args: &[&str], file: &str, what: &str) {
    let out = sb
        .cmd()
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} with {file} {what}: {}\n{stderr}",
        out.status
    );
    assert!(
        stderr.contains(&format!("{file}: is {what}, not a configuration file")),
        "{args:?}: {stderr}"
    );
}

#[test]
fn a_workspace_config_that_is_not_a_file_is_an_error() {
    let sb = sandbox();
    let config = sb.ws().join(".jp/config.toml");
    std::fs::create_dir_all(&config).unwrap();
    fails_naming(&sb, &["list"], ".jp/config.toml", "a directory");
    // `check` reports it as a finding, on stdout.
    let out = sb
        .cmd()
        .arg("check")
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(".jp/config.toml: cannot read configuration file: is a directory, not a configuration file"),
        "{stdout}"
    );
    std::fs::remove_dir(&config).unwrap();

    mkfifo(&config);
    fails_naming(&sb, &["list"], ".jp/config.toml", "a named pipe (FIFO)");
    fails_naming(
        &sb,
        &["learned", "add", "project", "intro"],
        ".jp/config.toml",
        "a named pipe (FIFO)",
    );
    std::fs::remove_file(&config).unwrap();

    symlink("/dev/null", &config);
    fails_naming(&sb, &["list"], ".jp/config.toml", "a character device");
    std::fs::remove_file(&config).unwrap();

    let listener = UnixListener::bind(&config).unwrap();
    fails_naming(&sb, &["list"], ".jp/config.toml", "a socket");
    drop(listener);
    std::fs::remove_file(&config).unwrap();

    // Not hidden behind a later name either.
    sb.write("ws/.jp/config.json", "{}");
    symlink("gone.toml", &config);
    let out = sb.cmd().arg("list").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(".jp/config.toml: is a symbolic link to gone.toml, which does not exist"),
        "{stderr}"
    );
}

#[test]
fn every_other_layer_is_checked_too() {
    // `.jp.toml`
    let sb = sandbox();
    sb.write("ws/.jp/config.toml", TOPIC);
    mkfifo(&sb.ws().join(".jp.toml"));
    fails_naming(&sb, &["list"], ".jp.toml", "a named pipe (FIFO)");

    // YAML workspace config
    let sb = sandbox();
    mkfifo(&sb.ws().join(".jp/config.yaml"));
    fails_naming(&sb, &["list"], ".jp/config.yaml", "a named pipe (FIFO)");

    // user-global
    let sb = sandbox();
    sb.write("ws/.jp/config.toml", TOPIC);
    std::fs::create_dir_all(sb.path().join("global/config.toml")).unwrap();
    fails_naming(&sb, &["list"], "global/config.toml", "a directory");

    // user-workspace
    let sb = sandbox();
    sb.write("ws/.jp/config.toml", TOPIC);
    sb.write("ws/.jp/.id", "abc123\n");
    mkfifo(&sb.path().join("data/workspace/ws-abc123/config.toml"));
    fails_naming(
        &sb,
        &["list"],
        "data/workspace/ws-abc123/config.toml",
        "a named pipe (FIFO)",
    );

    // an `extends` target
    let sb = sandbox();
    sb.write(
        "ws/.jp/config.toml",
        format!("extends = [\"base.toml\"]\n{TOPIC}"),
    );
    mkfifo(&sb.ws().join(".jp/base.toml"));
    fails_naming(&sb, &["list"], ".jp/base.toml", "a named pipe (FIFO)");
}

#[test]
fn missing_layers_are_still_simply_absent() {
    let sb = sandbox();
    sb.write("ws/.jp/config.toml", TOPIC);
    // A file where a layer directory would be: no such layer, as before.
    sb.write("global", "not a directory");
    sb.cmd().arg("list").assert().success();
}

/// A `kb.toml` (workspace or user-global) that is a directory, a FIFO or
/// a link to `/dev/zero` is an error naming it (issue 24, item 11): the
/// layer was skipped without a word, and the next edit went to
/// `config.toml`. Nothing hangs, nothing reads `/dev/zero`, nothing is
/// written.
/// Puts something that is not a regular file at a path.
type Make = fn(&Path);

#[test]
fn a_kb_toml_that_is_not_a_file_is_an_error() {
    let cases: [(&str, &str); 2] = [
        ("ws/.jp/kb.toml", ".jp/kb.toml"),
        ("global/kb.toml", "global/kb.toml"),
    ];
    for (rel, shown) in cases {
        let bad: [(&str, Make); 3] = [
            ("a directory", |p| std::fs::create_dir_all(p).unwrap()),
            ("a named pipe (FIFO)", mkfifo),
            ("a character device", |p| symlink("/dev/zero", p)),
        ];
        for (what, make) in bad {
            let sb = sandbox();
            sb.write("ws/.jp/config.toml", TOPIC);
            make(&sb.path().join(rel));
            fails_naming(&sb, &["list"], shown, what);
            fails_naming(&sb, &["learned", "add", "project", "intro"], shown, what);
            let config = std::fs::read_to_string(sb.ws().join(".jp/config.toml")).unwrap();
            assert_eq!(config, TOPIC, "{rel} {what}: nothing written");
        }
    }
}
