//! Unit tests of the planner: plans over a real workspace on disk (the
//! planner writes nothing; the tests check what it would write and what
//! it says the change does).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use super::*;
use crate::config::{Environment, LoadOptions, Origin};

/// The section's count now, and after any plan (`None`: still counting).
struct Tokens(usize, Option<usize>);

impl TokenSource for Tokens {
    fn section(&self) -> Option<usize> {
        Some(self.0)
    }
    fn planned(&self, _: &[Step]) -> Option<usize> {
        self.1
    }
}

const CONFIG: &str =
    "[kb.topic.p]\nsubjects = \"kb\"\nlearned = [\"docs/*\", \"style\"]\ndisabled = [\"old/**\"]\n";

fn workspace(cfg: &[&str]) -> (tempfile::TempDir, KnowledgeBase) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(".jp/config.toml", CONFIG);
    for f in [
        "kb/style.md",
        "kb/big.md",
        "kb/docs/a.md",
        "kb/docs/b.md",
        "kb/docs/.h.md",
        "kb/old/x.md",
        "kb/.hid/y.md",
    ] {
        write(f, "text");
    }
    let env = Environment::workspace_only(root.clone());
    let options = LoadOptions {
        workspace: Some(root),
        cfg: cfg.iter().map(|s| (*s).to_owned()).collect(),
        ..LoadOptions::default()
    };
    let kb = KnowledgeBase::load(&env, &options).unwrap();
    (dir, kb)
}

fn reload(root: &Path) -> KnowledgeBase {
    let env = Environment::workspace_only(root.to_path_buf());
    let options = LoadOptions {
        workspace: Some(root.to_path_buf()),
        ..LoadOptions::default()
    };
    KnowledgeBase::load(&env, &options).unwrap()
}

fn ask(kb: &KnowledgeBase, intent: &Intent) -> Answer {
    let tokens = Tokens(5_000, None);
    let ws = Workspace::new(kb).tokens(&tokens);
    plan(&ws, intent)
}

fn entries(e: &[&str]) -> Vec<String> {
    e.iter().map(|s| (*s).to_owned()).collect()
}

fn config_file(kb: &KnowledgeBase) -> PathBuf {
    kb.root().join(".jp/config.toml")
}

#[test]
fn a_set_of_subjects_is_one_step_with_its_cost() {
    let (_d, kb) = workspace(&[]);
    let tokens = Tokens(5_000, Some(35_100));
    let ws = Workspace::new(&kb).tokens(&tokens);
    let Answer::Do(plan) = plan(
        &ws,
        &Intent::Add {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["big", "docs/h"]),
        },
    ) else {
        panic!("a plan")
    };
    assert_eq!(plan.files(), [config_file(&kb).as_path()]);
    assert_eq!(plan.steps[0].edits.len(), 1, "one edit for the set");
    assert_eq!(plan.effect.entering, ["p/big", "p/docs/h"]);
    assert_eq!(plan.effect.tokens.after, Some(35_100));
    assert_eq!(
        plan.effect.tokens.line(20_000),
        "+30,100 tok → 35,100 tok, budget 20,000"
    );
    assert_eq!(
        plan.confirm,
        [Confirm::CrossesBudget {
            after: 35_100,
            budget: 20_000
        }]
    );
}

#[test]
fn un_learning_through_a_glob_asks_and_each_option_has_its_effect() {
    let (_d, kb) = workspace(&[]);
    let Answer::Choose(q) = ask(
        &kb,
        &Intent::Remove {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["docs/a"]),
        },
    ) else {
        panic!("a question")
    };
    assert_eq!(q.globs, ["docs/*"]);
    assert_eq!(q.options[0].kind, super::AlternativeKind::RemoveGlob);
    assert_eq!(q.options[1].kind, super::AlternativeKind::ExpandGlob);
    let (drop, expand) = (&q.options[0].plan, &q.options[1].plan);
    assert_eq!(drop.effect.leaving, ["p/docs/a", "p/docs/b"]);
    assert!(matches!(&drop.confirm[0], Confirm::RemovesPreloaded(v) if v.len() == 2));
    assert_eq!(expand.effect.leaving, ["p/docs/a"]);
    assert!(expand.confirm.is_empty(), "only the named subject leaves");
    assert_eq!(
        expand.steps[0].edits,
        [Edit::ReplaceLearned {
            topic: "p".into(),
            pattern: "docs/*".into(),
            with: entries(&["docs/b"]),
        }]
    );
}

#[test]
fn un_disabling_through_a_glob_asks_too() {
    let (_d, kb) = workspace(&[]);
    let Answer::Choose(q) = ask(
        &kb,
        &Intent::Remove {
            list: List::Disabled,
            topic: "p".into(),
            entries: entries(&["old/x"]),
        },
    ) else {
        panic!("a question, not a silent removal of the glob")
    };
    assert_eq!(q.globs, ["old/**"]);
    // Naming the entry itself removes it.
    let answer = ask(
        &kb,
        &Intent::Remove {
            list: List::Disabled,
            topic: "p".into(),
            entries: entries(&["old/**"]),
        },
    );
    assert!(matches!(answer, Answer::Do(_)), "{answer:?}");
}

#[test]
fn disabling_counts_hidden_ones_apart_and_a_whole_topic_asks() {
    let (_d, kb) = workspace(&[]);
    let Answer::Do(plan) = ask(
        &kb,
        &Intent::Add {
            list: List::Disabled,
            topic: "p".into(),
            entries: entries(&["**"]),
        },
    ) else {
        panic!("a plan")
    };
    let e = &plan.effect;
    assert_eq!(e.disabled_hidden, ["p/docs/h", "p/hid/y"]);
    assert_eq!(e.already_disabled, 1, "old/x");
    // Every subject disabled, `enable` untouched: said as such, not as
    // "turns topic off" (issue 26 item 8).
    assert!(e.topics_off.is_empty(), "{:?}", e.topics_off);
    assert_eq!(e.topics_emptied, ["p"]);
    assert!(
        e.lines(20_000)
            .iter()
            .any(|l| l == "disables every subject of topic `p` (it stays enabled)")
    );
    // Asked as what it is, never "the whole topic" above "(it stays
    // enabled)" (issue 37 item 5).
    assert!(plan.confirm.contains(&Confirm::EmptiesTopic("p".into())));
    assert!(!plan.confirm.contains(&Confirm::DisablesTopic("p".into())));
    assert!(
        plan.confirm
            .iter()
            .all(|c| !c.to_string().contains("whole topic"))
    );
    assert!(
        plan.confirm
            .iter()
            .any(|c| matches!(c, Confirm::RemovesPreloaded(_)))
    );
    let Answer::Do(off) = ask(
        &kb,
        &Intent::Enable {
            topic: "p".into(),
            enable: false,
        },
    ) else {
        panic!("a plan")
    };
    assert_eq!(off.effect.leaving, ["p/docs/a", "p/docs/b", "p/style"]);
    assert!(off.confirm.contains(&Confirm::DisablesTopic("p".into())));
}

#[test]
fn an_entry_also_from_cfg_is_removed_from_the_file_with_a_note() {
    let (_d, kb) = workspace(&["kb.topic.p.learned+=style"]);
    let Answer::Do(plan) = ask(
        &kb,
        &Intent::Remove {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["style"]),
        },
    ) else {
        panic!("a plan")
    };
    assert_eq!(plan.files(), [config_file(&kb).as_path()]);
    assert!(plan.notes[0].contains("also comes from --cfg"), "{plan:?}");
    // The argument keeps it pre-loaded for this run.
    assert!(plan.effect.leaving.is_empty(), "{:?}", plan.effect);
}

#[test]
fn an_entry_only_an_argument_holds_is_refused_with_where_it_comes_from() {
    let (_d, kb) = workspace(&["kb.topic.p.learned+=big"]);
    let answer = ask(
        &kb,
        &Intent::Remove {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["big"]),
        },
    );
    let Answer::Refuse(refusal) = answer else {
        panic!("refused: {answer:?}")
    };
    assert_eq!(
        refusal,
        Refusal::NotEditable {
            topic: "p".into(),
            list: List::Learned,
            entry: "big".into(),
            origins: vec![Origin::Cfg("kb.topic.p.learned+=big".into())],
        }
    );
    assert_eq!(
        refusal.to_string(),
        "`big` in kb.topic.p.learned comes from --cfg kb.topic.p.learned+=big, not from a TOML \
         file jp-kb can edit; drop that argument or edit that file"
    );
}

#[test]
fn new_topic_ids_and_directories_follow_one_rule() {
    let (_d, kb) = workspace(&[]);
    let new = |id: &str, dir: &str| {
        ask(
            &kb,
            &Intent::NewTopic {
                id: id.into(),
                subjects: dir.into(),
                title: Some(String::new()),
                introduction: None,
                description: None,
            },
        )
    };
    // Refusals carry the data, typed; their words are the `Display`'s.
    for bad in ["a b", "a/b", "a.b"] {
        assert_eq!(
            new(bad, "kb"),
            Answer::Refuse(Refusal::InvalidTopicId(TopicIdError::Invalid(bad.into()))),
            "{bad}"
        );
    }
    assert_eq!(
        new("", "kb"),
        Answer::Refuse(Refusal::InvalidTopicId(TopicIdError::Missing))
    );
    let Answer::Refuse(exists) = new("p", "kb") else {
        panic!("a taken id is refused")
    };
    assert_eq!(
        exists,
        Refusal::TopicExists {
            topic: "p".into(),
            declared: Origin::File {
                path: PathBuf::from(".jp/config.toml"),
                line: Some(1),
            },
        }
    );
    assert_eq!(
        exists.to_string(),
        "topic `p` already exists (declared at .jp/config.toml:1)"
    );
    assert_eq!(
        new("q", "../x"),
        Answer::Refuse(Refusal::Subjects(TopicError::Escapes("../x".into())))
    );
    assert_eq!(new("q", " "), Answer::Refuse(Refusal::SubjectsRequired));
    let Answer::Do(plan) = new("q", "nope") else {
        panic!("accepted")
    };
    assert!(plan.notes[0].contains("does not exist yet"), "{plan:?}");
    assert!(matches!(
        &plan.steps[0].edits[0],
        Edit::AddTopic { title: None, .. }
    ));
}

#[test]
fn a_chosen_layer_that_does_not_declare_the_topic_declares_it() {
    let (_d, kb) = workspace(&[]);
    let other = kb.root().join(".jp.toml");
    let tokens = Tokens(0, None);
    let ws = Workspace::new(&kb)
        .chosen(Chosen::additions(other.clone()))
        .tokens(&tokens);
    let Answer::Do(plan) = plan(
        &ws,
        &Intent::Add {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["big"]),
        },
    ) else {
        panic!("a plan")
    };
    assert_eq!(plan.files(), [other.as_path()]);
    let applied = plan.steps[0].apply("").unwrap();
    assert_eq!(applied.text, "[kb.topic.p]\nlearned = [\"big\"]\n");
    // Removals still go where the entry is.
    let Answer::Do(rm) = super::plan(
        &ws,
        &Intent::Remove {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["style"]),
        },
    ) else {
        panic!("a plan")
    };
    assert_eq!(rm.files(), [config_file(&kb).as_path()]);
}

#[test]
fn a_directory_offers_its_glob_and_its_slugs_with_costs() {
    let (_d, kb) = workspace(&[]);
    let Answer::Choose(q) = ask(
        &kb,
        &Intent::Directory {
            list: List::Learned,
            topic: "p".into(),
            dir: ".hid".into(),
        },
    ) else {
        panic!("a question")
    };
    // A learned glob skips hidden subjects: only the slug is offered.
    assert_eq!(q.options.len(), 1, "{q:?}");
    assert!(q.options[0].label.contains("1 slug"));
    assert_eq!(q.options[0].plan.effect.entering, ["p/hid/y"]);
    assert!(Path::new(&q.options[0].plan.steps[0].path).ends_with(".jp/config.toml"));
}

#[test]
fn the_layers_list_roles_declarations_and_files_to_create() {
    let (_d, kb) = workspace(&[]);
    let layers = layers::layers(&kb, Some("p"));
    let shown: Vec<(&str, &str, bool, bool)> = layers
        .iter()
        .map(|l| (l.shown.as_str(), l.role, l.exists, l.declares))
        .collect();
    assert_eq!(
        shown,
        [
            (".jp/config.toml", "team", true, true),
            (".jp/kb.toml", "team", false, false),
            (".jp.toml", ".jp.toml", false, false),
        ]
    );
}

/// Issue 26 item 1: until the planned section is counted, the token line
/// says so (no partial figure), and a change that could pass the budget
/// asks on a bound; the count replaces the bound's question by the exact
/// one.
#[test]
fn an_uncounted_change_says_so_and_asks_on_a_bound() {
    let (_d, kb) = workspace(&[]);
    let big = kb.root().join("kb/big.md");
    std::fs::write(&big, "word ".repeat(20_000)).unwrap();
    // Reloaded: the walk knows the new size.
    let kb = reload(kb.root());
    let tokens = Tokens(5_000, None);
    let ws = Workspace::new(&kb).tokens(&tokens);
    let intent = Intent::Add {
        list: List::Learned,
        topic: "p".into(),
        entries: entries(&["big"]),
    };
    let Answer::Do(mut plan) = plan(&ws, &intent) else {
        panic!("a plan")
    };
    assert_eq!(
        plan.effect.tokens.line(20_000),
        "counting tokens…, budget 20,000"
    );
    assert!(
        matches!(
            plan.confirm.as_slice(),
            [Confirm::MayCrossBudget { bound: Some(b), budget: 20_000 }] if *b > 20_000
        ),
        "{:?}",
        plan.confirm
    );
    plan.counted(25_001, 20_000);
    assert_eq!(
        plan.confirm,
        [Confirm::CrossesBudget {
            after: 25_001,
            budget: 20_000
        }]
    );
    plan.counted(6_000, 20_000);
    assert!(plan.confirm.is_empty(), "{:?}", plan.confirm);
}

/// Issue 26 item 1: the count before a change is the count of the section
/// after it, exactly as `prompt --stats` counts it (the whole text), for
/// additions, removals, a directory, a topic turned off and metadata.
#[test]
fn the_planned_count_is_the_count_after_the_change() {
    let intents = [
        Intent::Add {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["big", "docs/.h"]),
        },
        Intent::Remove {
            list: List::Learned,
            topic: "p".into(),
            entries: entries(&["style"]),
        },
        Intent::Add {
            list: List::Disabled,
            topic: "p".into(),
            entries: entries(&["docs/a"]),
        },
        Intent::Directory {
            list: List::Disabled,
            topic: "p".into(),
            dir: "docs".into(),
        },
        Intent::Enable {
            topic: "p".into(),
            enable: false,
        },
        Intent::Fields {
            topic: "p".into(),
            fields: vec![
                (
                    crate::config::TopicField::Title,
                    Some(crate::edit::FieldValue::Text("Project things".into())),
                ),
                (
                    crate::config::TopicField::Description,
                    Some(crate::edit::FieldValue::Text("Read first.".into())),
                ),
            ],
        },
    ];
    for intent in intents {
        let (_d, kb) = workspace(&[]);
        let counting = Counting::new(&kb);
        let ws = Workspace::new(&kb).tokens(&counting);
        let plan = match plan(&ws, &intent) {
            Answer::Do(plan) => plan,
            Answer::Choose(q) => q.options[0].plan.clone(),
            other => panic!("{intent:?}: {other:?}"),
        };
        let promised = plan.effect.tokens.after.expect("counted");
        let mut journal = crate::edit::Journal::new(kb.boundaries());
        crate::edit::apply(&plan, &mut journal).unwrap();
        let after = reload(kb.root());
        let text = after.knowledge_section().unwrap_or_default();
        let real = crate::tokens::count_tokens(&text).unwrap();
        assert_eq!(promised, real, "{intent:?}\n{text}");
        assert_ne!(promised, counting.now, "{intent:?} changes the section");
    }
}

/// Issue 26 item 8: un-learning every subject a glob selects offers only
/// the glob's removal; there is no "replace it by its other slugs" (there
/// are none).
#[test]
fn removing_all_a_glob_selects_offers_no_expansion() {
    let (_dir, kb) = workspace(&[]);
    let intent = Intent::Remove {
        list: List::Learned,
        topic: "p".into(),
        entries: entries(&["docs/a", "docs/b"]),
    };
    let Answer::Choose(q) = ask(&kb, &intent) else {
        panic!("still asked: the glob reaches files added later")
    };
    let kinds: Vec<_> = q.options.iter().map(|o| o.kind).collect();
    assert_eq!(kinds, [AlternativeKind::RemoveGlob]);
    let one = Intent::Remove {
        list: List::Learned,
        topic: "p".into(),
        entries: entries(&["docs/a"]),
    };
    let Answer::Choose(q) = ask(&kb, &one) else {
        panic!("a question")
    };
    assert_eq!(q.options.len(), 2);
}

/// Issue 25 item 4: the planner reads only what it is given. A topic not
/// resolved beforehand is not walked by `plan` (it is planned as one
/// whose subjects cannot be read), and a new `subjects` directory is
/// looked up on the disk the workspace was given, not the real one.
#[test]
fn the_planner_walks_nothing_and_asks_the_given_disk() {
    struct Everywhere;
    impl Disk for Everywhere {
        fn subjects_dir(&self, root: &Path, subjects: &str) -> Result<PathBuf, TopicError> {
            Ok(root.join(subjects))
        }
    }
    let (_dir, kb) = workspace(&[]);
    let add = Intent::Add {
        list: List::Learned,
        topic: "p".into(),
        entries: entries(&["big"]),
    };
    let _ = plan(&Workspace::resolved(&kb), &add);
    assert!(kb.topic("p").unwrap().resolved().is_none(), "plan walked");
    let ws = Workspace::new(&kb);
    assert!(kb.topic("p").unwrap().resolved().is_some());
    assert!(matches!(plan(&ws, &add), Answer::Do(_)));

    let new = Intent::NewTopic {
        id: "n".into(),
        subjects: "not/there".into(),
        title: None,
        introduction: None,
        description: None,
    };
    let Answer::Do(real) = plan(&ws, &new) else {
        panic!("a plan")
    };
    assert!(real.notes.iter().any(|n| n.contains("does not exist yet")));
    let Answer::Do(given) = plan(&Workspace::new(&kb).disk(&Everywhere), &new) else {
        panic!("a plan")
    };
    assert!(given.notes.is_empty(), "{:?}", given.notes);
}
