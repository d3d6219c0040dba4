//! A workspace used with a JP that has the knowledge base inside
//! (`JpKind::Inside`, issue 38) against the same workspace with today's
//! JP: what `check` reports, where the planner writes, what `connect`,
//! `sync` and `migrate` see, and what the JP view says arrives.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::Path;

use jp_kb_core::check::{Code, Remedy, Thresholds, check};
use jp_kb_core::internal::clients::arrival::arrivals;
use jp_kb_core::internal::clients::connect::{Client, not_needed};
use jp_kb_core::internal::clients::profile::{Channel, profile};
use jp_kb_core::internal::clients::setup::read_setup;
use jp_kb_core::internal::clients::sync::connected;
use jp_kb_core::internal::edit::move_kb::{kb_only_files, move_kb};
use jp_kb_core::internal::edit::plan::{Answer, Intent, Workspace, plan};
use jp_kb_core::{Environment, JpKind, KnowledgeBase, LoadOptions};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `.jp/config.toml` with JP's own settings and topic `jp` (the RFD's
/// place), `.jp/kb.toml` with topic `side` (jp-kb's place for today's JP).
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".jp/config.toml",
        "[conversation.tools.'*']\nrun = \"ask\"\n\n[kb.topic.jp]\nsubjects = \"docs\"\nlearned = [\"a\"]\n",
    );
    write(
        root,
        ".jp/kb.toml",
        "# kept with its table\n[kb.topic.side]\nsubjects = \"notes\"\n",
    );
    write(root, "docs/a.md", "A.\n");
    write(root, "docs/b.md", "B.\n");
    write(root, "notes/n.md", "N.\n");
    dir
}

fn env(root: &Path, jp: JpKind) -> Environment {
    Environment::workspace_only(root).with_jp(jp)
}

fn options(root: &Path) -> LoadOptions {
    LoadOptions::default().workspace(root)
}

fn load(root: &Path, jp: JpKind) -> KnowledgeBase {
    KnowledgeBase::load(&env(root, jp), &options(root)).unwrap()
}

fn codes(root: &Path, jp: JpKind) -> Vec<(Code, String)> {
    check(&env(root, jp), &options(root), &Thresholds::default())
        .findings
        .into_iter()
        .filter(|f| {
            matches!(
                f.code,
                Code::KbInJpFile | Code::KbUnreadByJp | Code::JpConnectedTwice
            )
        })
        .map(|f| {
            let file = f.file.map(|p| p.display().to_string()).unwrap_or_default();
            (f.code, file)
        })
        .collect()
}

#[test]
fn check_speaks_of_the_file_the_jp_in_use_does_not_read() {
    let dir = workspace();
    let root = dir.path();
    assert_eq!(
        codes(root, JpKind::Beside),
        [(Code::KbInJpFile, ".jp/config.toml".to_owned())],
        "today's JP refuses the table in its own file"
    );
    assert_eq!(
        codes(root, JpKind::Inside),
        [(Code::KbUnreadByJp, ".jp/kb.toml".to_owned())],
        "the inside JP reads config.toml and never kb.toml"
    );
    let report = check(
        &env(root, JpKind::Inside),
        &options(root),
        &Thresholds::default(),
    );
    let unread = report
        .findings
        .iter()
        .find(|f| f.code == Code::KbUnreadByJp)
        .unwrap();
    assert_eq!(
        unread.remedy,
        Some(Remedy::MoveKbTable {
            to: ".jp/config.toml".into()
        })
    );
    assert_eq!(unread.line, Some(2), "the topic's line");
}

#[test]
fn the_reverse_move_takes_kb_toml_into_jps_file_byte_for_byte() {
    let dir = workspace();
    let root = dir.path().canonicalize().unwrap();
    let kb = load(&root, JpKind::Inside);
    let found = kb_only_files(&kb.loaded);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].path, root.join(".jp/kb.toml"));
    assert_eq!(found[0].target, Some(root.join(".jp/config.toml")));
    let source = std::fs::read_to_string(&found[0].path).unwrap();
    let into = std::fs::read_to_string(root.join(".jp/config.toml")).unwrap();
    let moved = move_kb(&source, &into).unwrap().unwrap();
    assert_eq!(moved.topics, ["side"]);
    assert_eq!(moved.source, "");
    assert_eq!(moved.kb_file, format!("{into}\n{source}"));
    // Carried out, the inside JP's view has both topics, and nothing to say.
    std::fs::write(root.join(".jp/config.toml"), &moved.kb_file).unwrap();
    std::fs::write(root.join(".jp/kb.toml"), &moved.source).unwrap();
    assert_eq!(codes(&root, JpKind::Inside), []);
    assert_eq!(
        load(&root, JpKind::Inside).knowledge_section(),
        kb.knowledge_section()
    );
}

fn new_topic(kb: &KnowledgeBase) -> Answer {
    plan(
        &Workspace::new(kb),
        &Intent::NewTopic {
            id: "fresh".into(),
            subjects: "notes".into(),
            title: None,
            introduction: None,
            description: None,
        },
    )
}

#[test]
fn a_first_topic_goes_where_the_jp_in_use_reads_it_without_asking() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(
        &root,
        ".jp/config.toml",
        "[conversation.tools.'*']\nrun = \"ask\"\n",
    );
    write(&root, "notes/n.md", "N.\n");

    let Answer::Do(beside) = new_topic(&load(&root, JpKind::Beside)) else {
        panic!("a plan")
    };
    assert_eq!(beside.files(), [root.join(".jp/kb.toml").as_path()]);

    let Answer::Do(inside) = new_topic(&load(&root, JpKind::Inside)) else {
        panic!("a plan")
    };
    assert_eq!(inside.files(), [root.join(".jp/config.toml").as_path()]);
    assert!(inside.confirm.is_empty(), "{:?}", inside.confirm);

    // (The guard would ask for this file with today's JP: a file JP
    // loads, no topics there yet.)
}

#[test]
fn the_inside_jp_needs_no_connection_and_an_old_one_is_reported() {
    let dir = workspace();
    let root = dir.path().canonicalize().unwrap();
    write(&root, ".jp/config.d/jp-kb.toml", "# generated by jp-kb\n");
    let beside = load(&root, JpKind::Beside);
    let inside = load(&root, JpKind::Inside);
    assert_eq!(not_needed(Client::JP, &beside), None);
    assert!(not_needed(Client::JP, &inside).is_some());
    assert_eq!(not_needed(Client::named("codex").unwrap(), &inside), None);
    assert!(connected(&beside).contains(&Client::JP));
    assert!(!connected(&inside).contains(&Client::JP), "never synced");
    assert!(
        codes(&root, JpKind::Inside)
            .contains(&(Code::JpConnectedTwice, ".jp/config.d/jp-kb.toml".to_owned()))
    );
    // Nothing advises `sync` for a layer that `sync` no longer keeps.
    let report = check(
        &env(&root, JpKind::Inside),
        &options(&root),
        &Thresholds::default(),
    );
    let advice: Vec<String> = report
        .findings
        .iter()
        .filter(|f| matches!(f.code, Code::GeneratedStale | Code::ClientSetup))
        .map(|f| format!("{} {}", f.code, f.message))
        .collect();
    assert_eq!(advice, Vec::<String>::new());
}

#[test]
fn the_jp_view_of_the_inside_jp_is_its_section_and_its_learn_whole() {
    let dir = workspace();
    let root = dir.path().canonicalize().unwrap();
    let kb = load(&root, JpKind::Inside);
    let jp = profile("jp").unwrap();
    let setup = read_setup(kb.root(), &jp).unwrap();
    let got = arrivals(&kb, &jp, &setup);
    let shown: Vec<(Channel, &str, bool)> = got
        .iter()
        .map(|a| (a.channel, a.text.as_str(), a.cut))
        .collect();
    let section = kb.knowledge_section().unwrap();
    let description = kb.tool_description().unwrap();
    assert_eq!(
        shown,
        [
            (Channel::SystemPromptSection, section.as_str(), false),
            (Channel::ToolDescription, description.as_str(), false),
        ]
    );
    // Today's JP, as a plain `jp-kb mcp` would reach it: cut.
    let beside = load(&root, JpKind::Beside);
    assert!(arrivals(&beside, &jp, &setup).iter().any(|a| a.cut));
}
