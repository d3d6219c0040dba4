#![cfg(target_os = "linux")]
//! Issue 35, item 4: the lock every edit takes must not be another user's
//! to hold. A user who can only read `.jp/` must not be able to make every
//! edit fail (the old lock was `flock` on the directory, which any reader
//! can take); a user who can write there may hold it, and an edit that
//! waits for them in vain says who it waited for. Another user is `nobody`
//! (by `setpriv`, so the tests run as root, as CI does; ignored with the
//! reason otherwise).

use super::common::{Sandbox, jp_kb_std};
use crate::needs::{Need, require};

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str =
    "# shared\n[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\n  \"intro\",\n]\n";

/// `nobody`'s user and group ids.
const NOBODY: u32 = 65534;

/// A workspace any user may read (a temporary directory is its owner's
/// alone).
fn readable_workspace() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", CONFIG);
    sb.write("ws/kb/intro.md", "Intro");
    for dir in [
        sb.path().to_path_buf(),
        sb.ws(),
        sb.ws().join(".jp"),
        sb.ws().join("kb"),
    ] {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    sb
}

/// `nobody` holding an exclusive `flock` on `path` (`flock(1)`, which
/// opens it read-only, creating it when missing and allowed) until the
/// returned child's stdin closes.
fn nobody_locks(path: &Path) -> Child {
    require(Need::Root);
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .args(["flock", "--close", "--exclusive"])
        .arg(path)
        .arg("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the kernel lists a lock on `path`'s inode; false when none
/// came (the holder could not take it).
fn locked(path: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(meta) = std::fs::metadata(path) {
            let ino = format!(":{} ", meta.ino());
            let locks = std::fs::read_to_string("/proc/locks").unwrap();
            if locks.lines().any(|l| l.contains(&ino)) {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Lets the holder go and waits for it.
fn release(mut holder: Child) {
    drop(holder.stdin.take());
    holder.wait().unwrap();
}

fn learned_add(sb: &Sandbox, pattern: &str) -> (std::process::Output, Duration) {
    let start = Instant::now();
    let out = jp_kb_std(sb.path(), &sb.ws())
        .args(["learned", "add", "project", pattern])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out, start.elapsed())
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn a_user_who_can_only_read_the_workspace_cannot_stop_an_edit() {
    let sb = readable_workspace();
    let jp = sb.ws().join(".jp");
    // The directory itself: what every edit used to lock.
    let holder = nobody_locks(&jp);
    assert!(locked(&jp), "nobody could not lock {}", jp.display());
    // Nor can nobody make the lock file of a directory it cannot write.
    let lock_file = jp.join(".jp-kb.lock");
    let mut attempt = nobody_locks(&lock_file);
    drop(attempt.stdin.take());
    let status = attempt.wait().unwrap();
    assert!(!status.success(), "nobody created {}", lock_file.display());

    // Blocked, the edit gives up after five seconds and fails: its
    // success is the proof, no clock a busy machine could slow.
    let (out, _) = learned_add(&sb, "not-blocked");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(jp.join("config.toml")).unwrap();
    assert!(text.contains("\"not-blocked\""), "{text}");
    // The lock leaves nothing behind.
    assert!(!lock_file.exists());
    release(holder);
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn a_lock_file_left_readable_by_others_is_not_theirs_to_hold() {
    let sb = readable_workspace();
    let jp = sb.ws().join(".jp");
    // As a checkout of a repository that committed one would leave it:
    // the person's, readable by everyone.
    let lock_file = jp.join(".jp-kb.lock");
    std::fs::write(&lock_file, "").unwrap();
    std::fs::set_permissions(&lock_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let holder = nobody_locks(&lock_file);
    assert!(locked(&lock_file), "nobody could not lock it");

    // Blocked, the edit gives up after five seconds and fails: its
    // success is the proof, no clock a busy machine could slow.
    let (out, _) = learned_add(&sb, "not-blocked");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    release(holder);
}

#[test]
#[cfg_attr(
    lacks = "root",
    ignore = "needs root, to give files to another user (run the tests as root)"
)]
fn a_lock_held_by_another_user_who_may_write_names_them_and_their_process() {
    let sb = readable_workspace();
    let jp = sb.ws().join(".jp");
    // `.jp/` shared with nobody's group: nobody may write there, so
    // nobody may hold its lock.
    std::os::unix::fs::chown(&jp, None, Some(NOBODY)).unwrap();
    std::fs::set_permissions(&jp, std::fs::Permissions::from_mode(0o775)).unwrap();
    let lock_file = jp.join(".jp-kb.lock");
    let holder = nobody_locks(&lock_file);
    assert!(locked(&lock_file), "nobody could not lock it");
    let pid = holder.id();

    let (out, took) = learned_add(&sb, "blocked");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(took >= Duration::from_secs(5), "gave up after {took:?}");
    assert!(
        stderr.contains("config.toml: another program kept")
            && stderr.contains(" locked for ")
            && stderr.contains(&format!("process {pid} (flock) of user nobody"))
            && stderr.contains("nothing written, try again"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(jp.join("config.toml")).unwrap(),
        CONFIG
    );
    release(holder);
}
