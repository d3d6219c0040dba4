//! When another assistant shows a file to its model, read from the file's
//! kind and front matter: always, for matching files (`paths:`, `globs:`,
//! `applyTo`), for a directory, when the model judges a description
//! relevant, or only when the person names it. JP has no "when a matching
//! file is read": the plan says per file what it does instead.
//!
//! Front matter is read leniently: Cursor and Windsurf write globs such as
//! `globs: *.ts` that are not valid YAML (`*` starts an alias), so a block
//! YAML refuses is read again as `key: value` lines.

use std::collections::BTreeMap;

use serde_json::Value;

use super::kinds::Kind;

/// When the assistant a file was written for shows it to its model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// In every session.
    Always,
    /// When the work touches files matching these globs.
    Files(Vec<String>),
    /// When the work is under this directory (the nearest file wins).
    Directory(String),
    /// When the model judges this description relevant.
    Described(String),
    /// Only when the person names it.
    Manual,
}

impl Trigger {
    /// Whether the assistant decides by the files worked on: no JP
    /// equivalent, so the person chooses (`--gated`).
    pub fn is_gated(&self) -> bool {
        matches!(self, Self::Files(_) | Self::Directory(_))
    }

    /// What the assistant it was written for does, in a few words.
    pub fn describe(&self) -> String {
        match self {
            Self::Always => "every session".into(),
            Self::Files(globs) => format!("when files matching {} are involved", globs.join(", ")),
            Self::Directory(dir) => format!("for work under {dir}/"),
            Self::Described(_) => "when its description fits the task".into(),
            Self::Manual => "only when the person names it".into(),
        }
    }
}

/// A file's trigger and the description its front matter gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    pub trigger: Trigger,
    pub description: Option<String>,
}

/// The gate of a file of `kind` holding `text`.
pub fn gate_of(kind: &Kind, text: &str) -> Gate {
    let fields = front_matter(text);
    let description = string(&fields, "description");
    let trigger = match kind {
        Kind::NestedAgents { dir } | Kind::NestedClaude { dir } => Trigger::Directory(dir.clone()),
        Kind::ClaudeRule => files_or_always(globs(&fields, "paths")),
        Kind::ClaudeSkill { name } => {
            if boolean(&fields, "disable-model-invocation") == Some(true) {
                Trigger::Manual
            } else {
                Trigger::Described(description.clone().unwrap_or_else(|| name.clone()))
            }
        }
        Kind::CursorRule { dir } => {
            let trigger = if boolean(&fields, "alwaysApply") == Some(true) {
                Trigger::Always
            } else if let Some(globs) = globs(&fields, "globs") {
                files_or_always(Some(globs))
            } else if let Some(d) = &description {
                Trigger::Described(d.clone())
            } else {
                Trigger::Manual
            };
            match (dir, trigger) {
                (Some(dir), Trigger::Always) => Trigger::Directory(dir.clone()),
                (_, trigger) => trigger,
            }
        }
        Kind::CopilotFile => match globs(&fields, "applyTo") {
            Some(globs) => files_or_always(Some(globs)),
            None => Trigger::Manual,
        },
        Kind::WindsurfRule => match string(&fields, "trigger").as_deref() {
            Some("glob") => files_or_always(globs(&fields, "globs")),
            Some("model_decision") => Trigger::Described(description.clone().unwrap_or_default()),
            Some("manual") => Trigger::Manual,
            _ => Trigger::Always,
        },
        _ => Trigger::Always,
    };
    Gate {
        trigger,
        description,
    }
}

/// `Files`, unless a glob matches every file (`**`, `**/*`): then the
/// file is in fact always shown.
fn files_or_always(globs: Option<Vec<String>>) -> Trigger {
    match globs {
        Some(globs) if !globs.iter().any(|g| matches!(g.as_str(), "**" | "**/*")) => {
            Trigger::Files(globs)
        }
        _ => Trigger::Always,
    }
}

/// A front-matter value: text, a list, or a boolean.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Field {
    Text(String),
    List(Vec<String>),
    Bool(bool),
}

fn string(fields: &BTreeMap<String, Field>, key: &str) -> Option<String> {
    match fields.get(key)? {
        Field::Text(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        _ => None,
    }
}

fn boolean(fields: &BTreeMap<String, Field>, key: &str) -> Option<bool> {
    match fields.get(key)? {
        Field::Bool(b) => Some(*b),
        Field::Text(s) => match s.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        Field::List(_) => None,
    }
}

/// Globs from a list or a comma-separated string (commas inside `{…}`
/// kept); `None` when there is none.
fn globs(fields: &BTreeMap<String, Field>, key: &str) -> Option<Vec<String>> {
    let items = match fields.get(key)? {
        Field::Text(s) => split_globs(s),
        Field::List(items) => items.iter().flat_map(|i| split_globs(i)).collect(),
        Field::Bool(_) => Vec::new(),
    };
    (!items.is_empty()).then_some(items)
}

fn split_globs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out.into_iter()
        .map(|g| unquote(g.trim()).to_owned())
        .filter(|g| !g.is_empty())
        .collect()
}

fn unquote(s: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

/// The front matter's top-level fields: parsed as YAML, else as lines.
fn front_matter(text: &str) -> BTreeMap<String, Field> {
    match crate::frontmatter::parse(text) {
        None => BTreeMap::new(),
        Some(Ok(Value::Object(map))) => map
            .into_iter()
            .filter_map(|(k, v)| Some((k, field_of(v)?)))
            .collect(),
        Some(_) => crate::frontmatter::split(text)
            .map(|(yaml, _)| lenient(yaml))
            .unwrap_or_default(),
    }
}

fn field_of(value: Value) -> Option<Field> {
    Some(match value {
        Value::String(s) => Field::Text(s),
        Value::Bool(b) => Field::Bool(b),
        Value::Number(n) => Field::Text(n.to_string()),
        Value::Array(items) => Field::List(
            items
                .into_iter()
                .filter_map(|i| match i {
                    Value::String(s) => Some(s),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect(),
        ),
        _ => return None,
    })
}

/// `key: value` lines, and `- item` lines under a key with no value.
fn lenient(yaml: &str) -> BTreeMap<String, Field> {
    let mut fields = BTreeMap::new();
    let mut list_key: Option<String> = None;
    for line in yaml.lines() {
        let trimmed = line.trim();
        if let (Some(key), Some(item)) = (&list_key, trimmed.strip_prefix("- ")) {
            if let Some(Field::List(items)) = fields.get_mut(key) {
                items.push(unquote(item.trim()).to_owned());
            }
            continue;
        }
        list_key = None;
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim().to_owned();
        let value = value.trim();
        if value.is_empty() {
            fields.insert(key.clone(), Field::List(Vec::new()));
            list_key = Some(key);
        } else {
            fields.insert(key, Field::Text(unquote(value).to_owned()));
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(kind: &Kind, text: &str) -> Trigger {
        gate_of(kind, text).trigger
    }

    #[test]
    fn claude_rules_are_always_on_without_paths() {
        assert_eq!(gate(&Kind::ClaudeRule, "# Rule\n"), Trigger::Always);
        assert_eq!(
            gate(
                &Kind::ClaudeRule,
                "---\npaths:\n  - \"src/**/*.{ts,tsx}\"\n  - lib/*.rs\n---\nx"
            ),
            Trigger::Files(vec!["src/**/*.{ts,tsx}".into(), "lib/*.rs".into()])
        );
        assert_eq!(
            gate(&Kind::ClaudeRule, "---\npaths: \"**/*\"\n---\n"),
            Trigger::Always
        );
    }

    #[test]
    fn cursor_rules_follow_their_four_types_even_in_invalid_yaml() {
        let k = Kind::CursorRule { dir: None };
        assert_eq!(gate(&k, "---\nalwaysApply: true\n---\n"), Trigger::Always);
        // `*.ts` is not valid YAML: read as lines.
        assert_eq!(
            gate(
                &k,
                "---\ndescription:\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\n"
            ),
            Trigger::Files(vec!["*.ts".into(), "*.tsx".into()])
        );
        assert_eq!(
            gate(
                &k,
                "---\ndescription: API conventions\nalwaysApply: false\n---\n"
            ),
            Trigger::Described("API conventions".into())
        );
        assert_eq!(gate(&k, "---\nalwaysApply: false\n---\n"), Trigger::Manual);
        assert_eq!(gate(&k, "no front matter"), Trigger::Manual);
        let nested = Kind::CursorRule {
            dir: Some("web".into()),
        };
        assert_eq!(
            gate(&nested, "---\nalwaysApply: true\n---\n"),
            Trigger::Directory("web".into())
        );
    }

    #[test]
    fn copilot_apply_to_and_windsurf_triggers() {
        assert_eq!(
            gate(&Kind::CopilotFile, "---\napplyTo: \"**\"\n---\n"),
            Trigger::Always
        );
        assert_eq!(
            gate(
                &Kind::CopilotFile,
                "---\napplyTo: \"**/*.py,tests/**\"\n---\n"
            ),
            Trigger::Files(vec!["**/*.py".into(), "tests/**".into()])
        );
        assert_eq!(gate(&Kind::CopilotFile, "text"), Trigger::Manual);
        assert_eq!(
            gate(
                &Kind::WindsurfRule,
                "---\ntrigger: glob\nglobs: *.go\n---\n"
            ),
            Trigger::Files(vec!["*.go".into()])
        );
        assert_eq!(
            gate(
                &Kind::WindsurfRule,
                "---\ntrigger: model_decision\ndescription: Deploys\n---\n"
            ),
            Trigger::Described("Deploys".into())
        );
        assert_eq!(
            gate(&Kind::WindsurfRule, "---\ntrigger: always_on\n---\n"),
            Trigger::Always
        );
    }

    #[test]
    fn skills_are_described_unless_the_model_may_not_invoke_them() {
        let k = Kind::ClaudeSkill {
            name: "deploy".into(),
        };
        assert_eq!(
            gate(&k, "---\nname: deploy\ndescription: Ship it\n---\n"),
            Trigger::Described("Ship it".into())
        );
        assert_eq!(
            gate(&k, "---\ndisable-model-invocation: true\n---\n"),
            Trigger::Manual
        );
    }
}
