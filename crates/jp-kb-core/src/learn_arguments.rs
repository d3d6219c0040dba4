//! A `learn` call's arguments, checked against the tool's schema: what
//! every host of the tool (JP's built-in, `jp-kb mcp`) accepts alike.

use serde_json::{Map, Value};

/// Longest `topic` accepted, in bytes: an unknown topic's error repeats the
/// name, and a client must not be able to make it echo megabytes.
pub const MAX_TOPIC_BYTES: usize = 1024;
/// Most patterns accepted in one call.
pub const MAX_PATTERNS: usize = 1024;
/// Longest pattern accepted, in bytes.
pub const MAX_PATTERN_BYTES: usize = 4096;

/// What the `learn` tool takes, said after every argument error.
const USAGE: &str = "the `learn` tool takes `topic` (a string) and optionally `subjects` (a string, an array of strings, or null)";

/// Why a `learn` call's arguments were refused (the tool result's text,
/// with `isError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// An argument the schema does not have (its name, clipped).
    #[error("Unknown argument `{0}`: {USAGE}.")]
    Unknown(String),
    /// `topic` is absent.
    #[error("Missing argument `topic`: {USAGE}.")]
    MissingTopic,
    /// `topic` is not a string.
    #[error("`topic` must be a string: {USAGE}.")]
    TopicNotString,
    /// `topic` is longer than the limit (its length in bytes).
    #[error("`topic` is {0} bytes long; at most {MAX_TOPIC_BYTES} are accepted.")]
    TopicTooLong(usize),
    /// `subjects` is neither a string, an array of strings nor null.
    #[error("`subjects` must be a string, an array of strings, or null: {USAGE}.")]
    BadSubjects,
    /// More patterns than the limit (their count).
    #[error("`subjects` has {0} patterns; at most {MAX_PATTERNS} are accepted in one call.")]
    TooManyPatterns(usize),
    /// A pattern longer than the limit (its length in bytes).
    #[error("A pattern of `subjects` is {0} bytes long; at most {MAX_PATTERN_BYTES} are accepted.")]
    PatternTooLong(usize),
}

/// A call's arguments, checked against the schema: `topic` a string;
/// `subjects` a string, an array of strings, null or absent; nothing else.
/// An empty array lists the topic, like `jp-kb learn TOPIC` without
/// patterns.
///
/// # Errors
/// [`ArgumentError`], what the schema refuses.
pub fn parse_learn_arguments(
    arguments: Option<&Map<String, Value>>,
) -> Result<(String, Option<Vec<String>>), ArgumentError> {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    if let Some(key) = arguments
        .keys()
        .find(|k| !matches!(k.as_str(), "topic" | "subjects"))
    {
        return Err(ArgumentError::Unknown(clip(key).to_owned()));
    }
    let topic = match arguments.get("topic") {
        Some(Value::String(topic)) => topic.clone(),
        Some(_) => return Err(ArgumentError::TopicNotString),
        None => return Err(ArgumentError::MissingTopic),
    };
    if topic.len() > MAX_TOPIC_BYTES {
        return Err(ArgumentError::TopicTooLong(topic.len()));
    }
    let patterns = match arguments.get("subjects") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(vec![s.clone()]),
        Some(Value::Array(items)) => {
            if items.len() > MAX_PATTERNS {
                return Err(ArgumentError::TooManyPatterns(items.len()));
            }
            let patterns = items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<String>>>()
                .ok_or(ArgumentError::BadSubjects)?;
            (!patterns.is_empty()).then_some(patterns)
        }
        Some(_) => return Err(ArgumentError::BadSubjects),
    };
    if let Some(long) = patterns
        .iter()
        .flatten()
        .find(|p| p.len() > MAX_PATTERN_BYTES)
    {
        return Err(ArgumentError::PatternTooLong(long.len()));
    }
    Ok((topic, patterns))
}

/// A key shown in an error, cut to a readable length.
fn clip(text: &str) -> &str {
    clip_to(text, 64)
}

/// `text` cut to at most `max` bytes, never inside a character: what the
/// server echoes of a client's input in an error. The rule of
/// `jp_kb_toml::text::floor_char_boundary`, which the core reaches only
/// with its `config` feature (a JP without it still parses `learn` calls).
pub fn clip_to(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: &Value) -> Result<(String, Option<Vec<String>>), ArgumentError> {
        parse_learn_arguments(value.as_object())
    }

    #[test]
    fn subjects_may_be_a_string_an_array_or_null() {
        assert_eq!(args(&json!({"topic": "p"})), Ok(("p".into(), None)));
        assert_eq!(
            args(&json!({"topic": "p", "subjects": null})),
            Ok(("p".into(), None))
        );
        assert_eq!(
            args(&json!({"topic": "p", "subjects": "a/*"})),
            Ok(("p".into(), Some(vec!["a/*".into()])))
        );
        assert_eq!(
            args(&json!({"topic": "p", "subjects": ["a", "b"]})),
            Ok(("p".into(), Some(vec!["a".into(), "b".into()])))
        );
        assert_eq!(
            args(&json!({"topic": "p", "subjects": []})),
            Ok(("p".into(), None))
        );
    }

    #[test]
    fn refuses_what_the_schema_refuses() {
        for bad in [
            json!({}),
            json!({"topic": 3}),
            json!({"topic": null}),
            json!({"topic": "p", "subjects": 3}),
            json!({"topic": "p", "subjects": [1]}),
            json!({"topic": "p", "subjects": {"a": 1}}),
            json!({"topic": "p", "extra": true}),
        ] {
            assert!(args(&bad).is_err(), "{bad}");
        }
        assert!(parse_learn_arguments(None).is_err());
    }

    #[test]
    fn refuses_huge_arguments() {
        let long = "x".repeat(MAX_TOPIC_BYTES + 1);
        assert!(args(&json!({ "topic": long })).is_err());
        let many: Vec<String> = (0..=MAX_PATTERNS).map(|i| i.to_string()).collect();
        assert!(args(&json!({"topic": "p", "subjects": many})).is_err());
        let long = "x".repeat(MAX_PATTERN_BYTES + 1);
        assert!(args(&json!({"topic": "p", "subjects": long})).is_err());
        let key = "é".repeat(100);
        let err = args(&json!({"topic": "p", key: 1}))
            .unwrap_err()
            .to_string();
        assert!(err.len() < 300, "{err}");
    }
}
