//! Property tests on generated documents: topics in every spelling, other
//! tables, comments and blank lines everywhere, arrays in every layout,
//! LF or CRLF, with or without a final line break. For each document, an
//! edit followed by its inverse gives back every byte, repeating an edit
//! changes nothing, and no edit ever fails internally (which would mean
//! the result did not parse or did not mean what was asked).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;

use proptest::prelude::*;

use jp_kb_core::internal::edit::{
    Edit, EditError, FieldValue, TopicField, apply_edit as apply, list_topics,
};

const IDS: [&str; 4] = ["alpha", "beta", "my.topic", "g-2"];

fn key(id: &str) -> String {
    if id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        id.to_owned()
    } else {
        format!("\"{id}\"")
    }
}

fn blank() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_owned()),
        Just("  ".to_owned()),
        Just("\t".to_owned())
    ]
}

fn comment() -> impl Strategy<Value = String> {
    "[a-z ]{0,8}".prop_map(|t| format!("# {t}"))
}

fn opt_trailing_comment() -> impl Strategy<Value = String> {
    prop_oneof![3 => Just(String::new()), 1 => (blank(), comment()).prop_map(|(b, c)| format!(" {b}{c}"))]
}

fn pattern() -> impl Strategy<Value = String> {
    "[a-z]{1,5}(/(\\*|\\*\\*|[a-z]{1,4}))?"
}

fn quoted(v: &str) -> BoxedStrategy<String> {
    prop_oneof![Just(format!("\"{v}\"")), Just(format!("'{v}'"))].boxed()
}

/// An array of patterns in one of many layouts. `multi` allows layouts
/// with line breaks.
fn array(multi: bool) -> BoxedStrategy<String> {
    let items = prop::collection::vec(pattern().prop_flat_map(|v| quoted(&v)), 0..5).boxed();
    let single = (items, blank(), blank(), any::<bool>()).prop_map(|(items, pad, sep, tc)| {
        let mut s = format!("[{pad}{}", items.join(&format!(",{sep} ")));
        if tc && !items.is_empty() {
            s.push(',');
        }
        s.push_str(&pad);
        s.push(']');
        s
    });
    if !multi {
        return single.boxed();
    }
    let line = (
        prop::option::of(comment()),
        opt_trailing_comment(),
        prop_oneof![Just("  "), Just("    "), Just("\t")],
    );
    let many = (
        prop::collection::vec((pattern().prop_flat_map(|v| quoted(&v)), line), 0..5),
        any::<bool>(),
        prop::option::of(comment()),
        prop::option::of(comment()),
        any::<bool>(),
    )
        .prop_map(|(items, tc, head, tail, blank_line)| {
            let mut s = String::from("[");
            if let Some(h) = head {
                let _ = write!(s, " {h}");
            }
            s.push('\n');
            let n = items.len();
            for (i, (item, (above, after, indent))) in items.into_iter().enumerate() {
                if let Some(a) = above {
                    let _ = writeln!(s, "{indent}{a}");
                }
                if blank_line && i == 1 {
                    s.push('\n');
                }
                s.push_str(indent);
                s.push_str(&item);
                if i + 1 < n || tc {
                    s.push(',');
                }
                s.push_str(&after);
                s.push('\n');
            }
            if let Some(t) = tail {
                let _ = writeln!(s, "  {t}");
            }
            s.push(']');
            s
        });
    prop_oneof![single, many].boxed()
}

/// Key-value texts (`key`, `value`) for one topic.
fn topic_fields(multi: bool) -> BoxedStrategy<Vec<(String, String)>> {
    let text = "[A-Za-z ]{0,10}".prop_flat_map(|v| quoted(&v));
    let list = prop_oneof![
        3 => array(multi),
        1 => (array(false), prop_oneof![Just("append"), Just("replace")])
            .prop_map(|(a, s)| format!("{{ value = {a}, strategy = \"{s}\" }}")),
    ];
    (
        prop::option::of(text.clone()),
        prop::option::of(text.clone()),
        "[a-z/.]{1,12}".prop_flat_map(|v| quoted(&v)),
        prop::option::of(any::<bool>()),
        prop::option::of(list.clone()),
        prop::option::of(list),
        any::<u8>(),
        prop::option::of(prop_oneof![
            "[a-z ]{0,6}".prop_map(|t| format!("\"\"\"\n{t}\nmore \"quoted\"\n\"\"\"")),
            "[a-z ]{0,6}".prop_map(|t| format!("'''{t}\n  second'''")),
        ]),
    )
        .prop_map(
            move |(title, intro, subjects, enable, learned, disabled, order, description)| {
                let mut f: Vec<(String, String)> = Vec::new();
                if let Some(d) = description.filter(|_| multi) {
                    f.push(("description".into(), d));
                }
                if let Some(t) = title {
                    f.push(("title".into(), t));
                }
                f.push(("subjects".into(), subjects));
                if let Some(i) = intro {
                    f.push(("introduction".into(), i));
                }
                if let Some(e) = enable {
                    f.push(("enable".into(), e.to_string()));
                }
                if let Some(l) = learned {
                    f.push(("learned".into(), l));
                }
                if let Some(d) = disabled {
                    f.push(("disabled".into(), d));
                }
                let k = usize::from(order) % f.len();
                f.rotate_left(k);
                f
            },
        )
        .boxed()
}

#[derive(Debug, Clone, Copy)]
enum Style {
    Headers,
    RootDotted,
    KbDotted,
    TopicDotted,
    TopicInline,
    RootInline,
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![
        Just(Style::Headers),
        Just(Style::RootDotted),
        Just(Style::KbDotted),
        Just(Style::TopicDotted),
        Just(Style::TopicInline),
        Just(Style::RootInline),
    ]
}

/// Lines of filler: comments, blank lines, other keys.
fn filler() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![
            comment(),
            Just(String::new()),
            ("[a-z]{1,4}", 0..100i32).prop_map(|(k, v)| format!("other_{k} = {v}")),
        ],
        0..3,
    )
}

fn kv(k: &str, v: &str, sep: &str, tail: &str) -> String {
    format!("{k}{sep}{v}{tail}")
}

#[allow(clippy::too_many_lines)] // one generator, read top to bottom
fn document() -> impl Strategy<Value = String> {
    let ids = prop::sample::subsequence(IDS.to_vec(), 1..=3);
    (
        ids,
        style(),
        prop::collection::vec(
            (
                topic_fields(true),
                topic_fields(false),
                filler(),
                opt_trailing_comment(),
            ),
            3,
        ),
        filler(),
        filler(),
        prop_oneof![Just(" = "), Just("="), Just("  =  ")],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(ids, style, per_topic, head, tail, sep, crlf, final_break)| {
                let mut root: Vec<String> = head
                    .iter()
                    .filter(|l| !l.starts_with("other"))
                    .cloned()
                    .collect();
                let mut tables: Vec<String> =
                    vec!["[assistant]".into(), "name = \"jp\"".into(), String::new()];
                let mut section: Vec<String> = Vec::new();
                for (id, (fields, inline_fields, fill, tcom)) in ids.iter().zip(per_topic) {
                    let k = key(id);
                    match style {
                        Style::Headers => {
                            if tcom.is_empty() {
                                tables.push(format!("# the {id} topic"));
                            }
                            tables.push(format!("[kb.topic.{k}]{tcom}"));
                            tables.extend(fields.iter().map(|(f, v)| kv(f, v, sep, "")));
                            tables.extend(fill.into_iter().filter(|l| !l.starts_with("other")));
                            tables.push(String::new());
                            let has_learned = fields.iter().any(|(f, _)| f == "learned");
                            if !has_learned && inline_fields.len() % 2 == 0 {
                                tables.push(format!("[kb.topic.{k}.learned]"));
                                tables.push("value = [\"sub/*\", 'table']".into());
                                tables.push("strategy = \"append\"".into());
                                tables.push(String::new());
                            }
                        }
                        Style::RootDotted => {
                            root.extend(
                                fields
                                    .iter()
                                    .map(|(f, v)| kv(&format!("kb.topic.{k}.{f}"), v, sep, &tcom)),
                            );
                            root.extend(fill.into_iter().filter(|l| !l.starts_with("other")));
                        }
                        Style::KbDotted => section.extend(
                            fields
                                .iter()
                                .map(|(f, v)| kv(&format!("topic.{k}.{f}"), v, sep, "")),
                        ),
                        Style::TopicDotted => {
                            section.extend(
                                fields
                                    .iter()
                                    .map(|(f, v)| kv(&format!("  {k}.{f}"), v, sep, &tcom)),
                            );
                            section.extend(fill);
                        }
                        Style::TopicInline | Style::RootInline => {
                            let body: Vec<String> = inline_fields
                                .iter()
                                .map(|(f, v)| kv(f, v, sep, ""))
                                .collect();
                            let line = format!("{{ {} }}{tcom}", body.join(", "));
                            if matches!(style, Style::RootInline) {
                                root.push(format!("kb.topic.{k}{sep}{line}"));
                            } else {
                                section.push(format!("{k}{sep}{line}"));
                            }
                        }
                    }
                }
                match style {
                    Style::KbDotted if !section.is_empty() => {
                        tables.push("[kb]".into());
                        tables.extend(section);
                    }
                    Style::TopicDotted | Style::TopicInline if !section.is_empty() => {
                        tables.push("[kb.topic]".into());
                        tables.extend(section);
                    }
                    _ => {}
                }
                tables.push("[zz]".into());
                tables.extend(tail);
                let mut lines = root;
                lines.push(String::new());
                lines.extend(tables);
                // Filler keys must be unique within their table.
                let lines: Vec<String> = lines
                    .into_iter()
                    .enumerate()
                    .map(|(n, l)| match l.strip_prefix("other_") {
                        Some(rest) => format!("other{n}_{rest}"),
                        None => l,
                    })
                    .collect();
                let mut text = lines.join("\n");
                text.push('\n');
                if !final_break {
                    text = text.trim_end_matches('\n').to_owned();
                }
                if crlf {
                    text = text.replace('\n', "\r\n");
                }
                text
            },
        )
}

fn ok(text: &str, edit: &Edit) -> Result<jp_kb_core::internal::edit::Applied, TestCaseError> {
    apply(text, edit)
        .map_err(|e| TestCaseError::fail(format!("{edit:?}: {e}\n--- input ---\n{text}")))
}

fn assert_round_trip(text: &str, edits: &[Edit]) -> Result<(), TestCaseError> {
    let mut cur = text.to_owned();
    for e in edits {
        let a = ok(&cur, e)?;
        prop_assert!(a.changed, "{e:?} changed nothing in\n{cur}");
        cur = a.text;
    }
    prop_assert_eq!(&cur, text, "edits {:?} did not round-trip", edits);
    Ok(())
}

/// The topic's plain `learned`/`disabled` array is empty: removing the
/// last item then drops the key, so the round trip is not byte-exact by
/// design (an empty plain list means the same as none).
fn has_empty_plain(text: &str, id: &str, field: &str) -> bool {
    let doc: toml_edit::DocumentMut = text.parse().expect("generated documents parse");
    doc.get("kb")
        .and_then(|kb| kb.get("topic"))
        .and_then(|t| t.get(id))
        .and_then(|t| t.get(field))
        .and_then(|v| v.as_array())
        .is_some_and(toml_edit::Array::is_empty)
}

/// Comments (in generated documents `#` only starts comments), with the
/// rest of their line, as a multiset.
fn comments(text: &str) -> std::collections::HashMap<String, usize> {
    let mut out = std::collections::HashMap::new();
    for line in text.lines() {
        if let Some(i) = line.find('#') {
            *out.entry(line[i..].trim_end_matches('\r').to_owned())
                .or_insert(0) += 1;
        }
    }
    out
}

/// Removing one array item loses no comment but the one on the item's
/// own line, and adds none.
fn check_comments_kept(
    before: &str,
    after: &str,
    id: &str,
    item: &str,
) -> Result<(), TestCaseError> {
    let doc = toml_edit::Document::parse(before).expect("parses");
    let topic = &doc["kb"]["topic"][id]["learned"];
    let array = topic
        .as_array()
        .or_else(|| topic.get("value").and_then(|v| v.as_array()))
        .expect("array");
    let item_span = array
        .iter()
        .find(|v| v.as_str() == Some(item))
        .and_then(toml_edit::Value::span)
        .expect("item span");
    // An emptied plain array goes with its key, and so do its lines.
    let key_gone = toml_edit::Document::parse(after).expect("parses")["kb"]["topic"][id]
        .get("learned")
        .is_none();
    let span = if key_gone {
        array.span().expect("array span")
    } else {
        item_span
    };
    let line_start = before[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = before[span.end..]
        .find('\n')
        .map_or(before.len(), |i| span.end + i);
    let own_line = comments(&before[line_start..line_end]);
    let (b, a) = (comments(before), comments(after));
    for (c, n) in &a {
        prop_assert!(
            b.get(c).is_some_and(|m| m >= n),
            "comment {:?} appeared removing {:?}",
            c,
            item
        );
    }
    for (c, n) in &b {
        let lost = n - a.get(c).copied().unwrap_or(0);
        prop_assert!(
            lost <= own_line.get(c).copied().unwrap_or(0),
            "comment {:?} lost removing {:?} from\n{}\n--- got ---\n{}",
            c,
            item,
            before,
            after
        );
    }
    Ok(())
}

/// 300 cases; `PROPTEST_CASES=N` for a deeper run. Rejected cases
/// (`prop_assume!`) are bounded: at most one for every four cases run, so
/// a generator drifting to documents the properties cannot use fails the
/// test instead of passing on a handful of cases.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    ProptestConfig {
        max_global_rejects: (cases / 4).max(1),
        max_local_rejects: (cases / 4).max(1),
        ..ProptestConfig::with_cases(cases)
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn generated_documents_parse_and_list_their_topics(doc in document()) {
        prop_assert!(toml_edit::Document::parse(doc.as_str()).is_ok(), "generator made invalid TOML:\n{}", doc);
        prop_assert!(list_topics(&doc).is_ok());
    }

    #[test]
    fn list_add_then_remove_restores_bytes(doc in document(), p in pattern(), which in 0usize..4, disabled in any::<bool>()) {
        let topics = list_topics(&doc).expect("parses");
        prop_assume!(!topics.is_empty());
        let id = topics[which % topics.len()].id.clone();
        let field = if disabled { "disabled" } else { "learned" };
        prop_assume!(!has_empty_plain(&doc, &id, field));
        let pat = format!("{p}/zz-new");
        let v = vec![pat];
        let (add, rm) = if disabled {
            (Edit::AddDisabled { topic: id.clone(), slugs: v.clone() }, Edit::RemoveDisabled { topic: id.clone(), slugs: v })
        } else {
            (Edit::AddLearned { topic: id.clone(), patterns: v.clone() }, Edit::RemoveLearned { topic: id.clone(), patterns: v })
        };
        let added = ok(&doc, &add)?;
        let again = ok(&added.text, &add)?;
        prop_assert!(!again.changed);
        prop_assert_eq!(&again.text, &added.text);
        // An add that pushes a one-line array past 100 columns rewrites it
        // one item per line (docs/editing.md), which the removal keeps;
        // every other add adds at most one line.
        prop_assume!(added.text.lines().count() <= doc.lines().count() + 1);
        assert_round_trip(&doc, &[add, rm])?;
    }

    #[test]
    fn topic_add_then_remove_restores_bytes(doc in document(), id in "[a-z]{1,6}( x)?", desc in prop::option::of("[a-z]{1,5}(\n[a-z]{1,5})?")) {
        prop_assume!(list_topics(&doc).expect("parses").iter().all(|t| t.id != id));
        let add = Edit::AddTopic { id: id.clone(), subjects: "kb/x".into(), title: Some("X".into()), introduction: None, description: desc };
        let fill = Edit::AddLearned { topic: id.clone(), patterns: vec!["a/*".into(), "b".into()] };
        assert_round_trip(&doc, &[add.clone(), Edit::RemoveTopic { topic: id.clone() }])?;
        assert_round_trip(&doc, &[add, fill, Edit::RemoveTopic { topic: id }])?;
    }

    #[test]
    fn field_set_then_restore_restores_bytes(doc in document(), which in 0usize..4, f in 0usize..5, new in "[A-Za-z]{1,8}") {
        let topics = list_topics(&doc).expect("parses");
        prop_assume!(!topics.is_empty());
        let id = topics[which % topics.len()].id.clone();
        let field = TopicField::SCALARS[f];
        let parsed: toml_edit::DocumentMut = doc.parse().expect("parses");
        let current = parsed["kb"]["topic"][id.as_str()].get(field.key()).and_then(|i| i.as_value()).cloned();
        let value = if field == TopicField::Enable {
            FieldValue::Bool(current.as_ref().and_then(toml_edit::Value::as_bool).is_none_or(|b| !b))
        } else {
            FieldValue::Text(format!("{new}-changed"))
        };
        let set = Edit::SetField { topic: id.clone(), field, value };
        let restore = match &current {
            None => Edit::UnsetField { topic: id.clone(), field },
            Some(v) => Edit::SetField {
                topic: id.clone(),
                field,
                value: match v.as_bool() {
                    Some(b) => FieldValue::Bool(b),
                    None => FieldValue::Text(v.as_str().unwrap_or_default().to_owned()),
                },
            },
        };
        assert_round_trip(&doc, &[set, restore])?;
    }

    #[test]
    fn removing_and_replacing_never_breaks_a_document(doc in document(), which in 0usize..4, k in 0usize..5, with in prop::collection::vec(pattern(), 0..3)) {
        let topics = list_topics(&doc).expect("parses");
        prop_assume!(!topics.is_empty());
        let id = topics[which % topics.len()].id.clone();
        let parsed: toml_edit::DocumentMut = doc.parse().expect("parses");
        let learned = parsed["kb"]["topic"][id.as_str()].get("learned");
        let arr = learned.and_then(|l| l.as_array().or_else(|| l.get("value").and_then(|v| v.as_array())));
        let items: Vec<String> = arr.map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()).unwrap_or_default();
        if let Some(item) = items.get(k % items.len().max(1)) {
            // apply() checks internally that the result parses and means
            // exactly the edit; an Internal error would fail here.
            let removed = ok(&doc, &Edit::RemoveLearned { topic: id.clone(), patterns: vec![item.clone()] })?;
            prop_assert!(removed.changed);
            if items.iter().filter(|i| *i == item).count() == 1 {
                check_comments_kept(&doc, &removed.text, &id, item)?;
            }
            let replaced = ok(&doc, &Edit::ReplaceLearned { topic: id.clone(), pattern: item.clone(), with })?;
            prop_assert!(replaced.changed);
        }
        let gone = ok(&doc, &Edit::RemoveTopic { topic: id.clone() })?;
        prop_assert!(list_topics(&gone.text).expect("parses").iter().all(|t| t.id != id));
        let again = apply(&gone.text, &Edit::RemoveTopic { topic: id });
        prop_assert!(matches!(again, Err(EditError::TopicNotFound { .. })), "{:?}", again);
    }
}

/// The generator must reach the layouts the properties are about: every
/// sample parses, and some have multi-line arrays and comments.
#[test]
fn generator_covers_the_interesting_layouts() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut multiline, mut comments) = (0, 0);
    for _ in 0..200 {
        let doc = document().new_tree(&mut runner).expect("tree").current();
        assert!(
            list_topics(&doc).is_ok(),
            "generated document does not parse:\n{doc}"
        );
        multiline += usize::from(doc.contains("[\n") || doc.contains("[\r\n"));
        comments += usize::from(doc.contains('#'));
    }
    assert!(multiline > 0, "no multi-line array in 200 samples");
    assert!(comments > 0, "no comment in 200 samples");
}

#[path = "edit_props/mangled.rs"]
mod mangled;
