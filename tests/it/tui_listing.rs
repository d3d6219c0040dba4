#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The first frame before the walk (issue 26 item 7): the selected
//! topic's rows come from a listing of its directory (no `stat`) before
//! the load; nothing depending on a size is shown as known meanwhile;
//! keys pressed meanwhile are kept and act on the loaded state; and the
//! listing names the subjects the load names.

use std::path::Path;
use std::sync::mpsc::Receiver;

use super::tui_support::{Demo, filter};
use jp_kb::tui::event::Event;
use jp_kb::tui::harness::Harness;

/// Opens `root` as the terminal does (the load on its worker).
fn open_loading(root: &Path) -> (Harness, Receiver<Event>) {
    Harness::open_loading(root, 100, 30, true, false)
}

/// The next event of the load, which must be a listing, dispatched.
fn take_listing(h: &mut Harness, loads: &Receiver<Event>) {
    let listed = loads.recv().expect("the listing arrives");
    assert!(matches!(listed, Event::Listed(_)), "{listed:?}");
    h.action(listed);
}

/// The next event of the load, which must be the load, dispatched.
fn take_load(h: &mut Harness, loads: &Receiver<Event>) {
    let loaded = loads.recv().expect("the load arrives");
    assert!(matches!(loaded, Event::Loaded(_)), "{loaded:?}");
    h.action(loaded);
}

/// A figure shown as known: digits before ` tok` (a count), or a `+`/`-`
/// cost.
fn shows_a_count(screen: &str) -> bool {
    screen.lines().any(|line| {
        line.match_indices(" tok").any(|(at, _)| {
            line[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_digit())
        })
    })
}

#[test]
fn rows_come_before_the_load_with_no_size_shown_as_known() {
    let dir = jp_kb::tui::demo::materialize().expect("demo");
    let root = dir.path().canonicalize().unwrap();
    let (mut h, loads) = open_loading(&root);
    take_listing(&mut h, &loads);
    assert!(!h.is_loaded() && h.is_loading());
    let screen = filter(&h.screen(), &root);
    insta::assert_snapshot!(screen);
    // The rows of the first topic, by name.
    let listed = h.listed_subjects().expect("listed");
    assert!(listed > 3, "{listed}");
    assert!(screen.contains("code-quality.md"), "{screen}");
    // No count, cost or total: the token column, the prompt and the
    // topics' counts all say they are being read.
    assert!(!shows_a_count(&screen), "{screen}");
    assert!(screen.contains("prompt: … tok") && screen.contains("reading sizes…"));
    take_load(&mut h, &loads);
    assert!(h.is_loaded() && !h.is_loading());
    assert_eq!(filter(&h.screen(), &root), Demo::new(100, 30).screen());
}

/// Keys pressed before the load are kept, in order, and act on the
/// loaded state as if pressed after it: moves, and an edit, which is
/// planned only then.
#[test]
fn keys_before_the_load_are_kept_and_act_on_the_loaded_state() {
    // Down to `onboarding/tools/editors.md`, an available subject.
    let keys = "\tjjjjjjjjj";
    let dir = jp_kb::tui::demo::materialize().expect("demo");
    let root = dir.path().canonicalize().unwrap();
    let config = root.join(".jp/kb.toml");
    let before = std::fs::read_to_string(&config).unwrap();
    let (mut h, loads) = open_loading(&root);
    h.keys(keys);
    take_listing(&mut h, &loads);
    // `l` learns the selected subject: an edit, kept like any key.
    h.keys("l");
    assert_eq!(h.kept_keys(), keys.chars().count() + 1);
    assert!(
        h.status_line().contains("11 keys kept"),
        "{}",
        h.status_line()
    );
    assert!(h.outside.is_empty(), "{:?}", h.outside);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
    take_load(&mut h, &loads);
    assert_eq!(h.kept_keys(), 0);
    // The same keys pressed on a loaded demo give the same screen and
    // the same configuration.
    let mut d = Demo::new(100, 30);
    d.keys(keys);
    d.keys("l");
    assert_eq!(filter(&h.screen(), &root), d.screen());
    assert_ne!(std::fs::read_to_string(&config).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), d.config_text());
}

/// Quitting does not wait for the load, nor for the keys kept.
#[test]
fn quit_acts_before_the_load() {
    let dir = jp_kb::tui::demo::materialize().expect("demo");
    let (mut h, _loads) = open_loading(dir.path());
    h.keys("jq");
    assert!(h.quits());
}

/// The listing names the subjects the load names, in the same order and
/// states, on a tree with hidden files, symbolic links (inside, outside,
/// broken, to a directory), a topic nested in another (listed on its
/// own; the load takes it from the outer walk) and `disabled` globs.
#[cfg(unix)]
#[test]
fn the_listing_is_the_loaded_subject_set() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        ".jp/kb.toml",
        "[kb.topic.inner]\nsubjects = \"kb/inner\"\nlearned = [\"a/**\"]\n\
         disabled = [\"b/*\"]\n\n[kb.topic.outer]\nsubjects = \"kb\"\n",
    );
    for rel in [
        "kb/top.md",
        "kb/inner/a/one.md",
        "kb/inner/a/.two.md",
        "kb/inner/.hid/three.md",
        "kb/inner/b/four.txt",
        "kb/inner/b/five.md",
        "kb/inner/six.json",
        "kb/inner/noext",
    ] {
        write(rel, "text\n");
    }
    write("secret.md", "outside the topic, inside the root");
    let inner = root.join("kb/inner");
    std::os::unix::fs::symlink(inner.join("six.json"), inner.join("link.md")).unwrap();
    std::os::unix::fs::symlink(inner.join("a"), inner.join("c")).unwrap();
    std::os::unix::fs::symlink(root.join("gone.md"), inner.join("broken.md")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", inner.join("out.md")).unwrap();
    let (mut h, loads) = open_loading(&root);
    take_listing(&mut h, &loads);
    let listed = h.listed_slugs().expect("listed");
    let screen = h.screen();
    assert!(!shows_a_count(&screen), "{screen}");
    take_load(&mut h, &loads);
    let res = h.resolution().expect("the inner topic resolved");
    let loaded: Vec<String> = res.subjects().iter().map(|s| s.slug().to_owned()).collect();
    assert_eq!(listed, loaded);
    for slug in [
        "a/one",
        "a/two",
        "hid/three",
        "b/four",
        "c/one",
        "link",
        "noext",
    ] {
        assert!(loaded.iter().any(|s| s == slug), "{slug} in {loaded:?}");
    }
    assert!(res.counts().disabled >= 2, "{:?}", res.counts());
}
