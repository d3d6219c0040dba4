//! Telling a Facts file from any other subject, and reading it. A file is
//! one when it is named `index.json` and holds an object with `facts`
//! (or mentions `"facts"` and does not parse: a broken index), or when it
//! is YAML (`.yaml`, `.yml`) and its front matter has a `domain` and one
//! of `category`, `version`, `last_updated` (the format's header). Any
//! other file is not looked into, so nothing about the format is said of
//! a topic without Facts files.

use std::ops::Range;

use serde_json::{Map, Value};

use super::file::{Fact, FactsFile, FactsKind, Problem};
use super::json_spans::Spanned;
use super::spans::FieldSpans;
use super::yaml_entries::{entry_ranges, field_spans};
use crate::frontmatter;

/// The keys a YAML entry must start with, one of them, to be read as a
/// fact when it does not parse (any other broken list item is prose).
const FACT_KEYS: [&str; 4] = ["id", "fact", "category", "confidence"];

/// `text`, the content of the subject at `rel_path` (its last component
/// is the file name; `extension` as the walk split it), as a Facts file;
/// `None` when it is not one.
pub fn read_facts(rel_path: &str, extension: Option<&str>, text: &str) -> Option<FactsFile> {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    if name == "index.json" {
        return read_index(text);
    }
    let yaml =
        extension.is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    if yaml { read_yaml(text) } else { None }
}

/// Whether a front matter is the Facts format's header.
pub fn is_facts_header(front: &Value) -> bool {
    front.get("domain").is_some()
        && ["category", "version", "last_updated"]
            .iter()
            .any(|k| front.get(*k).is_some())
}

fn read_index(text: &str) -> Option<FactsFile> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            if !text.contains("\"facts\"") {
                return None;
            }
            let at = byte_offset(text, e.line(), e.column());
            let mut file = FactsFile::new(FactsKind::Index, 0..0);
            file.problems.push(Problem {
                message: format!("does not parse as JSON: {e}"),
                span: at..next_char_end(text, at),
            });
            return Some(file);
        }
    };
    let Value::Object(mut top) = value else {
        return None;
    };
    let facts = top.remove("facts")?;
    let spanned = Spanned::scan(text)?;
    let head = spanned.span().start..spanned.span().start + 1;
    let mut file = FactsFile::new(FactsKind::Index, head);
    for key in top.keys() {
        if let Some(v) = spanned.get(key) {
            file.header_spans.set_value(key, v.span());
        }
    }
    file.header = top;
    let facts_spanned = spanned.get("facts");
    let Value::Array(items) = facts else {
        file.problems.push(Problem {
            message: "`facts` is not a list".to_owned(),
            span: facts_spanned.map_or(file.header_spans.head.clone(), Spanned::span),
        });
        return Some(file);
    };
    file.header_spans
        .set_value("facts", facts_spanned.map_or(0..0, Spanned::span));
    for (i, item) in items.into_iter().enumerate() {
        let place = facts_spanned.and_then(|f| f.item(i));
        let span = place.map_or(0..0, Spanned::span);
        let Value::Object(fields) = item else {
            file.problems.push(Problem {
                message: format!("fact {} of `facts` is not an object", i + 1),
                span,
            });
            continue;
        };
        let mut spans = FieldSpans::new(span.start..span.start + 1);
        if let Some(Spanned::Object { members, .. }) = place {
            for (key, _, value) in members {
                spans.set_value(key, value.span());
                if let Spanned::Array { items, .. } = value {
                    spans.set_items(key, items.iter().map(Spanned::span).collect());
                }
            }
        }
        let own = |k: &str| fields.get(k).and_then(Value::as_str).map(str::to_owned);
        file.facts.push(Fact {
            domain: own("domain"),
            category: own("category"),
            inherits_category: false,
            fields,
            spans,
        });
    }
    Some(file)
}

fn read_yaml(text: &str) -> Option<FactsFile> {
    let (yaml, body_start) = frontmatter::split(text)?;
    // `yaml` is a slice of `text`: where it starts.
    let yaml_start = yaml.as_ptr() as usize - text.as_ptr() as usize;
    let head_end = text[..yaml_start].trim_end_matches(['\n', '\r']).len();
    let mut file = FactsFile::new(FactsKind::Yaml, 0..head_end);
    match serde_norway::from_str::<Value>(yaml) {
        Ok(Value::Object(front)) if is_facts_header(&Value::Object(front.clone())) => {
            for key in front.keys() {
                if let Some(span) = front_key_value(text, yaml_start, yaml.len(), key) {
                    file.header_spans.set_value(key, span);
                }
            }
            file.header = front;
        }
        Ok(_) => return None,
        Err(e) => {
            // A header that does not parse is the format's when it names a
            // domain; anything else is not ours to judge.
            if !yaml.lines().any(|l| l.starts_with("domain:")) {
                return None;
            }
            let at = yaml_start + yaml_error_offset(yaml, &e);
            file.problems.push(Problem {
                message: format!(
                    "its front matter does not parse as YAML: {}",
                    message_of(&e)
                ),
                span: at..next_char_end(text, at),
            });
            return Some(file);
        }
    }
    let domain = file.header_str("domain").map(str::to_owned);
    let category = file.header_str("category").map(str::to_owned);
    for range in entry_ranges(text, body_start) {
        read_entry(text, range, domain.as_ref(), category.as_ref(), &mut file);
    }
    Some(file)
}

fn read_entry(
    text: &str,
    range: Range<usize>,
    domain: Option<&String>,
    category: Option<&String>,
    file: &mut FactsFile,
) {
    let block = &text[range.clone()];
    let spans = field_spans(text, range.clone());
    let parsed = serde_norway::from_str::<Value>(block);
    let looks_like_fact = || {
        let first = block[1..].trim_start();
        FACT_KEYS
            .iter()
            .any(|k| first.starts_with(&format!("{k}:")) || first.starts_with(&format!("{{{k}:")))
    };
    let fields = match parsed {
        Ok(Value::Array(mut items)) if items.len() == 1 => match items.pop() {
            Some(Value::Object(fields))
                if fields.contains_key("id") || fields.contains_key("fact") =>
            {
                fields
            }
            _ => return,
        },
        Ok(_) => return,
        Err(e) => {
            if looks_like_fact() {
                let at = range.start + yaml_error_offset(block, &e);
                file.problems.push(Problem {
                    message: format!("this fact entry does not parse as YAML: {}", message_of(&e)),
                    span: at..next_char_end(text, at),
                });
            }
            return;
        }
    };
    let own = |k: &str| fields.get(k).and_then(Value::as_str).map(str::to_owned);
    let (own_domain, own_category) = (own("domain"), own("category"));
    file.facts.push(Fact {
        domain: own_domain.or_else(|| domain.cloned()),
        inherits_category: own_category.is_none() && category.is_some(),
        category: own_category.or_else(|| category.cloned()),
        fields,
        spans,
    });
}

/// `serde_norway`'s message without its own "at line … column …" tail
/// (the finding carries the place).
fn message_of(e: &serde_norway::Error) -> String {
    let text = e.to_string();
    match text.find(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// Where the value of the top-level `key` of a front matter is (its
/// text spans `yaml_start..yaml_start + yaml_len`).
fn front_key_value(
    text: &str,
    yaml_start: usize,
    yaml_len: usize,
    key: &str,
) -> Option<Range<usize>> {
    let yaml = &text[yaml_start..yaml_start + yaml_len];
    let mut at = yaml_start;
    for line in yaml.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let rest = bare
            .strip_prefix(key)
            .or_else(|| bare.strip_prefix(&format!("\"{key}\"")))
            .or_else(|| bare.strip_prefix(&format!("'{key}'")));
        if let Some(rest) = rest.and_then(|r| r.trim_start().strip_prefix(':')) {
            let value = rest.trim_start();
            let start = at + bare.len() - rest.len() + (rest.len() - value.len());
            let shown = value.trim_end();
            return Some(if shown.is_empty() {
                at..at + bare.len()
            } else {
                start..start + shown.len()
            });
        }
        at += line.len();
    }
    None
}

/// The byte offset in `text` of a YAML error (its 1-based line and
/// column, in characters, as libyaml counts them).
fn yaml_error_offset(text: &str, e: &serde_norway::Error) -> usize {
    let Some(at) = e.location() else {
        return 0;
    };
    let line_start = text
        .split_inclusive('\n')
        .take(at.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let line = text[line_start..].split('\n').next().unwrap_or_default();
    line_start
        + line
            .char_indices()
            .nth(at.column().saturating_sub(1))
            .map_or(line.len(), |(i, _)| i)
}

/// The byte offset of a 1-based line and byte column (`serde_json`'s).
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let mut at = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The end of the character at `at` (`at` itself at the end).
fn next_char_end(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

/// A text's front matter and where the values of its ageing fields
/// (`expires`, `last_confirmed`, `confidence`) are; `None` without a
/// front matter that parses.
pub fn front_matter_with_spans(text: &str) -> Option<(Value, FieldSpans)> {
    let (yaml, _) = frontmatter::split(text)?;
    let front = frontmatter::parse(text)?.ok()?;
    let yaml_start = yaml.as_ptr() as usize - text.as_ptr() as usize;
    let head_end = text[..yaml_start].trim_end_matches(['\n', '\r']).len();
    let mut spans = FieldSpans::new(0..head_end);
    if let Value::Object(map) = &front {
        for key in ["expires", "last_confirmed", "confidence"] {
            if map.contains_key(key)
                && let Some(span) = front_key_value(text, yaml_start, yaml.len(), key)
            {
                spans.set_value(key, span);
            }
        }
    }
    Some((front, spans))
}

/// The header of a front matter alone, for callers that read only a
/// file's head (`list`, the TUI): its fields, when it is the Facts
/// format's header.
pub fn facts_header(front: &Value) -> Option<&Map<String, Value>> {
    match front {
        Value::Object(map) if is_facts_header(front) => Some(map),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "---\ndomain: global\ncategory: tool-quirk\nversion: 1\nlast_updated: \"2026-04-13\"\n---\n\n# Tool quirks\n\n## Shells\n\n- id: global:tool-quirk:001\n  fact: \"Description\"\n  confidence: 0.95\n  tags: [tag1, tag2]\n  source_count: 5\n  first_seen: \"2026-03-27\"\n\n- id: global:pitfall:002\n  category: pitfall\n  fact: [unclosed\n- Just a bullet of prose.\n";

    #[test]
    fn reads_a_yaml_file_as_the_spec_shows_it() {
        let file = read_facts("global/tool-quirks.yaml", Some("yaml"), YAML).unwrap();
        assert_eq!(file.kind, FactsKind::Yaml);
        assert_eq!(file.header_str("domain"), Some("global"));
        assert_eq!(
            &YAML[file.header_spans.value("last_updated")],
            "\"2026-04-13\""
        );
        assert_eq!(&YAML[file.header_spans.head.clone()], "---");
        assert_eq!(file.facts.len(), 1);
        let fact = &file.facts[0];
        assert_eq!(fact.id(), Some("global:tool-quirk:001"));
        assert_eq!(fact.category.as_deref(), Some("tool-quirk"));
        assert!(fact.inherits_category);
        assert_eq!(&YAML[fact.spans.value("confidence")], "0.95");
        assert_eq!(file.problems.len(), 1, "{:?}", file.problems);
        let at = file.problems[0].span.start;
        assert_eq!(
            &YAML[at..=at],
            "\n",
            "the end of `[unclosed`: {:?}",
            file.problems
        );
    }

    #[test]
    fn reads_an_index_with_places() {
        let text = "{\n  \"version\": 1,\n  \"total_facts\": 1,\n  \"facts\": [\n    {\"id\": \"g:fact:001\", \"confidence\": 1.5, \"related\": [\"x\"]},\n    7\n  ]\n}";
        let file = read_facts("index.json", Some("json"), text).unwrap();
        assert_eq!(file.kind, FactsKind::Index);
        assert_eq!(&text[file.header_spans.value("total_facts")], "1");
        assert_eq!(&text[file.facts[0].spans.value("confidence")], "1.5");
        assert_eq!(&text[file.facts[0].spans.item("related", 0)], "\"x\"");
        assert_eq!(
            file.problems[0].message,
            "fact 2 of `facts` is not an object"
        );
        assert_eq!(&text[file.problems[0].span.clone()], "7");
    }

    #[test]
    fn what_is_not_the_format_is_not_read() {
        assert!(read_facts("index.json", Some("json"), "{\"pages\": []}").is_none());
        assert!(read_facts("index.json", Some("json"), "{ broken").is_none());
        assert!(read_facts("a/index.json", Some("json"), "{\"facts\": [}").is_some());
        assert!(read_facts("notes.yaml", Some("yaml"), "---\ntitle: x\n---\n- id: a\n").is_none());
        assert!(read_facts("notes.yaml", Some("yaml"), "a: 1\n").is_none());
        assert!(read_facts("facts.md", Some("md"), YAML).is_none());
        assert!(read_facts("x.json", Some("json"), "{\"facts\": []}").is_none());
    }
}
