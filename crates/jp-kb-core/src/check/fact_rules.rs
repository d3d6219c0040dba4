//! The rules of the Facts format for one file, as [`Issue`]s (a code, a
//! sentence, a byte range of the file, a hint): the header's fields, each
//! fact's required fields and types, its id's shape and agreement with
//! its domain and category, the category enum, confidence within 0–1,
//! valid dates, expiry, and `total_facts`. What needs more than one file
//! (duplicates across files, the index against the YAML files, `related`
//! ids) is `super::facts`'s. Nothing here reads a file or knows where it
//! is: the caller turns ranges into places.

use std::ops::Range;

use serde_json::Value;

use super::findings::Code;
use crate::facts::{CATEGORIES, Dated, Day, Fact, FactsFile, FactsKind};

/// One thing wrong in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Its code.
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// Where, in the file's text.
    pub span: Range<usize>,
    /// How to fix it.
    pub hint: String,
}

impl Issue {
    fn new(code: Code, message: String, span: Range<usize>, hint: impl Into<String>) -> Self {
        Self {
            code,
            message,
            span,
            hint: hint.into(),
        }
    }
}

const SHAPE_HINT: &str = "write it as the Facts format shows: `- id: DOMAIN:CATEGORY:001`, `fact`, `confidence` (docs/facts.md)";
const DATE_HINT: &str = "write an ISO-8601 date, YYYY-MM-DD (quoted in YAML)";
const CONFIDENCE_HINT: &str = "confidence is a number from 0.0 to 1.0 (0.9–1.0 verified, 0.5–0.6 suggested, 0.1–0.2 speculative)";

/// What the caller knows of the file beyond its text.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The day expiry is judged on.
    pub today: Day,
    /// Whether the file is pre-loaded into the system prompt.
    pub preloaded: bool,
    /// The file as messages name it.
    pub name: &'a str,
}

/// The issues of `file`'s header and of each of its facts (not
/// duplicates, agreement or `related`), in file order.
pub fn file_issues(file: &FactsFile, cx: &Context<'_>) -> Vec<Issue> {
    let mut out: Vec<Issue> = file
        .problems
        .iter()
        .map(|p| {
            Issue::new(
                Code::FactsMalformed,
                p.message.clone(),
                p.span.clone(),
                SHAPE_HINT,
            )
        })
        .collect();
    header_issues(file, cx, &mut out);
    for (n, fact) in file.facts.iter().enumerate() {
        fact_issues(fact, n, file.kind, cx, &mut out);
    }
    out.sort_by_key(|i| i.span.start);
    out
}

fn header_issues(file: &FactsFile, cx: &Context<'_>, out: &mut Vec<Issue>) {
    let h = &file.header;
    let at = |key: &str| file.header_spans.value(key);
    let required: &[&str] = match file.kind {
        FactsKind::Index => &["version", "last_updated", "total_facts"],
        FactsKind::Yaml => &["domain"],
    };
    for key in required {
        if h.get(*key).is_none_or(Value::is_null) && file.problems.is_empty() {
            out.push(Issue::new(
                Code::FactsMalformed,
                format!("{} has no `{key}`", cx.name),
                file.header_spans.head.clone(),
                SHAPE_HINT,
            ));
        }
    }
    if let Some(v) = h.get("version").filter(|v| !v.is_null())
        && v.as_u64().is_none_or(|n| n == 0)
    {
        out.push(Issue::new(
            Code::FactsMalformed,
            format!("`version` is {v}, not a positive whole number"),
            at("version"),
            "the format's version is 1",
        ));
    }
    if let Some(Dated::Invalid(text)) = Dated::field(&Value::Object(h.clone()), "last_updated") {
        out.push(Issue::new(
            Code::FactDateInvalid,
            format!("`last_updated` is `{text}`, not an ISO-8601 date"),
            at("last_updated"),
            DATE_HINT,
        ));
    }
    if let Some(v) = h.get("domain").filter(|v| !v.is_null() && !v.is_string()) {
        out.push(Issue::new(
            Code::FactsMalformed,
            format!("`domain` is {v}, not a text"),
            at("domain"),
            "a domain is a repository name, `global`, or an agent's name",
        ));
    }
    if let Some(v) = h.get("category").filter(|v| !v.is_null()) {
        category_issue(v, at("category"), "the file's `category`", out);
    }
    if file.kind == FactsKind::Index
        && let Some(total) = h.get("total_facts")
        && file.problems.is_empty()
    {
        let count = file.facts.len();
        match total.as_u64() {
            None => out.push(Issue::new(
                Code::FactsMalformed,
                format!("`total_facts` is {total}, not a whole number"),
                at("total_facts"),
                format!("set it to {count}, the number of facts"),
            )),
            Some(n) if usize::try_from(n).ok() != Some(count) => out.push(Issue::new(
                Code::FactsTotalMismatch,
                format!("`total_facts` is {n}, but `facts` holds {count}"),
                at("total_facts"),
                format!("set it to {count} (or add the missing facts)"),
            )),
            Some(_) => {}
        }
    }
}

/// How a fact is named in messages: its id, or its place in the file.
pub fn label(fact: &Fact, n: usize) -> String {
    match fact.id() {
        Some(id) => format!("fact `{id}`"),
        None => format!("fact {} of the file", n + 1),
    }
}

fn category_issue(value: &Value, span: Range<usize>, what: &str, out: &mut Vec<Issue>) {
    if value.as_str().is_some_and(|c| CATEGORIES.contains(&c)) {
        return;
    }
    let shown = value
        .as_str()
        .map_or_else(|| value.to_string(), |s| format!("`{s}`"));
    let nearest = value
        .as_str()
        .and_then(|c| super::load::nearest(c, CATEGORIES.iter().copied()));
    out.push(Issue::new(
        Code::FactCategoryUnknown,
        format!("{what} is {shown}, not a category of the format"),
        span,
        match nearest {
            Some(near) => format!(
                "did you mean `{near}`? The categories are {}",
                CATEGORIES.join(", ")
            ),
            None => format!("use one of {}", CATEGORIES.join(", ")),
        },
    ));
}

fn fact_issues(fact: &Fact, n: usize, kind: FactsKind, cx: &Context<'_>, out: &mut Vec<Issue>) {
    let name = label(fact, n);
    let f = &fact.fields;
    let at = |key: &str| fact.spans.value(key);
    let missing = |key: &str, why: &str, out: &mut Vec<Issue>| {
        out.push(Issue::new(
            Code::FactsMalformed,
            format!("{name} has no `{key}`{why}"),
            fact.spans.head.clone(),
            SHAPE_HINT,
        ));
    };
    let present = |key: &str| f.get(key).filter(|v| !v.is_null());
    match present("id") {
        None => missing("id", "", out),
        Some(Value::String(id)) => id_issues(fact, id.as_str(), &name, out),
        Some(v) => out.push(Issue::new(
            Code::FactIdMalformed,
            format!("{name}: its id is {v}, not a text"),
            at("id"),
            "ids are `{domain}:{category}:{sequence}`, e.g. `global:pitfall:007` (quote it in YAML)",
        )),
    }
    match present("fact") {
        None => missing("fact", ": the one sentence it knows", out),
        Some(Value::String(s)) if s.trim().is_empty() => out.push(Issue::new(
            Code::FactsMalformed,
            format!("{name} has an empty `fact`"),
            at("fact"),
            "write the knowledge in one sentence",
        )),
        Some(Value::String(_)) => {}
        Some(v) => out.push(Issue::new(
            Code::FactsMalformed,
            format!("{name}: `fact` is {v}, not a sentence"),
            at("fact"),
            "write the knowledge in one sentence (quote it in YAML)",
        )),
    }
    match present("confidence") {
        None => missing("confidence", "", out),
        Some(v) if v.as_f64().is_some_and(|c| (0.0..=1.0).contains(&c)) => {}
        Some(v) => out.push(Issue::new(
            Code::FactConfidenceRange,
            format!("{name}: confidence {v} is not within 0.0–1.0"),
            at("confidence"),
            CONFIDENCE_HINT,
        )),
    }
    let own_or_file = match kind {
        FactsKind::Index => "",
        FactsKind::Yaml => " (its own or the file's)",
    };
    if fact.category.is_none() {
        match present("category") {
            Some(v) => category_issue(v, at("category"), &format!("{name}: its `category`"), out),
            None => missing("category", own_or_file, out),
        }
    } else if !fact.inherits_category
        && let Some(v) = present("category")
    {
        category_issue(v, at("category"), &format!("{name}: its `category`"), out);
    }
    match present("domain") {
        Some(Value::String(_)) => {}
        Some(v) => out.push(Issue::new(
            Code::FactsMalformed,
            format!("{name}: `domain` is {v}, not a text"),
            at("domain"),
            "a domain is a repository name, `global`, or an agent's name",
        )),
        None if fact.domain.is_none() => missing("domain", own_or_file, out),
        None => {}
    }
    list_of_text(fact, "tags", &name, out);
    list_of_text(fact, "related", &name, out);
    if let Some(v) = present("source_count")
        && v.as_u64().is_none()
    {
        out.push(Issue::new(
            Code::FactsMalformed,
            format!("{name}: `source_count` is {v}, not a whole number"),
            at("source_count"),
            "source_count is how many sessions confirmed the fact: 0, 1, 2…",
        ));
    }
    date_issues(fact, &name, cx, out);
}

/// Its dates: each a valid day, `expires` not past.
fn date_issues(fact: &Fact, name: &str, cx: &Context<'_>, out: &mut Vec<Issue>) {
    let at = |key: &str| fact.spans.value(key);
    let fields = Value::Object(fact.fields.clone());
    for key in ["first_seen", "last_confirmed", "expires"] {
        match Dated::field(&fields, key) {
            Some(Dated::Invalid(text)) => out.push(Issue::new(
                Code::FactDateInvalid,
                format!("{name}: `{key}` is `{text}`, not an ISO-8601 date"),
                at(key),
                DATE_HINT,
            )),
            Some(Dated::Day(day)) if key == "expires" && cx.today > day => out.push(Issue::new(
                Code::FactExpired,
                format!(
                    "{name} expired on {day} ({} ago){}",
                    crate::plural::count(
                        usize::try_from(day.days_until(cx.today)).unwrap_or(usize::MAX),
                        "day",
                        "days"
                    ),
                    if cx.preloaded {
                        ", and its file is pre-loaded into the system prompt"
                    } else {
                        ""
                    }
                ),
                at(key),
                "confirm it and move `expires` forward, or remove the fact",
            )),
            _ => {}
        }
    }
}

fn list_of_text(fact: &Fact, key: &str, name: &str, out: &mut Vec<Issue>) {
    match fact.fields.get(key) {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    out.push(Issue::new(
                        Code::FactsMalformed,
                        format!("{name}: item {} of `{key}` is {item}, not a text", i + 1),
                        fact.spans.item(key, i),
                        format!("`{key}` is a list of texts"),
                    ));
                }
            }
        }
        Some(v) => out.push(Issue::new(
            Code::FactsMalformed,
            format!("{name}: `{key}` is {v}, not a list"),
            fact.spans.value(key),
            format!("write `{key}` as a list: [a, b]"),
        )),
    }
}

/// `domain`, `category`, `sequence` of a well-formed id.
pub fn id_parts(id: &str) -> Option<(&str, &str, &str)> {
    let mut parts = id.split(':');
    let (domain, category, sequence) = (parts.next()?, parts.next()?, parts.next()?);
    let domain_ok =
        !domain.is_empty() && !domain.chars().any(|c| c.is_whitespace() || c.is_control());
    let category_ok = !category.is_empty()
        && category
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    let sequence_ok = !sequence.is_empty() && sequence.bytes().all(|b| b.is_ascii_digit());
    (parts.next().is_none() && domain_ok && category_ok && sequence_ok)
        .then_some((domain, category, sequence))
}

fn id_issues(fact: &Fact, id: &str, name: &str, out: &mut Vec<Issue>) {
    let span = fact.spans.value("id");
    let Some((domain, category, _)) = id_parts(id) else {
        out.push(Issue::new(
            Code::FactIdMalformed,
            format!("{name}: the id is not `{{domain}}:{{category}}:{{sequence}}`"),
            span,
            "ids are `{domain}:{category}:{sequence}`, e.g. `global:pitfall:007`: three parts, a category of the format, a number",
        ));
        return;
    };
    let mut wrong = Vec::new();
    if let Some(own) = fact.domain.as_deref().filter(|d| *d != domain) {
        wrong.push(format!("domain `{domain}`, the fact's is `{own}`"));
    }
    // A category outside the enum is KB019's: the id is not also wrong.
    if let Some(own) = fact
        .category
        .as_deref()
        .filter(|c| *c != category && CATEGORIES.contains(c))
    {
        wrong.push(format!("category `{category}`, the fact's is `{own}`"));
    }
    if !wrong.is_empty() {
        out.push(Issue::new(
            Code::FactIdMismatch,
            format!("{name}: its id says {}", wrong.join("; and ")),
            span,
            "make the id's domain and category the fact's (ids are `{domain}:{category}:{sequence}`), or fix the fact's",
        ));
    }
}

#[cfg(test)]
#[path = "fact_rules_tests.rs"]
mod tests;
