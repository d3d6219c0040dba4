//! Byte-exact round trips on real configuration files
//! (`tests/data/toml-real/`, see its README): for every file, and for its
//! CRLF and no-final-newline variants, an edit followed by its inverse
//! must give back every byte.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};

use jp_kb_core::internal::edit::{Edit, FieldValue, TopicField, apply_edit as apply, list_topics};

fn corpus() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("corpus dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/toml-real"),
        &mut out,
    );
    out.sort();
    out
}

fn variants(text: &str) -> Vec<(&'static str, String)> {
    let mut v = vec![("as is", text.to_owned())];
    if !text.contains('\r') {
        v.push(("crlf", text.replace('\n', "\r\n")));
    }
    let trimmed = text.trim_end_matches(['\n', '\r']);
    if trimmed.len() != text.len() {
        v.push(("no final newline", trimmed.to_owned()));
    }
    v
}

/// Applies `edits` in order, each of which must change the text, then
/// checks the text is back to `original`.
fn round_trip(name: &str, original: &str, edits: &[Edit]) {
    let mut text = original.to_owned();
    for edit in edits {
        let applied = apply(&text, edit).unwrap_or_else(|e| panic!("{name}: {edit:?}: {e}"));
        assert!(applied.changed, "{name}: {edit:?} changed nothing");
        text = applied.text;
    }
    assert!(
        text == original,
        "{name}: not restored\n{}",
        jp_kb_core::internal::edit::unified_diff(original, &text, name)
    );
}

const ID: &str = "jp-kb-rt";

fn add_topic() -> Edit {
    Edit::AddTopic {
        id: ID.into(),
        subjects: ".jp/kb/rt".into(),
        title: Some("Round trip".into()),
        introduction: None,
        description: Some("Two\nlines.".into()),
    }
}

fn s(v: &str) -> Vec<String> {
    vec![v.to_owned()]
}

#[test]
fn every_real_file_survives_edit_and_inverse_byte_for_byte() {
    let files = corpus();
    assert!(files.len() >= 50, "corpus has {} files", files.len());
    let mut runs = 0;
    for path in &files {
        let text = String::from_utf8(fs::read(path).expect("readable")).expect("UTF-8");
        for (variant, text) in variants(&text) {
            let name = format!("{} ({variant})", path.display());
            round_trip(
                &name,
                &text,
                &[add_topic(), Edit::RemoveTopic { topic: ID.into() }],
            );
            let topic = list_topics(&text)
                .expect("parses")
                .first()
                .map_or_else(|| ID.to_owned(), |t| t.id.clone());
            let mut edits = Vec::new();
            let created = topic == ID;
            if created {
                edits.push(add_topic());
            }
            edits.extend([
                Edit::AddLearned {
                    topic: topic.clone(),
                    patterns: s("rt/**"),
                },
                Edit::AddDisabled {
                    topic: topic.clone(),
                    slugs: s("rt/old"),
                },
                Edit::SetField {
                    topic: topic.clone(),
                    field: TopicField::Introduction,
                    value: FieldValue::Text("Round trip.".into()),
                },
                Edit::SetField {
                    topic: topic.clone(),
                    field: TopicField::Enable,
                    value: FieldValue::Bool(false),
                },
                Edit::UnsetField {
                    topic: topic.clone(),
                    field: TopicField::Enable,
                },
                Edit::UnsetField {
                    topic: topic.clone(),
                    field: TopicField::Introduction,
                },
                Edit::RemoveDisabled {
                    topic: topic.clone(),
                    slugs: s("rt/old"),
                },
                Edit::RemoveLearned {
                    topic: topic.clone(),
                    patterns: s("rt/**"),
                },
            ]);
            if created {
                edits.push(Edit::RemoveTopic { topic });
            }
            round_trip(&name, &text, &edits);
            runs += 1;
        }
    }
    assert!(runs >= 150, "only {runs} variants checked");
}

#[test]
fn corpus_readme_is_kept_with_the_data() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/toml-real/README.md");
    assert!(
        fs::read_to_string(readme)
            .expect("README")
            .contains("round-trip")
    );
}
