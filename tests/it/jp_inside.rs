//! JP with the knowledge base inside (issue 38, `integrations/jp`): the
//! real patched JP, `kb` tables in `.jp/config.toml` as the RFD writes
//! them, the fake model recording what JP sends. Whatever JP sends is
//! compared byte for byte with what jp-kb's own commands print in the same
//! checkout: `prompt`, `schema`, `learn`, `-k … prompt`. That JP has no
//! `jp-kb` on its `PATH`, no MCP server and no generated file.
//!
//! They need that JP built (`bash tests/jp/setup_inside.sh`, which
//! `.ci/run` calls): without it they are ignored with the reason, under
//! `CI` they fail.

use std::path::Path;

use serde_json::{Value, json};

use super::jp_support::Machine;
use super::jp_support::inside::{kb_workspace, write_subject};

/// The arguments of the model's `learn` calls, and the `jp-kb learn`
/// arguments that must give the same answers.
fn calls() -> Vec<(Value, Vec<&'static str>)> {
    vec![
        (json!({"topic": "project"}), vec!["project"]),
        (
            json!({"topic": "project", "subjects": ["code-quality", "release"]}),
            vec!["project", "code-quality", "release"],
        ),
        (
            json!({"topic": "project", "subjects": "internal-notes"}),
            vec!["project", "internal-notes"],
        ),
        (
            json!({"topic": "Learnable Assistant Skills", "subjects": ["ast-grep/*"]}),
            vec!["Learnable Assistant Skills", "ast-grep/*"],
        ),
        (
            json!({"topic": "skills", "subjects": ["ast-grep/rules"]}),
            vec!["skills", "ast-grep/rules"],
        ),
        (
            json!({"topic": "project", "subjects": ["drafts/old"]}),
            vec!["project", "drafts/old"],
        ),
        (json!({"topic": "nope"}), vec!["nope"]),
    ]
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn jp_sends_the_section_the_tool_and_the_answers_jp_kb_prints() {
    let machine = Machine::inside();
    let dir = machine.path().join("work/project");
    kb_workspace(&dir);
    let calls = calls();
    machine
        .model
        .script(calls.iter().map(|(args, _)| args.clone()).collect());

    let run = machine.query_with(&dir, &[], &[]);

    assert_eq!(
        run.section(),
        machine.jp_kb_text(&dir, &["prompt"]),
        "the <knowledge> section"
    );
    let schema: Value = serde_json::from_str(&machine.jp_kb_text(&dir, &["schema"])).unwrap();
    let offered = run.offered_tool("learn").expect("JP offers `learn`");
    assert_eq!(
        offered["description"], schema["description"],
        "learn's description"
    );
    // JP's llamacpp provider sends every tool in OpenAI's strict mode
    // (`jp_llm::provider::openai::ensure_strict_schema`): every property
    // is required, an optional one admitting `null` (`subjects` already
    // does). Otherwise the schema is jp-kb's, key for key.
    let mut strict = schema["parameters"].clone();
    let properties: Vec<Value> = strict["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| json!(k))
        .collect();
    strict["required"] = Value::Array(properties);
    assert_eq!(offered["parameters"], strict, "learn's parameters");
    let expected: Vec<String> = calls
        .iter()
        .map(|(_, args)| machine.jp_kb_learn(&dir, args))
        .collect();
    assert_eq!(
        run.tool_results(),
        expected,
        "the learn answers\n{}",
        run.stderr()
    );
    // Nothing of jp-kb's was needed or made.
    assert!(!dir.join(".jp/mcp").exists());
    assert!(!dir.join(".jp/config.d").exists());
    assert!(!dir.join(".jp/kb.toml").exists());
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn knowledge_preloads_as_jp_kb_k_does() {
    let machine = Machine::inside();
    let dir = machine.path().join("work/project");
    kb_workspace(&dir);

    let run = machine.query_with(
        &dir,
        &[],
        &[
            "--knowledge",
            "project/code-quality",
            "--knowledge",
            "skills/**",
        ],
    );
    let expected = machine.jp_kb_text(
        &dir,
        &["-k", "project/code-quality", "-k", "skills/**", "prompt"],
    );
    assert_ne!(expected, machine.jp_kb_text(&dir, &["prompt"]));
    assert_eq!(run.section(), expected, "the section with --knowledge");

    // Kept by the conversation, as `--cfg kb.topic.project.learned+=` is.
    let next = machine.continue_query(&dir);
    assert_eq!(next.section(), expected, "the conversation's next query");

    // A topic that is not configured, or no `/`: JP's error, no request.
    let bad = machine.jp(
        &dir,
        &[
            "query",
            "--no-edit",
            "--new",
            "--knowledge",
            "nope/x",
            "hello",
        ],
    );
    assert!(!bad.output.status.success());
    assert!(bad.requests.is_empty());
    assert!(bad.stderr().contains("nope"), "{}", bad.stderr());
    let bad = machine.jp(
        &dir,
        &[
            "query",
            "--no-edit",
            "--new",
            "--knowledge",
            "project",
            "hello",
        ],
    );
    assert!(!bad.output.status.success());
    assert!(bad.requests.is_empty());
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn after_an_outside_edit_the_next_query_is_fresh() {
    let machine = Machine::inside();
    let dir = machine.path().join("work/project");
    kb_workspace(&dir);
    let turn = [
        json!({"topic": "project"}),
        json!({"topic": "project", "subjects": ["code-quality"]}),
    ];
    machine.model.script(turn.to_vec());
    let first = machine.query_with(&dir, &[], &[]);
    let before = machine.jp_kb_text(&dir, &["prompt"]);
    let answers = |dir: &Path| {
        [
            machine.jp_kb_learn(dir, &["project"]),
            machine.jp_kb_learn(dir, &["project", "code-quality"]),
        ]
    };
    let answered = answers(&dir);
    assert_eq!(first.section(), before);
    assert_eq!(first.tool_results(), answered);

    // Edited in an editor, nothing else run: a pre-loaded subject (in the
    // section), a learnable one, a new one (in the listing).
    write_subject(
        &dir,
        "project/maintainers/jean.md",
        "# Jean\n\nNow on leave.\n",
    );
    write_subject(
        &dir,
        "project/code-quality.md",
        "# Code quality\n\nRewritten.\n",
    );
    write_subject(&dir, "project/testing.md", "# Testing\n");
    let after = machine.jp_kb_text(&dir, &["prompt"]);
    assert_ne!(before, after);

    // The very next query, in the same conversation: the model calls
    // `learn` twice more (the fake calls while the conversation holds
    // fewer results than its script has calls).
    machine
        .model
        .script(turn.iter().chain(&turn).cloned().collect());
    let next = machine.continue_query(&dir);
    assert_eq!(next.section(), after, "the next query's section");
    let fresh = answers(&dir);
    assert_ne!(answered, fresh);
    assert_eq!(next.tool_results()[2..], fresh, "the next query's answers");

    // A subject removed until no topic has one to learn: no `learn` tool,
    // no failure.
    for path in ["project", "skills"] {
        std::fs::remove_dir_all(dir.join(".jp/kb").join(path)).unwrap();
    }
    let empty = machine.query_with(&dir, &[], &[]);
    assert!(empty.offered_tool("learn").is_none());
    let expected = machine.jp_kb_text(&dir, &["prompt"]);
    if expected.is_empty() {
        assert_eq!(empty.sections(), Vec::<String>::new());
    } else {
        assert_eq!(empty.section(), expected);
    }
}

#[test]
#[cfg_attr(
    lacks = "jp-inside",
    ignore = "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
)]
fn a_copy_of_the_workspace_serves_its_own_subjects() {
    let machine = Machine::inside();
    let first = machine.path().join("work/project");
    kb_workspace(&first);
    machine.query_with(&first, &[], &[]);
    assert!(first.join(".jp/.id").is_file(), "JP wrote .jp/.id");

    // A second checkout of the same workspace (same `.jp/.id`), its
    // subjects changed there only.
    let copy = machine.path().join("elsewhere/project-copy");
    copy_dir(&first, &copy);
    write_subject(
        &copy,
        "project/maintainers/jean.md",
        "# Jean, in the copy\n",
    );
    write_subject(
        &copy,
        "project/code-quality.md",
        "# Code quality, in the copy\n",
    );
    let ours = machine.jp_kb_text(&first, &["prompt"]);
    let theirs = machine.jp_kb_text(&copy, &["prompt"]);
    assert_ne!(ours, theirs);
    let learn = |dir: &Path| {
        [
            machine.jp_kb_learn(dir, &["project"]),
            machine.jp_kb_learn(dir, &["project", "code-quality"]),
        ]
    };
    machine.model.script(vec![
        json!({"topic": "project"}),
        json!({"topic": "project", "subjects": ["code-quality"]}),
    ]);

    let inside = machine.query_with(&copy, &[], &[]);
    assert_eq!(inside.section(), theirs, "in the copy");
    assert_eq!(inside.tool_results(), learn(&copy), "in the copy");

    let copy_arg = copy.to_str().unwrap();
    let named = machine.query_with(&first, &["-w", copy_arg], &[]);
    assert_eq!(named.section(), theirs, "jp -w the copy");
    assert_eq!(named.tool_results(), learn(&copy), "jp -w the copy");

    let back = machine.query_with(&first, &[], &[]);
    assert_eq!(back.section(), ours, "the first checkout again");
    assert_eq!(
        back.tool_results(),
        learn(&first),
        "the first checkout again"
    );
}

/// Copies the directory tree at `from` to `to` (files and directories).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
