//! Findings about one topic's configuration: its `subjects` directory, its
//! title and introduction, its `learned` and `disabled` entries, and
//! whether it shows up in the prompt at all. No file content is read here.

use std::collections::HashMap;

use super::findings::{Code, Finding};
use super::load::{from_argument, nearest};
use super::locate::{Location, Locator, PointAt};
use crate::config::{Origin, Topic, TopicField, Valued};
use crate::remedy::Remedy;
use crate::subjects::{PatternList, Resolution, is_glob};
use crate::topic::{TopicError, TopicState};

/// Where the topic is declared (its id in the table header or dotted key).
fn topic_location(topic: &Topic, locator: &mut Locator) -> Location {
    locator.origin(
        &topic.origin,
        &PointAt::Key(&format!("kb.topic.{}", topic.id)),
    )
}

/// The finding for a topic whose directory is in error, if it is one to
/// report: a bad path always, a missing or odd directory only when the
/// topic is enabled (a disabled topic is never read).
pub fn dir_finding(
    state: &TopicState,
    error: &TopicError,
    valid_topics: &[&str],
    locator: &mut Locator,
) -> Option<Finding> {
    let topic = &state.config;
    let id = topic.id.as_str();
    let key = format!("kb.topic.{id}.subjects");
    let from = topic
        .subjects
        .as_ref()
        .map(|s| from_argument(&s.origin))
        .unwrap_or_default();
    let origin = topic.subjects.as_ref().map(|s| &s.origin);
    let subjects_location = |locator: &mut Locator| match topic.subjects.as_ref() {
        Some(s) => locator.origin(&s.origin, &PointAt::Value(&key)),
        None => topic_location(topic, locator),
    };
    let finding = match error {
        // A disabled topic is never read: only a bad path is worth a word.
        TopicError::MissingSubjects | TopicError::NotFound(_) | TopicError::NotADirectory(_)
            if !topic.enabled() =>
        {
            return None;
        }
        TopicError::MissingSubjects => match &topic.origin {
            Origin::Cfg(arg) => Finding::new(
                Code::UnknownTopic,
                format!("`--cfg {arg}` names topic `{id}`, which no configuration file declares"),
            )
            .hint(format!(
                "valid topics: {}; to create a topic on the command line, also give its directory: `--cfg kb.topic.{id}.subjects=DIR`",
                if valid_topics.is_empty() {
                    "(none)".to_owned()
                } else {
                    valid_topics.join(", ")
                }
            )),
            _ => Finding::new(
                Code::SubjectsMissing,
                format!("topic `{id}` has no `subjects` directory"),
            )
            .at(topic_location(topic, locator))
            .hint(format!(
                "add `subjects = \".jp/kb/{id}\"` (a directory relative to the workspace root)"
            )),
        },
        TopicError::Absolute(value) => Finding::new(
            Code::SubjectsAbsolute,
            format!(
                "`subjects` of topic `{id}` is an absolute path{from}{}",
                shown_after(locator, origin, value)
            ),
        )
        .at(subjects_location(locator))
        .hint("`subjects` is relative to the workspace root; move the knowledge into the workspace"),
        TopicError::Escapes(value) => Finding::new(
            Code::SubjectsEscape,
            format!(
                "`subjects` of topic `{id}` leaves the workspace root{from}{}",
                shown_after(locator, origin, value)
            ),
        )
        .at(subjects_location(locator))
        .hint("knowledge is sent to a model: keep it inside the workspace"),
        TopicError::EscapesViaSymlink { path, target } => Finding::new(
            Code::SubjectsEscape,
            format!(
                "`subjects` of topic `{id}` ({path:?}) resolves to {}, outside the workspace root",
                target.display()
            ),
        )
        .at(subjects_location(locator))
        .hint("a symlink leads out of the workspace; knowledge is sent to a model: keep it inside"),
        TopicError::NotFound(dir) => Finding::new(
            Code::SubjectsNotFound,
            format!(
                "the subjects directory of topic `{id}`, {}, does not exist",
                locator.display(dir).display()
            ),
        )
        .at(subjects_location(locator))
        .hint("create the directory, or fix `subjects`"),
        TopicError::NotADirectory(dir) => Finding::new(
            Code::SubjectsNotDirectory,
            format!(
                "the subjects path of topic `{id}`, {}, is not a directory",
                locator.display(dir).display()
            ),
        )
        .at(subjects_location(locator))
        .hint("`subjects` names a directory whose files are the subjects"),
    };
    Some(finding.topic(id))
}

/// KB113: an enabled topic listed as a bare id.
pub fn description_finding(topic: &Topic, locator: &mut Locator) -> Option<Finding> {
    if topic.title().is_some() || topic.introduction().is_some() {
        return None;
    }
    let id = &topic.id;
    Some(
        Finding::new(
            Code::TopicUndescribed,
            format!(
                "topic `{id}` has no title and no introduction: the assistant sees only its id"
            ),
        )
        .at(topic_location(topic, locator))
        .topic(id)
        .hint(
            "add `title` and `introduction`: they are how the assistant decides to learn the topic",
        ),
    )
}

/// The first entry of each value of an array (duplicates are kept there),
/// by value: one pass, so a finding per entry stays linear.
fn first_of_each(items: &[Valued<String>]) -> HashMap<&str, &Valued<String>> {
    let mut out = HashMap::with_capacity(items.len());
    for item in items {
        out.entry(item.value.as_str()).or_insert(item);
    }
    out
}

fn entry_location(
    topic: &Topic,
    field: TopicField,
    entry: Option<&Valued<String>>,
    locator: &mut Locator,
) -> Location {
    entry.map_or_else(Location::default, |v| {
        locator.origin(
            &v.origin,
            &PointAt::Item {
                keys: &format!("kb.topic.{}.{}", topic.id, field.key()),
                value: &v.value,
            },
        )
    })
}

/// A hint ending in the listing of every slug of topic `id`: `before`,
/// then that remedy's phrase.
fn every_slug(id: &str, before: &str) -> (String, Option<Remedy>) {
    let remedy = Remedy::ListEverySlug {
        topic: id.to_owned(),
    };
    (format!("{before}{}", remedy.phrase()), Some(remedy))
}

/// `finding` with a hint and the remedy it names, if any.
fn hinted(mut finding: Finding, (hint, remedy): (String, Option<Remedy>)) -> Finding {
    finding.hint = Some(hint);
    finding.remedy = remedy;
    finding
}

/// `: "VALUE"` (escaped), or nothing when the value comes from a file
/// that may not be quoted ([`Locator::may_repeat`]).
fn shown_after(locator: &mut Locator, origin: Option<&Origin>, value: &str) -> String {
    if locator.may_repeat(origin) {
        format!(": {value:?}")
    } else {
        String::new()
    }
}

/// An entry as a message repeats it: `"VALUE"`, or a placeholder when it
/// comes from a file that may not be quoted ([`Locator::may_repeat`]).
fn entry_shown(locator: &mut Locator, entry: Option<&Valued<String>>, value: &str) -> String {
    if locator.may_repeat(entry.map(|e| &e.origin)) {
        format!("\"{value}\"")
    } else {
        "(from a file outside the workspace)".to_owned()
    }
}

fn quoted(slugs: &[&str]) -> String {
    slugs
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// KB102 and KB105: `learned` entries that pre-load nothing.
pub fn learned_findings(
    topic: &Topic,
    resolution: &Resolution,
    locator: &mut Locator,
    out: &mut Vec<Finding>,
) {
    let subjects = resolution.subjects();
    let learned = first_of_each(&topic.learned);
    let disabled = first_of_each(&topic.disabled);
    let list = PatternList::new(&resolution.learned_patterns);
    let buckets = list.select_per_pattern(subjects, &|_| true);
    for (p, bucket) in buckets.iter().enumerate() {
        let pattern = &resolution.learned_patterns[p];
        let entry = learned.get(pattern.as_str()).copied();
        let from = entry.map(|e| from_argument(&e.origin)).unwrap_or_default();
        let location = entry_location(topic, TopicField::Learned, entry, locator);
        let shown = entry_shown(locator, entry, pattern);
        let finding = if bucket.is_empty() {
            let hint = if list.is_glob(p) {
                let hidden: Vec<&str> = PatternList::new(std::slice::from_ref(pattern))
                    .first_match_any(subjects)
                    .iter()
                    .zip(subjects)
                    .filter(|(hit, s)| hit.is_some() && s.hidden)
                    .map(|(_, s)| s.slug())
                    .collect();
                if hidden.is_empty() {
                    every_slug(&topic.id, "no slug matches this glob; ")
                } else {
                    (
                        format!(
                            "globs skip hidden subjects; name them exactly instead: {}",
                            quoted(&hidden)
                        ),
                        None,
                    )
                }
            } else {
                match nearest(
                    pattern,
                    subjects
                        .iter()
                        .map(super::super::subjects::walk::Subject::slug),
                ) {
                    Some(slug) => (format!("did you mean `{slug}`?"), None),
                    None => every_slug(&topic.id, ""),
                }
            };
            hinted(
                Finding::new(
                    Code::LearnedSelectsNothing,
                    format!(
                        "`learned` entry {shown}{from} of topic `{}` selects no subject",
                        topic.id
                    ),
                ),
                hint,
            )
        } else if bucket.iter().all(|&i| resolution.is_disabled(i)) {
            let slugs: Vec<&str> = bucket.iter().map(|&i| subjects[i].slug()).collect();
            let disabled_by = bucket
                .first()
                .and_then(|&i| resolution.disabled_by.get(i))
                .map(|d| resolution.disabled_entries[d].as_str())
                .unwrap_or_default();
            let by = disabled.get(disabled_by).copied();
            let where_ = by
                .map(|v| format!(" ({})", v.origin.display_relative(locator_root(locator))))
                .unwrap_or_default();
            let disabled_by = entry_shown(locator, by, disabled_by);
            let message = if list.is_glob(p) {
                format!(
                    "`learned` glob {shown}{from} selects only disabled subjects ({}): disabled wins, it pre-loads nothing",
                    quoted(&slugs)
                )
            } else {
                format!(
                    "subject `{}` of topic `{}` is both learned{from} and disabled: disabled wins, it is not pre-loaded",
                    slugs.join(""),
                    topic.id
                )
            };
            let mut finding = Finding::new(Code::LearnedAndDisabled, message).hint(format!(
                "it is disabled by {disabled_by}{where_}; remove the `learned` or the `disabled` entry"
            ));
            if let [slug] = slugs.as_slice() {
                finding = finding.subject(slug);
            }
            finding
        } else {
            continue;
        };
        out.push(finding.at(location).topic(&topic.id));
    }
}

fn locator_root(locator: &Locator) -> &std::path::Path {
    locator.root().unwrap_or(std::path::Path::new(""))
}

/// KB103 and KB104: `disabled` entries that disable nothing.
pub fn disabled_findings(
    topic: &Topic,
    resolution: &Resolution,
    locator: &mut Locator,
    out: &mut Vec<Finding>,
) {
    let subjects = resolution.subjects();
    let disabled = first_of_each(&topic.disabled);
    for entry in &resolution.disabled_entries {
        let hits = PatternList::new(std::slice::from_ref(entry)).first_match_any(subjects);
        if hits.iter().any(Option::is_some) {
            continue;
        }
        let valued = disabled.get(entry.as_str()).copied();
        let from = valued.map(|e| from_argument(&e.origin)).unwrap_or_default();
        let location = entry_location(topic, TopicField::Disabled, valued, locator);
        let shown = entry_shown(locator, valued, entry);
        let finding = if is_glob(entry) {
            hinted(
                Finding::new(
                    Code::DisabledSelectsNothing,
                    format!(
                        "`disabled` glob {shown}{from} of topic `{}` matches no subject",
                        topic.id
                    ),
                ),
                every_slug(&topic.id, "remove it, or fix it; "),
            )
        } else {
            let hint = match nearest(
                entry,
                subjects
                    .iter()
                    .map(super::super::subjects::walk::Subject::slug),
            ) {
                Some(slug) => (format!("did you mean `{slug}`?"), None),
                None => every_slug(&topic.id, "no slug is close; "),
            };
            hinted(
                Finding::new(
                    Code::DisabledNotASlug,
                    format!(
                        "`disabled` entry {shown}{from} is not a slug of topic `{}`",
                        topic.id
                    ),
                ),
                hint,
            )
        };
        out.push(finding.at(location).topic(&topic.id));
    }
}

/// KB114: an enabled topic that shows up nowhere in the prompt.
pub fn empty_finding(
    state: &TopicState,
    resolution: &Resolution,
    locator: &mut Locator,
) -> Option<Finding> {
    if resolution.has_available() || !resolution.learned_order.is_empty() {
        return None;
    }
    let topic = &state.config;
    let counts = resolution.counts();
    let hint = if counts.total == 0 {
        let dir = state
            .dir
            .as_ref()
            .map(|d| locator.display(d).display().to_string())
            .unwrap_or_default();
        format!("its directory {dir} holds no subject: add files to it, or remove the topic")
    } else if counts.disabled == counts.total {
        format!(
            "all {} of its subjects are disabled: enable some, or set `enable = false`",
            counts.total
        )
    } else {
        format!(
            "its {} subjects are all hidden or disabled; hidden subjects are never listed: make some visible, or learn them",
            counts.total
        )
    };
    Some(
        Finding::new(
            Code::TopicEmpty,
            format!(
                "topic `{}` has no available or learned subject: it does not appear in the prompt",
                topic.id
            ),
        )
        .at(topic_location(topic, locator))
        .topic(&topic.id)
        .hint(hint),
    )
}
