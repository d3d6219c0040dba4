//! Findings about loading the configuration: the fatal [`ConfigError`]s
//! (turned into one error finding each), `-k` arguments, and unknown keys.

use super::findings::{Code, Finding};
use super::locate::{Locator, PointAt};
use crate::config::overrides::apply_knowledge;
use crate::config::workspace::BAD_ID_PREFIX;
use crate::config::{ConfigError, ConfigWarning, KbConfig, Origin};
use crate::remedy::Remedy;

/// The finding a fatal configuration error becomes.
pub fn error_finding(err: &ConfigError, locator: &mut Locator) -> Finding {
    match err {
        ConfigError::NoWorkspace { .. } | ConfigError::BadWorkspace { .. } => {
            Finding::new(Code::LoadFailed, err.to_string())
                .remedy(Remedy::CreateWorkspace, str::to_owned)
        }
        ConfigError::Io { path, source } => Finding::new(
            Code::LoadFailed,
            format!("cannot read configuration file: {source}"),
        )
        .at(locator.file(path))
        .hint("check the file's permissions"),
        ConfigError::Parse {
            path,
            line,
            column,
            format,
            message,
        } => {
            let message = message.lines().next().unwrap_or(message).trim();
            Finding::new(Code::ConfigParse, format!("invalid {format}: {message}"))
                .at(locator.line_column(path, *line, *column))
                .hint(format!(
                    "fix the {format} syntax; nothing of this file is used until it parses"
                ))
        }
        ConfigError::WrongType {
            origin,
            key,
            expected,
            found,
        } => Finding::new(
            Code::WrongType,
            format!(
                "`{key}` must be {expected}, found {found}{}",
                from_argument(origin)
            ),
        )
        .at(locator.origin(origin, &PointAt::Value(key)))
        .hint(format!("write `{key}` as {expected}")),
        ConfigError::BadValue {
            origin,
            key,
            value,
            reason,
        } => {
            let mut location = locator.origin(origin, &PointAt::Item { keys: key, value });
            if location.span.is_none() || location.column == Some(1) {
                location = locator.origin(origin, &PointAt::Value(key));
            }
            // A value (and the reason, which may repeat it) from a file
            // outside the workspace is not repeated, as its text is not.
            if !locator.may_repeat(Some(origin)) {
                return Finding::new(Code::WrongType, format!("`{key}` has an invalid value"))
                    .at(location)
                    .hint("fix the value at the place named (its file is outside the workspace, so it is not quoted)");
            }
            Finding::new(
                Code::WrongType,
                format!(
                    "`{key}` has invalid value {value:?}{}",
                    from_argument(origin)
                ),
            )
            .at(location)
            .hint(capitalize(reason))
        }
        ConfigError::ExtendsCycle { chain } => cycle_finding(chain, locator),
        ConfigError::ExtendsMissing { origin, path } => {
            let location = locator.origin(
                origin,
                &PointAt::PathItem {
                    keys: "extends",
                    path,
                    canonical: false,
                },
            );
            Finding::new(
                Code::ExtendsMissing,
                format!(
                    "`extends` names {}, which does not exist",
                    locator.display(path).display()
                ),
            )
            .at(location)
            .hint("fix the path (it is relative to the file that declares it), or remove the entry")
        }
        // Only a server JP starts meets it; said like a missing workspace.
        ConfigError::JpCheckoutUnknown { .. } => Finding::new(Code::LoadFailed, err.to_string())
            .remedy(Remedy::CreateWorkspace, str::to_owned),
        ConfigError::Untrusted { path, .. } => Finding::new(Code::Untrusted, err.to_string())
            .remedy(
                Remedy::TrustDirectory {
                    dir: crate::config::trust::directory_to_trust(path),
                },
                str::to_owned,
            ),
        ConfigError::Usage(why) => Finding::new(Code::BadArgument, why.to_string())
            .remedy(Remedy::OverrideForms, str::to_owned),
    }
}

/// ` (in `--cfg …`)` for a value from the command line, which has no file
/// to point at.
pub fn from_argument(origin: &Origin) -> String {
    match origin {
        Origin::File { .. } => String::new(),
        other => format!(" (in `{other}`)"),
    }
}

fn cycle_finding(chain: &[std::path::PathBuf], locator: &mut Locator) -> Finding {
    let shown: Vec<String> = chain
        .iter()
        .map(|p| locator.display(p).display().to_string())
        .collect();
    let message = format!("`extends` cycle: {}", shown.join(" -> "));
    let hint = "remove one `extends` entry of the cycle";
    let (Some(target), Some(declaring)) = (chain.last(), chain.len().checked_sub(2)) else {
        return Finding::new(Code::ExtendsCycle, message).hint(hint);
    };
    let declaring = &chain[declaring];
    let origin = Origin::File {
        path: declaring.clone(),
        line: None,
    };
    let mut location = locator.origin(
        &origin,
        &PointAt::PathItem {
            keys: "extends",
            path: target,
            canonical: true,
        },
    );
    if location.span.is_none() {
        location = locator.origin(&origin, &PointAt::Key("extends"));
    }
    Finding::new(Code::ExtendsCycle, message)
        .at(location)
        .hint(hint)
}

/// Applies the `-k` arguments one by one, so that each bad one becomes a
/// finding and the good ones still count.
pub fn apply_knowledge_args(kb: &mut KbConfig, args: &[String], out: &mut Vec<Finding>) {
    for arg in args {
        if apply_knowledge(kb, std::slice::from_ref(arg)).is_ok() {
            continue;
        }
        let valid: Vec<&str> = kb.topics.keys().map(String::as_str).collect();
        let valid_text = if valid.is_empty() {
            "no topic is configured".to_owned()
        } else {
            format!("valid topics: {}", valid.join(", "))
        };
        let example = valid
            .first()
            .map_or_else(|| "-k TOPIC/GLOB".to_owned(), |id| format!("-k '{id}/**'"));
        let finding = match arg
            .split_once('/')
            .filter(|(t, g)| !t.is_empty() && !g.is_empty())
        {
            Some((topic, _)) => Finding::new(
                Code::UnknownTopic,
                format!("`-k {arg}` names unknown topic `{topic}`"),
            )
            .hint(format!(
                "{valid_text} (`{example}` pre-loads a whole topic)"
            )),
            None => Finding::new(Code::BadArgument, format!("`-k {arg}` is not TOPIC/GLOB")).hint(
                format!("write it as TOPIC/GLOB, e.g. `{example}`; {valid_text}"),
            ),
        };
        out.push(finding);
    }
}

/// One finding per unknown key under `kb`.
pub fn warning_findings(
    warnings: &[ConfigWarning],
    kb: &KbConfig,
    locator: &mut Locator,
) -> Vec<Finding> {
    warnings
        .iter()
        .map(|w| {
            let key = w.unknown_key();
            let message = match key {
                Some(key) => format!("unknown key `{key}` (ignored)"),
                None => w.message.clone(),
            };
            let hint = w.message.split_once("valid keys here: ").map(|(_, valid)| {
                let valid = valid.trim_end_matches(')');
                let suggestion = key
                    .and_then(|k| k.rsplit('.').next())
                    .and_then(|last| nearest(last, valid.split(", ")));
                match suggestion {
                    Some(s) => format!("did you mean `{s}`? Valid keys here: {valid}"),
                    None => format!("valid keys here: {valid}"),
                }
            });
            let code = if w.message.starts_with(BAD_ID_PREFIX) {
                Code::WorkspaceIdInvalid
            } else {
                Code::UnknownKey
            };
            let mut finding = Finding::new(code, message);
            if let Some(origin) = &w.origin {
                let location = match key {
                    Some(key) => locator.origin(origin, &PointAt::Key(key)),
                    None => locator.origin(origin, &PointAt::Key("")),
                };
                finding = finding.at(location);
                finding.message.push_str(&from_argument(origin));
            }
            if let Some(topic) = key.and_then(|k| topic_of_key(k, kb)) {
                finding = finding.topic(topic);
            }
            match hint {
                Some(hint) => finding.hint(hint),
                None => finding,
            }
        })
        .collect()
}

/// The topic `x` of a key `kb.topic.x.…` (the longest configured id that
/// fits: ids may contain dots).
fn topic_of_key<'a>(key: &str, kb: &'a KbConfig) -> Option<&'a str> {
    let rest = key.strip_prefix("kb.topic.")?;
    kb.topics
        .keys()
        .filter(|id| {
            rest.strip_prefix(id.as_str())
                .is_some_and(|tail| tail.starts_with('.'))
        })
        .max_by_key(|id| id.len())
        .map(String::as_str)
}

/// The candidate nearest to `word` by edit distance, when it is close
/// enough to be a likely typo.
pub fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let (best, distance) = candidates
        .map(|c| (c, strsim::levenshtein(word, c)))
        .min_by_key(|&(c, d)| (d, c))?;
    let len = word.chars().count();
    let limit = (len.max(best.chars().count()) / 3).max(1);
    (distance <= limit && distance < len).then_some(best)
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_suggests_close_words_only() {
        let slugs = ["maintainers/jean", "maintainers/ryan", "code-quality"];
        assert_eq!(
            nearest("maintainers/jaen", slugs.iter().copied()),
            Some("maintainers/jean")
        );
        assert_eq!(
            nearest("zzzzzzzzzzzzzzzzzzzzzz", slugs.iter().copied()),
            None
        );
        assert_eq!(
            nearest("learnd", ["learned", "title"].into_iter()),
            Some("learned")
        );
        assert_eq!(nearest("b1", ["a", "b"].into_iter()), Some("b"));
        assert_eq!(nearest("x", ["a", "b"].into_iter()), None);
    }

    #[test]
    fn topic_of_keys() {
        let mut kb = KbConfig::default();
        for id in ["x", "a", "a.b"] {
            let origin = Origin::Cfg(String::new());
            kb.topics.insert(
                id.to_owned(),
                crate::config::Topic::new(id.to_owned(), origin),
            );
        }
        assert_eq!(topic_of_key("kb.topic.x.learned.strateg", &kb), Some("x"));
        assert_eq!(topic_of_key("kb.topic.a.b.title2", &kb), Some("a.b"));
        assert_eq!(topic_of_key("kb.foo", &kb), None);
    }
}
