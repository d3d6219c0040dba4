#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Snapshots of `list`'s human output: markers, sizes and the "why" column.

use super::common;

use common::{Sandbox, fixtures};

fn run(sb: &Sandbox, args: &[&str]) -> String {
    let out = sb.cmd().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn topics_and_subjects_with_markers() {
    let sb = Sandbox::with_fixture(&fixtures().join("golden/rfd"));
    insta::assert_snapshot!("topics", run(&sb, &["list"]));
    let cfg = [
        "--cfg",
        "kb.topic.project.learned+=maintainers/*",
        "--cfg",
        "kb.topic.project.learned+=internal-notes",
        "--cfg",
        "kb.topic.project.disabled+=code-quality",
    ];
    let mut args = cfg.to_vec();
    args.extend(["list", "project", "--all"]);
    insta::assert_snapshot!("project_all", run(&sb, &args));
    let mut args = cfg.to_vec();
    args.extend(["list", "project"]);
    insta::assert_snapshot!("project_default", run(&sb, &args));
    insta::assert_snapshot!("formats_tokens", run(&sb, &["list", "formats", "--tokens"]));
}

#[test]
fn cfg_json_object_sets_a_whole_topic() {
    let sb = Sandbox::with_fixture(&fixtures().join("golden/rfd"));
    let out = run(
        &sb,
        &[
            "--cfg",
            r#"kb.topic.extra:={"subjects": ".jp/kb/skills", "title": "Extra", "learned": ["ast-grep"]}"#,
            "learn",
            "extra",
        ],
    );
    assert_eq!(
        out,
        "# Topic: Extra\n\n## Available subjects:\n\n(none)\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- ast-grep\n"
    );
}
