//! Edits on mangled documents: a piece cut out of a generated document
//! that still parses must give a typed error or a verified result.

use proptest::prelude::*;

use jp_kb_core::internal::edit::{
    Edit, EditError, FieldValue, TopicField, apply_edit as apply, list_topics,
};

use super::{config, document};

/// Every kind of edit, on topic `id`.
fn all_edits(id: &str) -> Vec<Edit> {
    let t = || id.to_owned();
    let v = |s: &str| vec![s.to_owned()];
    vec![
        Edit::AddLearned {
            topic: t(),
            patterns: v("n/*"),
        },
        Edit::RemoveLearned {
            topic: t(),
            patterns: v("a"),
        },
        Edit::ReplaceLearned {
            topic: t(),
            pattern: "a".into(),
            with: vec!["x".into(), "y".into()],
        },
        Edit::AddDisabled {
            topic: t(),
            slugs: v("d"),
        },
        Edit::RemoveDisabled {
            topic: t(),
            slugs: v("d"),
        },
        Edit::SetField {
            topic: t(),
            field: TopicField::Title,
            value: FieldValue::Text("T\nU".into()),
        },
        Edit::SetField {
            topic: t(),
            field: TopicField::Enable,
            value: FieldValue::Bool(false),
        },
        Edit::UnsetField {
            topic: t(),
            field: TopicField::Subjects,
        },
        Edit::RemoveTopic { topic: t() },
        Edit::AddTopic {
            id: format!("{id}-new"),
            subjects: "s".into(),
            title: None,
            introduction: None,
            description: None,
        },
    ]
}

/// Cut a random piece out of a generated document; when what is left
/// still parses, no edit may panic or fail internally: only a typed error
/// (wrong type, missing topic, ...) or a verified result. Most cuts break
/// the syntax and prove nothing, so the cases that still parse are counted
/// and must be at least a tenth of those run.
#[test]
fn edits_on_mangled_documents_fail_cleanly_or_succeed() {
    let config = config();
    let parsed = std::cell::Cell::new(0u32);
    let mut runner = proptest::test_runner::TestRunner::new(config.clone());
    let strategy = (document(), (0usize..2000, 0usize..40), "[a-z]{1,3}");
    let result = runner.run(&strategy, |(doc, cut, a)| {
        let mangled = cut_out(&doc, cut);
        if toml_edit::Document::parse(mangled.as_str()).is_err() {
            return Ok(());
        }
        parsed.set(parsed.get() + 1);
        edits_fail_cleanly(&mangled, a)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        parsed.get() * 10 >= config.cases,
        "only {} of {} mangled documents still parsed: the property was barely checked",
        parsed.get(),
        config.cases
    );
}

/// `doc` without the `cut.1` bytes from `cut.0` (modulo its length),
/// moved back to character boundaries.
fn cut_out(doc: &str, cut: (usize, usize)) -> String {
    let mut start = (cut.0 % doc.len().max(1)).min(doc.len());
    while !doc.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + cut.1).min(doc.len());
    while !doc.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{}", &doc[..start], &doc[end..])
}

fn edits_fail_cleanly(mangled: &str, extra_id: String) -> Result<(), TestCaseError> {
    let mut ids: Vec<String> = list_topics(mangled)
        .expect("parses")
        .into_iter()
        .map(|t| t.id)
        .collect();
    ids.push(extra_id);
    for id in &ids {
        for e in all_edits(id) {
            match apply(mangled, &e) {
                Err(EditError::Internal(m)) => {
                    return Err(TestCaseError::fail(format!(
                        "{e:?}: internal error {m}\n--- input ---\n{mangled}"
                    )));
                }
                Err(EditError::Parse { .. }) => {
                    return Err(TestCaseError::fail("parse error on a parsing document"));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
