#![allow(clippy::unwrap_used)]
use super::*;
use std::io::Read as _;
use std::os::unix::fs::symlink;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{CWD, FileType, Mode, RenameFlags};

/// A root `ws` holding `t/a.md` ("inside"); `secret.md` ("SECRET") beside
/// it, outside.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("ws");
    std::fs::create_dir_all(root.join("t")).unwrap();
    std::fs::write(root.join("t/a.md"), "inside").unwrap();
    std::fs::write(base.join("secret.md"), "SECRET").unwrap();
    (tmp, root, base.join("secret.md"))
}

fn read(beneath: &Beneath, rel: &str) -> Result<String, String> {
    let mut opened = beneath
        .open_file(Path::new(rel))
        .map_err(|e| e.to_string())?;
    let mut text = String::new();
    opened.file.read_to_string(&mut text).unwrap();
    Ok(text)
}

#[test]
fn links_inside_are_followed_links_out_refused() {
    let (_tmp, root, secret) = setup();
    symlink("a.md", root.join("t/rel.md")).unwrap();
    symlink(root.join("t/a.md"), root.join("t/abs.md")).unwrap();
    symlink(&secret, root.join("t/out.md")).unwrap();
    symlink("../../secret.md", root.join("t/up.md")).unwrap();
    let beneath = Beneath::open(&root).unwrap();
    for inside in ["t/a.md", "t/rel.md", "t/abs.md"] {
        assert_eq!(read(&beneath, inside).as_deref(), Ok("inside"), "{inside}");
    }
    for outside in ["t/out.md", "t/up.md", "../secret.md"] {
        assert_eq!(
            read(&beneath, outside),
            Err("resolves outside the root".to_owned()),
            "{outside}"
        );
    }
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let (_tmp, root, _) = setup();
    rustix::fs::mknodat(
        CWD,
        root.join("t/pipe.md"),
        FileType::Fifo,
        Mode::RUSR | Mode::WUSR,
        0,
    )
    .unwrap();
    let beneath = Beneath::open(&root).unwrap();
    assert_eq!(
        read(&beneath, "t/pipe.md"),
        Err("is a named pipe (FIFO), not a regular file".to_owned())
    );
    assert!(matches!(
        beneath.open_file(Path::new("t")),
        Err(BeneathError::NotRegular(FileKind::Directory))
    ));
}

#[test]
fn directories_open_and_are_made_beneath_only() {
    let (_tmp, root, secret) = setup();
    let base = secret.parent().unwrap().to_path_buf();
    let beneath = Beneath::open(&root).unwrap();
    beneath.create_dirs(Path::new(".claude/rules")).unwrap();
    let dir = beneath.open_dir(Path::new(".claude/rules")).unwrap();
    dir.write("probe", "x").unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join(".claude/rules/probe")).unwrap(),
        "x"
    );
    // A directory swapped for a link leading out: neither opened nor
    // made through.
    std::fs::create_dir(base.join("home")).unwrap();
    std::fs::remove_dir_all(root.join(".claude")).unwrap();
    symlink(base.join("home"), root.join(".claude")).unwrap();
    assert!(matches!(
        beneath.open_dir(Path::new(".claude/rules")),
        Err(BeneathError::Outside)
    ));
    assert!(matches!(
        beneath.create_dirs(Path::new(".claude/rules")),
        Err(BeneathError::Outside)
    ));
    assert!(!base.join("home/rules").exists());
    assert!(matches!(
        beneath.create_dirs(Path::new("../x")),
        Err(BeneathError::Outside)
    ));
    sync_dir(&beneath.open_dir(Path::new("")).unwrap()).unwrap();
}

/// Swaps `a` and `b` atomically, over and over, until told to stop.
fn flipper(a: PathBuf, b: PathBuf, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            rustix::fs::renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
        }
    })
}

#[test]
fn a_racing_swap_never_reads_or_opens_outside() {
    let (_tmp, root, secret) = setup();
    let base = root.parent().unwrap().to_path_buf();
    symlink(&secret, base.join("link.md")).unwrap();
    std::fs::create_dir_all(root.join("t/sub")).unwrap();
    std::fs::write(root.join("t/sub/secret.md"), "inside too").unwrap();
    symlink(&base, base.join("link-dir")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let flippers = [
        flipper(root.join("t/a.md"), base.join("link.md"), Arc::clone(&stop)),
        flipper(root.join("t/sub"), base.join("link-dir"), Arc::clone(&stop)),
    ];
    let beneath = Beneath::open(&root).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..2000 {
        for rel in ["t/a.md", "t/sub/secret.md"] {
            *seen.entry(read(&beneath, rel)).or_insert(0) += 1;
        }
        // A directory handle on `t/sub` is never the directory outside.
        if let Ok(dir) = beneath.open_dir(Path::new("t/sub")) {
            assert!(
                !dir.exists("secret.md") || dir.read_to_string("secret.md").unwrap() != "SECRET"
            );
        }
    }
    stop.store(true, Ordering::Relaxed);
    for f in flippers {
        f.join().unwrap();
    }
    assert!(!seen.contains_key(&Ok("SECRET".to_owned())), "{seen:?}");
    assert!(seen.contains_key(&Ok("inside".to_owned())), "{seen:?}");
    assert!(
        seen.contains_key(&Err("resolves outside the root".to_owned())),
        "{seen:?}"
    );
}

#[test]
fn a_link_to_a_special_file_outside_is_refused_without_opening_it() {
    use std::os::unix::fs::OpenOptionsExt as _;
    let (_tmp, root, secret) = setup();
    let pipe = secret.with_file_name("pipe");
    rustix::fs::mknodat(CWD, &pipe, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
    symlink(&pipe, root.join("t/pipe.md")).unwrap();
    // A writer waits in `open` until someone opens the FIFO to read: were
    // jp-kb to open it (as it would a device: some act when opened), the
    // writer would go on.
    let opened = Arc::new(AtomicBool::new(false));
    let writer = {
        let (pipe, opened) = (pipe.clone(), Arc::clone(&opened));
        std::thread::spawn(move || {
            let file = std::fs::OpenOptions::new().write(true).open(&pipe);
            opened.store(true, Ordering::SeqCst);
            file
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(50));
    let beneath = Beneath::open(&root).unwrap();
    assert!(matches!(
        beneath.open_file(Path::new("t/pipe.md")),
        Err(BeneathError::NotRegular(FileKind::Fifo))
    ));
    assert!(matches!(
        open_checked(&root, &root.join("t/pipe.md")),
        Err(BeneathError::NotRegular(FileKind::Fifo))
    ));
    std::thread::sleep(std::time::Duration::from_millis(200));
    let was_opened = opened.load(Ordering::SeqCst);
    // Lets the writer go.
    let _reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits().cast_signed())
        .open(&pipe)
        .unwrap();
    writer.join().unwrap().unwrap();
    assert!(!was_opened, "the FIFO was opened");
}
