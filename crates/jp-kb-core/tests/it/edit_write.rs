//! Atomic writes, conflict detection, `save` and the undo journal, on a
//! real file system.
//!
//! Unwritable directories: these tests run as root, for whom permission
//! bits do not stop anything, so instead of `chmod` they use (a) a path
//! whose parent is a regular file (the OS refuses with "not a directory")
//! and (b) `/proc`, a file system where no file can be created, with the
//! existing read-only file `/proc/version` as target.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _};
use std::path::Path;

use jp_kb_core::internal::edit::write::{save_with_hook, write_atomic_with_hook};
use jp_kb_core::internal::edit::{
    Edit, Journal, JournalError, SaveError, WriteError, save, write_atomic,
};

const BASE: &str =
    "# config\n[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\n  \"intro\",\n]\n";

fn add(p: &str) -> Edit {
    Edit::AddLearned {
        topic: "project".into(),
        patterns: vec![p.into()],
    }
}

fn temp_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".jp-kb.tmp"))
        .collect()
}

#[test]
fn writes_new_content_and_keeps_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic(&tmp_bounds(), &path, Some(BASE.as_bytes()), b"a = 1\n").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"a = 1\n");
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn creates_a_file_that_must_not_exist_yet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.toml");
    write_atomic(&tmp_bounds(), &path, None, b"a = 1\n").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"a = 1\n");
    let err = write_atomic(&tmp_bounds(), &path, None, b"a = 2\n").unwrap_err();
    assert!(matches!(err, WriteError::Conflict { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), b"a = 1\n");
}

#[test]
fn refuses_when_the_file_changed_or_vanished() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, "changed = true\n").unwrap();
    let err = write_atomic(&tmp_bounds(), &path, Some(BASE.as_bytes()), b"x = 1\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: the file changed since it was read; not overwritten",
            path.display()
        )
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), "changed = true\n");
    fs::remove_file(&path).unwrap();
    let err = write_atomic(&tmp_bounds(), &path, Some(BASE.as_bytes()), b"x = 1\n").unwrap_err();
    assert!(matches!(err, WriteError::Conflict { .. }));
    assert!(!path.exists());
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn a_change_between_read_and_rename_is_detected_not_clobbered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let concurrent = "# edited by hand meanwhile\n";
    let mut hook = || fs::write(&path, concurrent).unwrap();
    let err = write_atomic_with_hook(
        &tmp_bounds(),
        &path,
        Some(BASE.as_bytes()),
        b"x = 1\n",
        &mut hook,
    )
    .unwrap_err();
    assert!(matches!(err, WriteError::Conflict { .. }), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), concurrent);
    assert!(
        temp_files(dir.path()).is_empty(),
        "temporary file left behind"
    );
}

#[test]
fn save_reapplies_once_after_a_concurrent_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let by_hand = BASE.replace("# config", "# config, edited meanwhile");
    let mut calls = 0;
    let saved = save_with_hook(&tmp_bounds(), &path, &add("guides/*"), &mut |attempt| {
        calls += 1;
        if attempt == 1 {
            fs::write(&path, &by_hand).unwrap();
        }
    })
    .unwrap();
    assert_eq!(calls, 2);
    let want = by_hand.replace("  \"intro\",\n", "  \"intro\",\n  \"guides/*\",\n");
    assert_eq!(fs::read_to_string(&path).unwrap(), want);
    assert_eq!(saved.before.as_deref(), Some(by_hand.as_bytes()));
    assert_eq!(saved.after, want.as_bytes());
}

#[test]
fn save_refuses_when_the_file_keeps_changing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let mut n = 0;
    let err = save_with_hook(&tmp_bounds(), &path, &add("guides/*"), &mut |_| {
        n += 1;
        fs::write(&path, BASE.replace("config", &format!("change {n}"))).unwrap();
    })
    .unwrap_err();
    assert!(matches!(err, SaveError::Conflict { .. }), "{err}");
    assert!(
        err.to_string().starts_with(&path.display().to_string()),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        BASE.replace("config", "change 2")
    );
}

#[test]
fn save_never_writes_over_invalid_toml_and_names_file_line_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let broken = "[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\"a\"\n";
    fs::write(&path, broken).unwrap();
    let err = save(&tmp_bounds(), &path, &add("b")).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: invalid TOML at line 3, column 15: unclosed array, expected `]`",
            path.display()
        )
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), broken);
}

#[test]
fn save_creates_a_missing_file_for_a_new_topic_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let err = save(&tmp_bounds(), &path, &add("x")).unwrap_err();
    assert!(
        err.to_string().contains("topic `project` is not defined"),
        "{err}"
    );
    assert!(!path.exists());
    let add_topic = Edit::AddTopic {
        id: "project".into(),
        subjects: "kb".into(),
        title: None,
        introduction: None,
        description: None,
    };
    let saved = save(&tmp_bounds(), &path, &add_topic).unwrap();
    assert_eq!(saved.before, None);
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "[kb.topic.project]\nsubjects = \"kb\"\n"
    );
}

#[test]
fn save_without_change_does_not_touch_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let saved = save(&tmp_bounds(), &path, &add("intro")).unwrap();
    assert!(!saved.applied.changed);
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
}

#[test]
fn writes_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.toml");
    let link = dir.path().join("config.toml");
    fs::write(&real, BASE).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    save(&tmp_bounds(), &link, &add("guides/*")).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(fs::read_to_string(&real).unwrap().contains("guides/*"));
}

#[test]
fn unwritable_directory_parent_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    fs::write(&file, "x").unwrap();
    let path = file.join("config.toml");
    let err = write_atomic(&tmp_bounds(), &path, None, b"a = 1\n").unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, WriteError::Io { .. }), "{msg}");
    assert!(msg.starts_with(&path.display().to_string()), "{msg}");
    assert!(
        msg.contains("cannot create its directory") && msg.contains("is a file"),
        "{msg}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn unwritable_directory_existing_file_on_proc() {
    let path = Path::new("/proc/version");
    // Linux always has procfs; without it this case cannot be staged, and
    // that is a failure to say, not a pass.
    let before = fs::read(path).expect("/proc/version (procfs) is needed to stage this case");
    // Bounded to /proc itself: the write is allowed there, and fails.
    let proc = jp_kb_core::internal::edit::Boundaries::new([std::path::PathBuf::from("/proc")]);
    let err = write_atomic(&proc, path, Some(&before), b"a = 1\n").unwrap_err();
    assert!(matches!(err, WriteError::Io { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("/proc/version: cannot create a temporary file"),
        "{err}"
    );
    assert_eq!(fs::read(path).unwrap(), before);
}

#[test]
fn journal_undoes_and_redoes_and_merges_or_drops_over_foreign_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let mut j = Journal::new(tmp_bounds());
    j.save(&path, &add("a")).unwrap();
    j.save(&path, &add("b")).unwrap();
    let after_b = fs::read_to_string(&path).unwrap();
    assert!(after_b.contains("\"a\",\n  \"b\","));
    assert_eq!(
        j.undo().unwrap().map(|c| c[0].summary.clone()).as_deref(),
        Some("added `b` to kb.topic.project.learned")
    );
    assert!(!fs::read_to_string(&path).unwrap().contains("\"b\""));
    j.undo().unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), BASE);
    assert!(j.undo().unwrap().is_none());
    j.redo().unwrap();
    j.redo().unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), after_b);
    assert!(!j.can_redo());

    // A change by someone else on other lines: the undo is re-applied on
    // top of it, and so is the redo.
    let foreign = after_b.replace("# config", "# mine");
    fs::write(&path, &foreign).unwrap();
    j.undo().unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        foreign.replace("  \"b\",\n", "")
    );
    j.redo().unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), foreign);
    j.undo().unwrap();
    // A change of the same lines: nothing is written, and that file's
    // history is dropped (said by the error, once).
    fs::write(&path, "x = 1\n").unwrap();
    let err = j.redo().unwrap_err();
    assert!(
        matches!(err, JournalError::HistoryDropped { action: "redo", .. }),
        "{err}"
    );
    assert!(err.to_string().starts_with(&format!(
        "{}: changed outside jp-kb where this redo would write; dropped the undo history of this file",
        path.display()
    )));
    assert_eq!(fs::read_to_string(&path).unwrap(), "x = 1\n");
    assert!(!j.can_undo() && !j.can_redo());
}

/// A comment added by hand right under the edited line does not block the
/// undo: its place is not in doubt.
#[test]
fn journal_undo_merges_a_line_inserted_right_under_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let base = "[kb.topic.project]\nsubjects = \"kb\"\nlearned = [\"a\"]\n";
    fs::write(&path, base).unwrap();
    let mut j = Journal::new(tmp_bounds());
    j.save(&path, &add("b")).unwrap();
    let after = fs::read_to_string(&path).unwrap();
    assert_eq!(after, base.replace("[\"a\"]", "[\"a\", \"b\"]"));
    fs::write(&path, format!("{after}# by hand\n")).unwrap();
    j.undo().unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        format!("{base}# by hand\n")
    );
    j.redo().unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        format!("{after}# by hand\n")
    );
}

#[test]
fn journal_undo_of_a_created_file_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let mut j = Journal::new(tmp_bounds());
    let add_topic = Edit::AddTopic {
        id: "t".into(),
        subjects: "kb".into(),
        title: None,
        introduction: None,
        description: None,
    };
    j.save(&path, &add_topic).unwrap();
    assert!(path.exists());
    j.undo().unwrap();
    assert!(!path.exists());
    j.redo().unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "[kb.topic.t]\nsubjects = \"kb\"\n"
    );
    // Recording after an undo drops the redo stack.
    j.undo().unwrap();
    fs::write(&path, BASE).unwrap();
    j.save(&path, &add("z")).unwrap();
    assert!(!j.can_redo());
}

/// Runs `f` on another thread while this one holds the write lock of
/// `path` for `hold`; returns how long `f` took.
fn while_locked(
    path: &Path,
    hold: std::time::Duration,
    f: impl FnOnce() + Send + 'static,
) -> std::time::Duration {
    let lock = jp_kb_core::internal::edit::write::lock(&tmp_bounds(), path).unwrap();
    let start = std::time::Instant::now();
    let worker = std::thread::spawn(move || {
        f();
        start.elapsed()
    });
    std::thread::sleep(hold);
    drop(lock);
    worker.join().unwrap()
}

#[test]
fn save_waits_for_the_lock_of_another_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let hold = std::time::Duration::from_millis(300);
    let p = path.clone();
    let took = while_locked(&path, hold, move || {
        save(&tmp_bounds(), &p, &add("waited")).unwrap();
    });
    assert!(took >= hold, "save did not wait for the lock: {took:?}");
    assert!(fs::read_to_string(&path).unwrap().contains("\"waited\""));
    // Undo (the TUI's path too) takes the same lock.
    let mut journal = Journal::new(tmp_bounds());
    journal.save(&path, &add("undo-me")).unwrap();
    let took = while_locked(&path, hold, move || {
        journal.undo().unwrap();
    });
    assert!(took >= hold, "undo did not wait for the lock: {took:?}");
    assert!(!fs::read_to_string(&path).unwrap().contains("undo-me"));
}

#[test]
fn a_lock_held_too_long_is_a_clear_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    let _held = jp_kb_core::internal::edit::write::lock(&tmp_bounds(), &path).unwrap();
    let err = std::thread::scope(|s| {
        s.spawn(|| {
            jp_kb_core::internal::edit::write::lock_within(
                &tmp_bounds(),
                &path,
                std::time::Duration::from_millis(200),
            )
        })
        .join()
        .unwrap()
        .unwrap_err()
    });
    assert!(matches!(err, WriteError::Locked { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!(
            "{}: another program kept {} locked for 0.",
            path.display(),
            dir.path().display()
        )) && msg.ends_with("nothing written, try again once it has finished"),
        "{msg}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), BASE);
}

#[test]
fn a_write_removes_temporary_files_whose_writer_is_gone_and_only_those() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    // A pid that cannot be running: above Linux's largest pid_max.
    let dead = dir.path().join(".config.toml.4194305.AbC123.jp-kb.tmp");
    // pid 1 always runs.
    let live = dir.path().join(".config.toml.1.AbC123.jp-kb.tmp");
    // Without a pid (an older jp-kb): removed once clearly stale.
    let old_unowned = dir.path().join(".config.toml.Xy7Zq1.jp-kb.tmp");
    let new_unowned = dir.path().join(".config.toml.Qq1Zz2.jp-kb.tmp");
    let other_file = dir.path().join(".other.toml.4194305.AbC123.jp-kb.tmp");
    for p in [&dead, &live, &old_unowned, &new_unowned, &other_file] {
        fs::write(p, "secret = 1\n").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(&old_unowned)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    save(&tmp_bounds(), &path, &add("next")).unwrap();
    let mut left = temp_files(dir.path());
    left.sort();
    assert_eq!(
        left,
        [
            ".config.toml.1.AbC123.jp-kb.tmp",
            ".config.toml.Qq1Zz2.jp-kb.tmp",
            ".other.toml.4194305.AbC123.jp-kb.tmp",
        ]
    );
}

#[test]
fn a_new_file_gets_the_usual_mode_and_an_existing_one_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    fs::write(&path, BASE).unwrap();
    for mode in [0o600, 0o640, 0o604, 0o400] {
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let before = fs::read(&path).unwrap();
        write_atomic(
            &tmp_bounds(),
            &path,
            Some(&before),
            format!("m = {mode}\n").as_bytes(),
        )
        .unwrap();
        let got = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(got, mode, "{mode:o}");
    }
    let fresh = dir.path().join("fresh.toml");
    let probe = dir.path().join("probe");
    fs::write(&probe, "").unwrap();
    write_atomic(&tmp_bounds(), &fresh, None, b"a = 1\n").unwrap();
    assert_eq!(
        fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
        fs::metadata(&probe).unwrap().permissions().mode() & 0o777,
        "a new file gets what any new file gets under this umask"
    );
}

#[test]
fn save_refuses_a_fifo_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.clone();
    std::thread::spawn(move || {
        let _ = tx.send(
            save(&tmp_bounds(), &p, &add("x"))
                .map(|_| ())
                .map_err(|e| e.to_string()),
        );
    });
    let result = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("save blocked on the FIFO");
    let msg = result.unwrap_err();
    assert!(
        msg.starts_with(&format!(
            "{}: cannot read: is a FIFO, not a regular file; jp-kb only edits regular files",
            path.display()
        )),
        "{msg}"
    );
    assert!(fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
    assert!(temp_files(dir.path()).is_empty());
}

/// The layer picker offers the user-workspace `kb.toml` "created on the
/// first edit" though JP has not created its directory yet: saving there
/// creates the directory (it failed with "cannot open its directory to
/// lock it"), and undo removes the file again.
#[test]
fn saving_a_new_file_creates_its_missing_directory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("workspace/jp-abc12/kb.toml");
    let mut journal = Journal::new(tmp_bounds());
    let saved = journal
        .save_with(&path, &mut |source| {
            jp_kb_core::internal::edit::apply_declaring(source, &add("guide"))
        })
        .unwrap();
    assert!(saved.before.is_none());
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "[kb.topic.project]\nlearned = [\"guide\"]\n"
    );
    journal.undo().unwrap();
    assert!(!path.exists());
}

/// Every test file lives under the system's temporary directory: writes
/// are bounded to it.
fn tmp_bounds() -> jp_kb_core::internal::edit::Boundaries {
    jp_kb_core::internal::edit::Boundaries::new([std::env::temp_dir()])
}
