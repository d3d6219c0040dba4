//! `check`'s findings about knowledge that ages: the Facts format's rules
//! (KB015–KB023, KB126, KB127) wherever a topic holds Facts files, and
//! the `expires`, `last_confirmed` and `confidence` of any subject's
//! front matter (KB128, KB129). [`FactsCheck`] is handed the text of each
//! subject as the contents check reads it (no second read), reports what
//! one file shows at once, what a topic shows (the index against its YAML
//! files) at the topic's end, and `related` ids, which may name a fact of
//! any topic, at the end of the check.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;

use serde_json::{Map, Value};

use super::fact_rules::{Context, file_issues, label};
use super::findings::{Code, Finding};
use super::locate::{Location, Locator};
use crate::facts::read::front_matter_with_spans;
use crate::facts::spans::FieldSpans;
use crate::facts::{Aging, Confidence, Dated, Day, FactsFile, FactsKind, read_facts};
use crate::frontmatter;
use crate::subjects::Subject;

/// The fields the index and the YAML files must agree on.
const COMPARED: [&str; 10] = [
    "fact",
    "category",
    "domain",
    "confidence",
    "tags",
    "source_count",
    "first_seen",
    "last_confirmed",
    "expires",
    "related",
];

/// A place to point at, and how a hint names it (`file:line`).
#[derive(Debug, Clone)]
struct Place {
    location: Location,
    shown: String,
}

/// A fact seen in a file of the current topic.
#[derive(Debug)]
struct Seen {
    id: String,
    place: Place,
    compared: Map<String, Value>,
    /// Its file (read already: the locator holds its text) and where its
    /// fields are, to point at the first field that disagrees.
    path: PathBuf,
    spans: FieldSpans,
}

/// An index of the current topic: the directory it covers (relative to
/// the topic, `""` for its root, else ending in `/`) and its facts.
#[derive(Debug)]
struct IndexSeen {
    dir: String,
    name: String,
    topic: String,
    slug: String,
    facts: Vec<Seen>,
}

/// A YAML fact of the current topic.
#[derive(Debug)]
struct YamlSeen {
    rel_path: String,
    name: String,
    topic: String,
    slug: String,
    fact: Seen,
}

/// A `related` id to look up once every topic is read.
#[derive(Debug)]
struct Related {
    id: String,
    from: String,
    location: Location,
    topic: String,
    slug: String,
}

/// What the check collects about ageing knowledge as it reads subjects.
#[derive(Debug)]
pub struct FactsCheck {
    today: Day,
    known: HashSet<String>,
    related: Vec<Related>,
    indexes: Vec<IndexSeen>,
    yaml: Vec<YamlSeen>,
    yaml_ids: HashMap<String, Place>,
    /// Ids of the current topic used twice: the index and the YAML files
    /// are not compared on them (which copy would be right?).
    duplicated: HashSet<String>,
}

impl FactsCheck {
    /// A check judging expiry as of `today`.
    pub fn new(today: Day) -> Self {
        Self {
            today,
            known: HashSet::new(),
            related: Vec::new(),
            indexes: Vec::new(),
            yaml: Vec::new(),
            yaml_ids: HashMap::new(),
            duplicated: HashSet::new(),
        }
    }

    /// The findings of one subject's text (KB015–KB021, KB023, KB127 to
    /// KB129, and duplicates of ids seen before in the topic).
    pub fn subject(
        &mut self,
        topic: &str,
        subject: &Subject,
        preloaded: bool,
        text: &str,
        locator: &mut Locator,
        out: &mut Vec<Finding>,
    ) {
        let ext = subject.extension();
        let yaml =
            ext.is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
        if !(frontmatter::is_markdown(ext) || yaml || subject.rel_path().ends_with("index.json")) {
            return;
        }
        let facts = read_facts(subject.rel_path(), ext, text);
        let path = subject.path();
        let mut at = |span: Range<usize>| locator.span_in_text(path, text, span);
        let found = |code: Code, message: String, location: Location, hint: &str| {
            Finding::new(code, message)
                .at(location)
                .topic(topic)
                .subject(subject.slug())
                .hint(hint)
        };
        if let Some((front, spans)) = front_matter_with_spans(text) {
            for (code, message, key, hint) in aging_findings(
                &Aging::of_front_matter(&front),
                self.today,
                preloaded,
                facts.is_some(),
            ) {
                out.push(found(code, message, at(spans.value(key)), hint));
            }
        }
        let Some(file) = facts else {
            return;
        };
        let name = subject.rel_path();
        let cx = Context {
            today: self.today,
            preloaded,
            name,
        };
        for issue in file_issues(&file, &cx) {
            out.push(found(
                issue.code,
                issue.message,
                at(issue.span),
                &issue.hint,
            ));
        }
        let mut seen_here: HashMap<String, Place> = HashMap::new();
        let mut seen = Vec::new();
        for (n, fact) in file.facts.iter().enumerate() {
            let Some(id) = fact.id() else {
                continue;
            };
            let location = at(fact.spans.value("id"));
            let place = Place {
                shown: shown(&location),
                location: location.clone(),
            };
            let earlier = match file.kind {
                FactsKind::Index => seen_here.get(id),
                FactsKind::Yaml => self.yaml_ids.get(id),
            };
            if let Some(first) = earlier {
                self.duplicated.insert(id.to_owned());
                out.push(found(
                    Code::FactIdDuplicate,
                    format!("{} is used twice: first at {}", label(fact, n), first.shown),
                    location,
                    "give one of them the next free sequence number (or remove the copy)",
                ));
                continue;
            }
            seen_here.insert(id.to_owned(), place.clone());
            if file.kind == FactsKind::Yaml {
                self.yaml_ids.insert(id.to_owned(), place.clone());
            }
            self.known.insert(id.to_owned());
            if let Some(Value::Array(items)) = fact.fields.get("related") {
                for (i, item) in items.iter().enumerate() {
                    if let Value::String(related) = item {
                        self.related.push(Related {
                            id: related.clone(),
                            from: id.to_owned(),
                            location: at(fact.spans.item("related", i)),
                            topic: topic.to_owned(),
                            slug: subject.slug().to_owned(),
                        });
                    }
                }
            }
            seen.push(Seen {
                id: id.to_owned(),
                place,
                compared: compared(fact),
                path: path.to_path_buf(),
                spans: fact.spans.clone(),
            });
        }
        self.keep(&file, name, topic, subject.slug(), seen);
    }

    /// Keeps what one file's facts are compared with at the end of the
    /// topic (an index, or a YAML file's facts).
    fn keep(&mut self, file: &FactsFile, name: &str, topic: &str, slug: &str, seen: Vec<Seen>) {
        // An index that could not be read holds no facts to compare.
        let unread =
            file.kind == FactsKind::Index && file.facts.is_empty() && !file.problems.is_empty();
        match file.kind {
            FactsKind::Index if unread => {}
            FactsKind::Index => self.indexes.push(IndexSeen {
                dir: name
                    .strip_suffix("index.json")
                    .unwrap_or_default()
                    .to_owned(),
                name: name.to_owned(),
                topic: topic.to_owned(),
                slug: slug.to_owned(),
                facts: seen,
            }),
            FactsKind::Yaml => self.yaml.extend(seen.into_iter().map(|fact| YamlSeen {
                rel_path: name.to_owned(),
                name: name.to_owned(),
                topic: topic.to_owned(),
                slug: slug.to_owned(),
                fact,
            })),
        }
    }

    /// The end of a topic: each index against the YAML files below its
    /// directory (KB126), when there are any.
    pub fn end_topic(&mut self, locator: &mut Locator, out: &mut Vec<Finding>) {
        let mut yaml = std::mem::take(&mut self.yaml);
        self.yaml_ids.clear();
        let duplicated = std::mem::take(&mut self.duplicated);
        yaml.retain(|y| !duplicated.contains(&y.fact.id));
        for mut index in std::mem::take(&mut self.indexes) {
            index.facts.retain(|f| !duplicated.contains(&f.id));
            let covered: Vec<&YamlSeen> = yaml
                .iter()
                .filter(|y| y.rel_path.starts_with(&index.dir))
                .collect();
            if covered.is_empty() {
                continue;
            }
            agreement(&index, &covered, locator, out);
        }
    }

    /// The end of the check: `related` ids that name no fact (KB022).
    /// `complete` is false when some topic's contents were not read (its
    /// facts unknown): nothing is said then.
    pub fn finish(self, complete: bool, out: &mut Vec<Finding>) {
        if !complete {
            return;
        }
        for r in self.related {
            if self.known.contains(&r.id) {
                continue;
            }
            let near = super::load::nearest(&r.id, self.known.iter().map(String::as_str));
            out.push(
                Finding::new(
                    Code::FactRelatedMissing,
                    format!("fact `{}`: related id `{}` names no fact", r.from, r.id),
                )
                .at(r.location)
                .topic(&r.topic)
                .subject(&r.slug)
                .hint(match near {
                    Some(near) => format!("did you mean `{near}`? Otherwise remove it from `related`"),
                    None => "fix the id, or remove it from `related` (ids of disabled files are not known)".to_owned(),
                }),
            );
        }
    }
}

/// KB128/KB129 (or, in a Facts file's header, KB020/KB021) of a front
/// matter: `(code, message, key, hint)`.
fn aging_findings(
    aging: &Aging,
    today: Day,
    preloaded: bool,
    facts_file: bool,
) -> Vec<(Code, String, &'static str, &'static str)> {
    let mut out = Vec::new();
    let bad_date = if facts_file {
        Code::FactDateInvalid
    } else {
        Code::AgingUnreadable
    };
    for (key, value) in [
        ("expires", &aging.expires),
        ("last_confirmed", &aging.last_confirmed),
    ] {
        if let Some(Dated::Invalid(text)) = value {
            out.push((
                bad_date,
                format!("front matter `{key}` is `{text}`, not an ISO-8601 date: it is ignored"),
                key,
                "write an ISO-8601 date, YYYY-MM-DD",
            ));
        }
    }
    if let Some(Confidence::Invalid(text)) = &aging.confidence {
        out.push((
            if facts_file {
                Code::FactConfidenceRange
            } else {
                Code::AgingUnreadable
            },
            format!(
                "front matter `confidence` is {text}, not a number from 0.0 to 1.0: it is ignored"
            ),
            "confidence",
            "write confidence as a number from 0.0 (a guess) to 1.0 (verified)",
        ));
    }
    if let Some(day) = aging.expired(today) {
        let days = usize::try_from(day.days_until(today)).unwrap_or(usize::MAX);
        out.push((
            Code::SubjectExpired,
            format!(
                "expired on {day} ({} ago), and {}",
                crate::plural::count(days, "day", "days"),
                if preloaded {
                    "is pre-loaded into every system prompt as if it still held"
                } else {
                    "the assistant can still load it"
                }
            ),
            "expires",
            "confirm it and move `expires` forward, or add its slug to `disabled`",
        ));
    }
    out
}

/// `file:line` of a location, for hints.
fn shown(location: &Location) -> String {
    let file = location
        .file
        .as_deref()
        .map_or_else(String::new, |f| f.display().to_string());
    match location.line {
        Some(line) => format!("{file}:{line}"),
        None => file,
    }
}

/// A fact's compared fields: its domain and category as in effect, numbers
/// as numbers whatever their spelling, lists as sets.
fn compared(fact: &crate::facts::Fact) -> Map<String, Value> {
    let mut out = Map::new();
    for key in COMPARED {
        let value = match key {
            "domain" => fact.domain.clone().map(Value::String),
            "category" => fact.category.clone().map(Value::String),
            _ => fact.fields.get(key).filter(|v| !v.is_null()).cloned(),
        };
        let Some(value) = value else {
            continue;
        };
        let value = match value {
            Value::Number(n) => n.as_f64().map_or(Value::Number(n), Value::from),
            Value::Array(items) => {
                let mut texts: Vec<String> = items.iter().map(ToString::to_string).collect();
                texts.sort();
                texts.dedup();
                Value::from(texts)
            }
            other => other,
        };
        out.insert(key.to_owned(), value);
    }
    out
}

fn agreement(index: &IndexSeen, yaml: &[&YamlSeen], locator: &mut Locator, out: &mut Vec<Finding>) {
    let dir = if index.dir.is_empty() {
        "the topic".to_owned()
    } else {
        format!("`{}`", index.dir)
    };
    let mut by_id: HashMap<&str, &YamlSeen> = HashMap::new();
    for y in yaml {
        by_id.entry(y.fact.id.as_str()).or_insert(y);
    }
    let in_index: HashSet<&str> = index.facts.iter().map(|f| f.id.as_str()).collect();
    let at_index = |_: &Seen, location: Location, message: String, hint: String| {
        Finding::new(Code::FactsIndexDisagrees, message)
            .at(location)
            .topic(&index.topic)
            .subject(&index.slug)
            .hint(hint)
    };
    for fact in &index.facts {
        match by_id.get(fact.id.as_str()) {
            None => out.push(at_index(
                fact,
                fact.place.location.clone(),
                format!(
                    "fact `{}` is in {} but in no YAML file of {dir}",
                    fact.id, index.name
                ),
                format!(
                    "add it to its YAML file, or remove it from {} (and count `total_facts` again)",
                    index.name
                ),
            )),
            Some(y) => {
                let differ: Vec<&str> = COMPARED
                    .into_iter()
                    .filter(|k| fact.compared.get(*k) != y.fact.compared.get(*k))
                    .collect();
                if let Some(first) = differ.first() {
                    // The index's value (its entry when it has none); the
                    // file was read and kept by the locator already.
                    let location = locator.span_in_text(&fact.path, "", fact.spans.value(first));
                    let differ: Vec<String> = differ.iter().map(|k| format!("`{k}`")).collect();
                    out.push(at_index(
                        fact,
                        location,
                        format!(
                            "fact `{}`: {} and {} disagree on {}",
                            fact.id,
                            index.name,
                            y.fact.place.shown,
                            differ.join(", ")
                        ),
                        format!(
                            "make them the same: people edit the YAML files, tools read {}",
                            index.name
                        ),
                    ));
                }
            }
        }
    }
    let mut reported = HashSet::new();
    for y in yaml {
        if in_index.contains(y.fact.id.as_str()) || !reported.insert(y.fact.id.as_str()) {
            continue;
        }
        out.push(
            Finding::new(
                Code::FactsIndexDisagrees,
                format!(
                    "fact `{}` of {} is not in {}",
                    y.fact.id, y.name, index.name
                ),
            )
            .at(y.fact.place.location.clone())
            .topic(&y.topic)
            .subject(&y.slug)
            .hint(format!(
                "add it to {} (and count it in `total_facts`), or remove it",
                index.name
            )),
        );
    }
}
