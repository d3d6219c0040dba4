//! The driver with its workers: loads and checks reported as events.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use super::*;
use crate::tui::theme::Theme;
use crate::tui::worker::outbox;

fn workspace() -> (tempfile::TempDir, Driver) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".jp/kb/p")).unwrap();
    std::fs::write(dir.path().join(".jp/kb/p/a.md"), "# A\n").unwrap();
    std::fs::write(
        dir.path().join(".jp/kb.toml"),
        "[kb.topic.p]\nsubjects = \".jp/kb/p\"\n",
    )
    .unwrap();
    let env = Environment::workspace_only(dir.path());
    let options = LoadOptions::default().workspace(dir.path());
    (dir, Driver::new(env, options))
}

/// Every background load reaches the state: the event is moved from
/// the worker into `update`, never shared (the old `Arc` was taken
/// only by its last holder, and a load with a second holder vanished).
#[test]
fn a_background_load_always_arrives_in_the_state() {
    let (dir, mut driver) = workspace();
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    driver.reload_in_background(&outbox(tx)).unwrap();
    let mut app = App::new(Theme { color: false }, (80, 24));
    let first = driver.load(Vec::new());
    driver.dispatch(&mut app, first);
    let before = app.model().map(|m| m.generation);
    assert!(before.is_some());
    let subjects = dir.path().join(".jp/kb/p");
    for n in 0..5 {
        std::fs::write(subjects.join(format!("b{n}.md")), "# B\n").unwrap();
        driver.dispatch(&mut app, Event::FilesChanged(vec![subjects.clone()]));
    }
    // Reloads queued meanwhile coalesce; the newest one's load comes.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let event = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(matches!(event, Event::Loaded(_)), "{event:?}");
        driver.dispatch(&mut app, event);
        let shown = app.resolution().map_or(0, |r| r.subjects().len());
        if shown == 6 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "shows {shown}");
    }
    assert_ne!(app.model().map(|m| m.generation), before);
    assert!(app.loaded.error.is_none());
}

#[test]
fn queued_reloads_add_up_and_everything_stays_everything() {
    let r = |paths: &[&str], started| Reload {
        changed: paths.iter().map(PathBuf::from).collect(),
        started,
    };
    let merged = merge_reloads(r(&["a"], 1), r(&["b"], 2));
    assert_eq!(merged.changed, [PathBuf::from("a"), PathBuf::from("b")]);
    assert_eq!(merged.started, 2);
    let all = merge_reloads(r(&[], 1), r(&["b"], 3));
    assert!(all.changed.is_empty());
    assert_eq!(all.started, 3);
}

/// The check worker checks a loaded knowledge base as loaded (not read
/// again), and the workspace from scratch when asked with none.
#[test]
fn the_check_worker_checks_the_loaded_knowledge_base_as_loaded() {
    let (dir, mut driver) = workspace();
    std::fs::write(
        dir.path().join(".jp/kb.toml"),
        "[kb.topic.p]\nsubjects = \".jp/kb/nope\"\n",
    )
    .unwrap();
    let kb = KnowledgeBase::load(&driver.env, &driver.options).unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    driver.check_in_background(&outbox(tx)).unwrap();
    let checks = driver.checks.clone().unwrap();
    let codes = |rx: &std::sync::mpsc::Receiver<Event>| match rx
        .recv_timeout(Duration::from_secs(30))
        .unwrap()
    {
        Event::Checked(report) => report.findings.iter().map(|f| f.code).collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    checks.request(None).unwrap();
    assert_eq!(codes(&rx), [jp_kb_core::check::Code::SubjectsNotFound]);
    // Fixed on disk meanwhile: the loaded knowledge base still has the
    // error; a check from scratch does not.
    std::fs::write(
        dir.path().join(".jp/kb.toml"),
        "[kb.topic.p]\nsubjects = \".jp/kb/p\"\n",
    )
    .unwrap();
    checks.request(Some(Arc::new(kb))).unwrap();
    assert_eq!(codes(&rx), [jp_kb_core::check::Code::SubjectsNotFound]);
    checks.request(None).unwrap();
    assert!(!codes(&rx).contains(&jp_kb_core::check::Code::SubjectsNotFound));
}

/// With the token worker, a key's frame does not count its rows: the
/// counts arrive as an event on the one channel and land in the cache.
#[test]
fn token_counts_arrive_from_their_worker_as_an_event() {
    let (_dir, mut driver) = workspace();
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    driver.count_in_background(&outbox(tx)).unwrap();
    let mut app = App::new(Theme { color: false }, (80, 24));
    let first = driver.load(Vec::new());
    driver.dispatch(&mut app, first);
    let counted = |app: &App| app.loaded.cache.tokens.len();
    assert_eq!(counted(&app), 0, "counted during the key");
    let event = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert!(
        matches!(&event, Event::Fetched(f) if matches!(**f, Fetched::Tokens(_))),
        "{event:?}"
    );
    driver.dispatch(&mut app, event);
    assert_eq!(counted(&app), 1);
    assert!(driver.tokens.as_ref().is_some_and(TokenCounts::is_idle));
}

/// A request overtaken while it runs is dropped by the worker's rule;
/// the newer request carries its counts too, so none is lost.
#[test]
fn an_overtaken_token_request_is_answered_by_the_newer_one() {
    let (dir, driver) = workspace();
    std::fs::write(dir.path().join(".jp/kb/p/b.md"), "# B\n").unwrap();
    let kb = Arc::new(KnowledgeBase::load(&driver.env, &driver.options).unwrap());
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    let mut tokens = TokenCounts::spawn(&outbox(tx)).unwrap();
    let entry = |name: &str| {
        let path = dir.path().join(".jp/kb/p").join(name);
        (path, name.replace(".md", ""), Some("md".to_owned()), (4, 0))
    };
    assert!(tokens.request(&kb, &[entry("a.md")]));
    assert!(tokens.request(&kb, &[entry("b.md")]));
    // Asked again while pending: nothing new is queued.
    assert!(tokens.request(&kb, &[entry("a.md")]));
    while !tokens.is_idle() {
        match rx.recv_timeout(Duration::from_secs(30)).unwrap() {
            Event::Fetched(f) => tokens.answered(&f),
            other => panic!("{other:?}"),
        }
    }
}

/// A load the state drops as overtaken must not take the prompt worker's
/// one slot from the load it shows: the prompt is asked for only when a
/// load is taken (before, an edit's load followed by an older background
/// load left the Prompt tab "rendering…" for good).
#[test]
fn the_shown_load_gets_its_prompt_when_an_older_load_arrives_late() {
    let (_dir, mut driver) = workspace();
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    driver.spawn_prompt_worker(&outbox(tx));
    let mut app = App::new(Theme { color: false }, (80, 24));
    let early = next_load();
    let fresh = driver.load(Vec::new());
    let stale = driver.loader().load(Vec::new(), early);
    driver.dispatch(&mut app, fresh);
    driver.dispatch(&mut app, stale);
    let shown = app.model().map(|m| m.generation);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !app.model().is_some_and(|m| m.prompt_ready) {
        let event = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        driver.dispatch(&mut app, event);
        assert!(std::time::Instant::now() < deadline);
    }
    assert_eq!(app.model().map(|m| m.generation), shown);
}

/// Issue 37 item 4: the prompt worker reports the section's count before
/// it lays the section out (which reads every pre-loaded file), so the
/// status line and the costs have it as soon as it is known; the layout
/// that follows carries the same count.
#[test]
fn the_prompt_worker_reports_the_count_before_the_layout() {
    let (dir, mut driver) = workspace();
    std::fs::write(
        dir.path().join(".jp/kb.toml"),
        "[kb.topic.p]\nsubjects = \".jp/kb/p\"\nlearned = [\"a\"]\n",
    )
    .unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    driver.spawn_prompt_worker(&outbox(tx));
    let mut app = App::new(Theme { color: false }, (80, 24));
    let load = driver.load(Vec::new());
    driver.dispatch(&mut app, load);
    let first = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let Event::Fetched(fetched) = &first else {
        panic!("{first:?}")
    };
    let Fetched::PromptCount(count) = **fetched else {
        panic!("the count comes first: {fetched:?}")
    };
    assert!(count.tokens.is_some_and(|n| n > 0), "{count:?}");
    driver.dispatch(&mut app, first);
    let model = app.model().unwrap();
    assert!(model.prompt_counted && !model.prompt_ready);
    assert_eq!(model.section_tokens(), count.tokens);
    let second = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    driver.dispatch(&mut app, second);
    let model = app.model().unwrap();
    assert!(model.prompt_ready);
    assert_eq!(model.prompt_tokens, count.tokens);
}
