#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The two doors give the same knowledge base (issue 38): a configuration
//! a host merged itself and hands in (`KnowledgeBase::from_topics`, what
//! JP with the knowledge base inside does) and the same configuration read
//! from a workspace's files by the core's loader (`KnowledgeBase::load`,
//! what `jp-kb` does) yield byte-identical texts: the `<knowledge>`
//! section, the tool definition and description, every `learn` listing,
//! loads by glob, exact and hidden slug, and the unknown-topic error.

use std::fmt::Write as _;
use std::path::Path;

use jp_kb_core::{Environment, KnowledgeBase, LoadOptions, TopicConfig};
use proptest::prelude::*;
use toml_edit::{Array, DocumentMut, Item, Table, value};

/// The subject files every case shares, under `.jp/kb/<dir>/`.
const FILES: [(&str, &str); 8] = [
    ("a/style.md", "Tabs, not spaces.\n"),
    ("a/people/ada.md", "# Ada\n\nAsk her.\n"),
    ("a/people/bob.txt", "Bob\n"),
    ("a/.notes.md", "Hidden notes.\n"),
    ("a/config.toml", "[x]\ny = 1\n"),
    ("b/guide.md", "The guide.\n"),
    ("b/.dir/inner.md", "Inner.\n"),
    ("c/only.md", "Only.\n"),
];

/// Patterns drawn for `learned`, `disabled` and `learn` calls.
const PATTERNS: [&str; 10] = [
    "*",
    "**",
    "style",
    "people/*",
    "people/ada",
    "notes",
    ".notes",
    "dir/inner",
    "guide",
    "nothing",
];

/// One topic of a case: every field of the RFD.
#[derive(Debug, Clone)]
struct Topic {
    id: &'static str,
    enable: Option<bool>,
    title: Option<String>,
    introduction: Option<String>,
    description: Option<String>,
    subjects: &'static str,
    learned: Vec<&'static str>,
    disabled: Vec<&'static str>,
}

fn text() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("Project Knowledge".to_owned())),
        // A TOML multi-line string's trailing line break, and blanks: the
        // loader cleans them, so must the host door.
        Just(Some("Line one.\nLine two.\n".to_owned())),
        Just(Some("  \n".to_owned())),
        Just(Some(String::new())),
        Just(Some("Ünïcödé \"quoted\" `ticks`".to_owned())),
    ]
}

fn patterns() -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(prop::sample::select(PATTERNS.to_vec()), 0..3)
}

fn topic(id: &'static str) -> impl Strategy<Value = Topic> {
    (
        prop::option::of(any::<bool>()),
        text(),
        text(),
        text(),
        prop::sample::select(vec![
            ".jp/kb/a",
            ".jp/kb/b",
            ".jp/kb/c",
            ".jp/kb/missing",
            "../outside",
            "/absolute",
        ]),
        patterns(),
        patterns(),
    )
        .prop_map(
            move |(enable, title, introduction, description, subjects, learned, disabled)| Topic {
                id,
                enable,
                title,
                introduction,
                description,
                subjects,
                learned,
                disabled,
            },
        )
}

fn topics() -> impl Strategy<Value = Vec<Topic>> {
    (
        topic("project"),
        topic("skills"),
        topic("third"),
        1usize..=3,
    )
        .prop_map(|(a, b, c, n)| {
            let mut all = vec![a, b, c];
            all.truncate(n);
            all
        })
}

/// The case as `.jp/config.toml` holds it.
fn config_toml(topics: &[Topic]) -> String {
    let mut doc = DocumentMut::new();
    let mut topic_table = Table::new();
    for t in topics {
        let mut table = Table::new();
        if let Some(enable) = t.enable {
            table.insert("enable", value(enable));
        }
        for (key, text) in [
            ("title", &t.title),
            ("introduction", &t.introduction),
            ("description", &t.description),
        ] {
            if let Some(text) = text {
                table.insert(key, value(text.as_str()));
            }
        }
        table.insert("subjects", value(t.subjects));
        for (key, list) in [("learned", &t.learned), ("disabled", &t.disabled)] {
            table.insert(key, value(list.iter().copied().collect::<Array>()));
        }
        topic_table.insert(t.id, Item::Table(table));
    }
    let mut kb = Table::new();
    kb.insert("topic", Item::Table(topic_table));
    doc.insert("kb", Item::Table(kb));
    doc.to_string()
}

/// The case as a host hands it in.
fn host_topics(topics: &[Topic]) -> Vec<TopicConfig> {
    topics
        .iter()
        .map(|t| {
            let mut topic = TopicConfig::new(t.id, t.subjects);
            topic.enable = t.enable.unwrap_or(true);
            topic.title.clone_from(&t.title);
            topic.introduction.clone_from(&t.introduction);
            topic.description.clone_from(&t.description);
            topic.learned = t.learned.iter().map(|s| (*s).to_owned()).collect();
            topic.disabled = t.disabled.iter().map(|s| (*s).to_owned()).collect();
            topic
        })
        .collect()
}

fn workspace(dir: &Path, topics: &[Topic]) {
    for (path, body) in FILES {
        let file = dir.join(".jp/kb").join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, body).unwrap();
    }
    std::fs::write(dir.join(".jp/config.toml"), config_toml(topics)).unwrap();
}

/// Every text of a knowledge base, in one string to compare.
fn texts(kb: &KnowledgeBase, names: &[String], calls: &[Vec<String>]) -> String {
    let mut out = format!(
        "section:\n{:?}\ntool:\n{:?}\ndescription:\n{:?}\n",
        kb.knowledge_section(),
        kb.tool_definition(),
        kb.tool_description()
    );
    for name in names {
        let _ = write!(out, "learn {name}:\n{:?}\n", kb.learn(name, None));
        for patterns in calls {
            let answer = kb.learn(name, Some(patterns));
            let _ = write!(out, "learn {name} {patterns:?}:\n{answer:?}\n");
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn from_topics_and_load_give_the_same_texts(
        topics in topics(),
        calls in prop::collection::vec(
            prop::collection::vec(prop::sample::select(PATTERNS.to_vec()), 1..3),
            1..4,
        ),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        workspace(&root, &topics);

        let loaded = KnowledgeBase::load(
            &Environment::workspace_only(&root),
            &LoadOptions::default().workspace(&root),
        )
        .unwrap();
        let handed = KnowledgeBase::from_topics(&root, host_topics(&topics));

        let mut names: Vec<String> = topics.iter().map(|t| t.id.to_owned()).collect();
        names.extend(topics.iter().filter_map(|t| t.title.clone()));
        names.push("Project knowledge".to_owned());
        names.push("unknown".to_owned());
        let calls: Vec<Vec<String>> = calls
            .iter()
            .map(|c| c.iter().map(|s| (*s).to_owned()).collect())
            .collect();

        prop_assert_eq!(texts(&handed, &names, &calls), texts(&loaded, &names, &calls));
    }
}

/// The root is made canonical: a host may hand in a path through a
/// symbolic link, and subjects under it are still inside the workspace.
#[cfg(unix)]
#[test]
fn a_root_reached_through_a_symlink_is_the_same_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir_all(real.join(".jp/kb/project")).unwrap();
    std::fs::write(real.join(".jp/kb/project/style.md"), "Tabs.\n").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();

    let kb = KnowledgeBase::from_topics(&link, [TopicConfig::new("project", ".jp/kb/project")]);

    assert_eq!(
        kb.learn("project", Some(&["style".to_owned()])).text(),
        "Tabs."
    );
}

/// A root that does not exist is no error at the door: every topic says
/// its directory does not exist.
#[test]
fn a_missing_root_leaves_each_topic_in_error() {
    let dir = tempfile::tempdir().unwrap();
    let kb = KnowledgeBase::from_topics(
        dir.path().join("gone"),
        [TopicConfig::new("project", ".jp/kb/project")],
    );

    assert_eq!(kb.knowledge_section(), None);
    assert_eq!(kb.tool_description(), None);
    let answer = kb.learn("project", None);
    assert!(answer.is_error());
    assert!(
        answer.text().contains("does not exist"),
        "{}",
        answer.text()
    );
}
