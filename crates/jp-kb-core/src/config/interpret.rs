//! Reads the `kb` table (and `extends`, `config_load_paths`) of one layer.
//!
//! Keys outside `kb` belong to the rest of JP's configuration and are
//! ignored silently; unknown keys inside `kb` are warnings; values of the
//! wrong type are errors naming the file and line.

use std::path::Path;

use super::error::ConfigError;
use super::field::TopicField;
use super::model::{
    ArrayPatch, ConfigWarning, ExtendsEntry, PartialConfig, PartialTopic, Strategy,
    UNKNOWN_KEY_PREFIX,
};
use super::origin::{Origin, Valued};
use super::raw::{RawKind, RawNode};

/// How a layer's plain arrays combine with lower layers: config files
/// append, a `--cfg key:=JSON` value replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayMode {
    Append,
    Replace,
}

/// Builds origins for the values of one layer.
#[derive(Debug, Clone)]
pub enum OriginSource<'a> {
    File(&'a Path),
    Cfg(&'a str),
}

impl OriginSource<'_> {
    fn at(&self, node: &RawNode) -> Origin {
        match self {
            OriginSource::File(path) => Origin::File {
                path: path.to_path_buf(),
                line: node.line,
            },
            OriginSource::Cfg(arg) => Origin::Cfg((*arg).to_owned()),
        }
    }
}

/// Interprets the root of one layer.
pub fn interpret_layer(
    root: &RawNode,
    source: &OriginSource<'_>,
    mode: ArrayMode,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<PartialConfig, ConfigError> {
    let mut out = PartialConfig::default();
    let RawKind::Table(entries) = &root.kind else {
        return Err(wrong_type(source, root, "the document", "a table"));
    };
    for (key, node) in entries {
        match key.as_str() {
            "kb" => interpret_kb(node, source, mode, warnings, &mut out)?,
            "extends" => out.extends = interpret_extends(node, source)?,
            "config_load_paths" => {
                out.config_load_paths = string_array(node, source, "config_load_paths")?;
            }
            _ => {}
        }
    }
    Ok(out)
}

fn interpret_kb(
    node: &RawNode,
    source: &OriginSource<'_>,
    mode: ArrayMode,
    warnings: &mut Vec<ConfigWarning>,
    out: &mut PartialConfig,
) -> Result<(), ConfigError> {
    let RawKind::Table(entries) = &node.kind else {
        return Err(wrong_type(source, node, "kb", "a table"));
    };
    for (key, value) in entries {
        if key == "usage" {
            match &value.kind {
                RawKind::Bool(b) => out.usage = Some(Valued::new(*b, source.at(value))),
                _ => return Err(wrong_type(source, value, "kb.usage", "a boolean")),
            }
            continue;
        }
        if key == "search" {
            interpret_search(value, source, warnings, out)?;
            continue;
        }
        if key != "topic" {
            warnings.push(unknown_key(
                source,
                value,
                &format!("kb.{key}"),
                "search, topic, usage",
            ));
            continue;
        }
        let RawKind::Table(topics) = &value.kind else {
            return Err(wrong_type(source, value, "kb.topic", "a table"));
        };
        for (id, topic) in topics {
            let partial = interpret_topic(id, topic, source, mode, warnings)?;
            out.topics.insert(id.clone(), partial);
        }
    }
    Ok(())
}

fn interpret_topic(
    id: &str,
    node: &RawNode,
    source: &OriginSource<'_>,
    mode: ArrayMode,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<PartialTopic, ConfigError> {
    let RawKind::Table(fields) = &node.kind else {
        return Err(wrong_type(
            source,
            node,
            &format!("kb.topic.{id}"),
            "a table",
        ));
    };
    let mut topic = PartialTopic {
        origin: Some(source.at(node)),
        ..PartialTopic::default()
    };
    for (field, value) in fields {
        let key = format!("kb.topic.{id}.{field}");
        let Some(known) = TopicField::from_key(field) else {
            let valid = TopicField::keys(&TopicField::ALL);
            warnings.push(unknown_key(source, value, &key, &valid));
            continue;
        };
        match known {
            TopicField::Enable => match &value.kind {
                RawKind::Bool(b) => topic.enable = Some(Valued::new(*b, source.at(value))),
                _ => return Err(wrong_type(source, value, &key, known.expected())),
            },
            TopicField::Title => topic.title = Some(string_value(value, source, &key)?),
            TopicField::Introduction => {
                topic.introduction = Some(string_value(value, source, &key)?);
            }
            TopicField::Description => {
                topic.description = Some(string_value(value, source, &key)?);
            }
            TopicField::Subjects => topic.subjects = Some(string_value(value, source, &key)?),
            TopicField::Learned => {
                topic.learned = Some(array_patch(value, source, &key, mode, warnings)?);
            }
            TopicField::Disabled => {
                topic.disabled = Some(array_patch(value, source, &key, mode, warnings)?);
            }
        }
    }
    Ok(topic)
}

fn array_patch(
    node: &RawNode,
    source: &OriginSource<'_>,
    key: &str,
    mode: ArrayMode,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<ArrayPatch, ConfigError> {
    let default_strategy = match mode {
        ArrayMode::Append => Strategy::Append,
        ArrayMode::Replace => Strategy::Replace,
    };
    match &node.kind {
        RawKind::Array(_) => Ok(ArrayPatch {
            items: string_array(node, source, key)?,
            strategy: default_strategy,
            dedup: false,
        }),
        RawKind::Table(entries) => {
            let mut patch = ArrayPatch {
                items: Vec::new(),
                strategy: Strategy::Append,
                dedup: false,
            };
            let mut has_value = false;
            for (k, v) in entries {
                match k.as_str() {
                    "value" => {
                        patch.items = string_array(v, source, &format!("{key}.value"))?;
                        has_value = true;
                    }
                    "strategy" => {
                        let s = string_value(v, source, &format!("{key}.strategy"))?;
                        patch.strategy = match s.value.as_str() {
                            "append" => Strategy::Append,
                            "prepend" => Strategy::Prepend,
                            "replace" => Strategy::Replace,
                            other => {
                                return Err(ConfigError::BadValue {
                                    origin: s.origin,
                                    key: format!("{key}.strategy"),
                                    value: other.to_owned(),
                                    reason: "expected \"append\", \"prepend\" or \"replace\""
                                        .to_owned(),
                                });
                            }
                        };
                    }
                    "dedup" => match &v.kind {
                        RawKind::Bool(b) => patch.dedup = *b,
                        _ => {
                            return Err(wrong_type(
                                source,
                                v,
                                &format!("{key}.dedup"),
                                "a boolean",
                            ));
                        }
                    },
                    other => warnings.push(unknown_key(
                        source,
                        v,
                        &format!("{key}.{other}"),
                        "value, strategy, dedup",
                    )),
                }
            }
            if !has_value {
                return Err(ConfigError::BadValue {
                    origin: source.at(node),
                    key: key.to_owned(),
                    value: "{ … }".to_owned(),
                    reason: "the table form needs `value = [...]`".to_owned(),
                });
            }
            Ok(patch)
        }
        _ => Err(wrong_type(
            source,
            node,
            key,
            "an array of strings (or { value = [...], strategy = \"append\" })",
        )),
    }
}

fn string_value(
    node: &RawNode,
    source: &OriginSource<'_>,
    key: &str,
) -> Result<Valued<String>, ConfigError> {
    match &node.kind {
        RawKind::String(s) => Ok(Valued::new(s.clone(), source.at(node))),
        _ => Err(wrong_type(source, node, key, "a string")),
    }
}

fn string_array(
    node: &RawNode,
    source: &OriginSource<'_>,
    key: &str,
) -> Result<Vec<Valued<String>>, ConfigError> {
    let RawKind::Array(items) = &node.kind else {
        return Err(wrong_type(source, node, key, "an array of strings"));
    };
    items
        .iter()
        .map(|item| string_value(item, source, &format!("{key}[]")))
        .collect()
}

fn interpret_extends(
    node: &RawNode,
    source: &OriginSource<'_>,
) -> Result<Vec<ExtendsEntry>, ConfigError> {
    let items: Vec<&RawNode> = match &node.kind {
        RawKind::Array(items) => items.iter().collect(),
        RawKind::String(_) | RawKind::Table(_) => vec![node],
        _ => return Err(wrong_type(source, node, "extends", "an array")),
    };
    let mut out = Vec::new();
    for item in items {
        match &item.kind {
            RawKind::String(path) => out.push(ExtendsEntry {
                path: path.clone(),
                after: false,
                origin: source.at(item),
            }),
            RawKind::Table(_) => {
                let path = item.get("path").ok_or_else(|| ConfigError::BadValue {
                    origin: source.at(item),
                    key: "extends".to_owned(),
                    value: "{ … }".to_owned(),
                    reason: "an `extends` table needs `path`".to_owned(),
                })?;
                let path = string_value(path, source, "extends.path")?;
                let after = match item.get("strategy") {
                    None => false,
                    Some(s) => {
                        let s = string_value(s, source, "extends.strategy")?;
                        match s.value.as_str() {
                            "after" => true,
                            "before" => false,
                            other => {
                                return Err(ConfigError::BadValue {
                                    origin: s.origin,
                                    key: "extends.strategy".to_owned(),
                                    value: other.to_owned(),
                                    reason: "expected \"before\" or \"after\"".to_owned(),
                                });
                            }
                        }
                    }
                };
                out.push(ExtendsEntry {
                    path: path.value,
                    after,
                    origin: source.at(item),
                });
            }
            _ => {
                return Err(wrong_type(
                    source,
                    item,
                    "extends[]",
                    "a path or { path, strategy }",
                ));
            }
        }
    }
    Ok(out)
}

/// The `kb.search` table: `model`, the embedding model's directory.
fn interpret_search(
    node: &RawNode,
    source: &OriginSource<'_>,
    warnings: &mut Vec<ConfigWarning>,
    out: &mut PartialConfig,
) -> Result<(), ConfigError> {
    let RawKind::Table(entries) = &node.kind else {
        return Err(wrong_type(source, node, "kb.search", "a table"));
    };
    for (key, value) in entries {
        if key != "model" {
            warnings.push(unknown_key(
                source,
                value,
                &format!("kb.search.{key}"),
                "model",
            ));
            continue;
        }
        match &value.kind {
            RawKind::String(dir) if !dir.is_empty() => {
                out.search_model = Some(Valued::new(dir.clone(), source.at(value)));
            }
            _ => {
                return Err(wrong_type(
                    source,
                    value,
                    "kb.search.model",
                    "a directory path (a non-empty string)",
                ));
            }
        }
    }
    Ok(())
}

fn wrong_type(
    source: &OriginSource<'_>,
    node: &RawNode,
    key: &str,
    expected: &'static str,
) -> ConfigError {
    ConfigError::WrongType {
        origin: source.at(node),
        key: key.to_owned(),
        expected,
        found: node.type_name(),
    }
}

fn unknown_key(source: &OriginSource<'_>, node: &RawNode, key: &str, valid: &str) -> ConfigWarning {
    ConfigWarning {
        origin: Some(source.at(node)),
        message: format!("{UNKNOWN_KEY_PREFIX}{key}` (ignored; valid keys here: {valid})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::raw::from_toml;

    #[test]
    fn unknown_keys_are_warnings_that_name_the_key() {
        let text = "[kb]\nfoo = 1\n[kb.topic.x]\nsubjects = \"d\"\nlearnd = []\n";
        let doc = toml_edit::Document::parse(text.to_owned()).expect("valid");
        let mut warnings = Vec::new();
        let path = Path::new("/w/.jp/config.toml");
        interpret_layer(
            &from_toml(&doc),
            &OriginSource::File(path),
            ArrayMode::Append,
            &mut warnings,
        )
        .expect("interpreted");
        let keys: Vec<_> = warnings.iter().map(ConfigWarning::unknown_key).collect();
        assert_eq!(keys, [Some("kb.foo"), Some("kb.topic.x.learnd")]);
        assert_eq!(warnings[1].origin.as_ref().and_then(Origin::line), Some(5));
        let other = ConfigWarning {
            origin: None,
            message: "something else".into(),
        };
        assert_eq!(other.unknown_key(), None);
    }
}

#[cfg(test)]
mod usage_tests {
    use super::*;
    use crate::config::raw::from_toml;

    fn layer(text: &str) -> Result<PartialConfig, ConfigError> {
        let doc = toml_edit::Document::parse(text.to_owned()).expect("valid");
        interpret_layer(
            &from_toml(&doc),
            &OriginSource::File(Path::new("/w/.jp/kb.toml")),
            ArrayMode::Append,
            &mut Vec::new(),
        )
    }

    #[test]
    fn kb_search_model_is_a_path_relative_to_its_file() {
        let model = layer("[kb.search]\nmodel = \"models/mini\"\n")
            .unwrap()
            .search_model
            .unwrap();
        assert_eq!(model.value, "models/mini");
        assert_eq!(model.origin.line(), Some(2));
        assert!(layer("[kb.search]\nmodel = 3\n").is_err());
        assert!(layer("[kb.search]\nmodel = \"\"\n").is_err());
        let mut config = crate::config::model::KbConfig::default();
        crate::config::merge::merge_layer(
            &mut config,
            &layer("[kb.search]\nmodel = \"m\"\n").unwrap(),
        );
        let dir = config.search_model_dir().unwrap();
        assert!(dir.ends_with("m"), "{}", dir.display());
    }

    #[test]
    fn kb_usage_is_a_boolean_with_its_origin() {
        let usage = layer("[kb]\nusage = false\n").unwrap().usage.unwrap();
        assert!(!usage.value);
        assert_eq!(usage.origin.line(), Some(2));
        assert!(layer("[kb]\n").unwrap().usage.is_none());
        assert!(layer("[kb]\nusage = \"no\"\n").is_err());
    }

    #[test]
    fn the_highest_layer_wins() {
        let mut config = crate::config::KbConfig::default();
        assert!(config.usage_enabled());
        crate::config::merge::merge_layer(&mut config, &layer("kb.usage = false").unwrap());
        assert!(!config.usage_enabled());
        crate::config::merge::merge_layer(&mut config, &layer("kb.usage = true").unwrap());
        assert!(config.usage_enabled());
    }
}
