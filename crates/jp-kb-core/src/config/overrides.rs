//! `--cfg` values and `-k` flags (contract §2.2, §2.3).

use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::field::{FieldKind, TopicField};
use super::interpret::{ArrayMode, OriginSource, interpret_layer};
use super::model::{ArrayPatch, ConfigWarning, KbConfig, PartialConfig, PartialTopic, Strategy};
use super::origin::{Origin, Valued};
use super::override_error::OverrideError;
use super::raw::{RawKind, RawNode, from_json};

/// What one `--cfg` argument is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CfgArg {
    /// `path.to.key=value`: a string or boolean.
    Set { key: Vec<String>, value: String },
    /// `path.to.key+=value`: one more array item.
    Append { key: Vec<String>, value: String },
    /// `path.to.key:=JSON`: raw JSON, replacing arrays.
    Json { key: Vec<String>, json: String },
    /// A file path or a name searched in `config_load_paths`.
    Layer(String),
}

/// Classifies a `--cfg` argument. An assignment starts with a dotted key of
/// letters, digits, `_` and `-`, then `=`, `+=` or `:=`; anything else is a
/// file path or a config name.
pub fn classify_cfg(arg: &str) -> CfgArg {
    if let Some(eq) = arg.find('=') {
        let (head, op_len) = match arg[..eq].chars().last() {
            Some('+') => (&arg[..eq - 1], 2),
            Some(':') => (&arg[..eq - 1], 3),
            _ => (&arg[..eq], 1),
        };
        let valid_key = !head.is_empty()
            && head.split('.').all(|part| {
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            });
        if valid_key {
            let key = head.split('.').map(str::to_owned).collect();
            let value = arg[eq + 1..].to_owned();
            return match op_len {
                2 => CfgArg::Append { key, value },
                3 => CfgArg::Json { key, json: value },
                _ => CfgArg::Set { key, value },
            };
        }
    }
    CfgArg::Layer(arg.to_owned())
}

/// Turns a key assignment into a layer. Keys outside `kb` belong to the rest
/// of JP's configuration and give an empty layer.
pub fn assignment_layer(
    arg: &str,
    parsed: &CfgArg,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<PartialConfig, ConfigError> {
    let (key, mode, leaf) = match parsed {
        CfgArg::Set { key, value } => (key, ArrayMode::Replace, set_leaf(arg, key, value)?),
        CfgArg::Append { key, value } => {
            if !is_array_field(key) {
                return Err(ConfigError::Usage(OverrideError::AppendToScalar {
                    arg: arg.to_owned(),
                }));
            }
            let item = RawNode::new(RawKind::String(value.clone()), None);
            let patch = RawNode::new(
                RawKind::Table(vec![
                    (
                        "value".to_owned(),
                        RawNode::new(RawKind::Array(vec![item]), None),
                    ),
                    (
                        "strategy".to_owned(),
                        RawNode::new(RawKind::String("append".to_owned()), None),
                    ),
                ]),
                None,
            );
            (key, ArrayMode::Append, patch)
        }
        CfgArg::Json { key, json } => {
            let value: serde_json::Value = serde_json::from_str(json).map_err(|error| {
                ConfigError::Usage(OverrideError::NotJson {
                    arg: arg.to_owned(),
                    error,
                })
            })?;
            (key, ArrayMode::Replace, from_json(&value, None))
        }
        CfgArg::Layer(_) => return Ok(PartialConfig::default()),
    };
    if key.first().map(String::as_str) != Some("kb") {
        return Ok(PartialConfig::default());
    }
    let mut node = leaf;
    for part in key.iter().rev() {
        node = RawNode::new(RawKind::Table(vec![(part.clone(), node)]), None);
    }
    interpret_layer(&node, &OriginSource::Cfg(arg), mode, warnings)
}

/// The field a `kb.topic.<id>.<field>` key names, when it does.
fn topic_field(key: &[String]) -> Option<TopicField> {
    match key {
        [kb, topic, _, field] if kb == "kb" && topic == "topic" => TopicField::from_key(field),
        _ => None,
    }
}

fn is_array_field(key: &[String]) -> bool {
    topic_field(key).is_some_and(|f| f.kind() == FieldKind::List)
}

fn set_leaf(arg: &str, key: &[String], value: &str) -> Result<RawNode, ConfigError> {
    if key.first().map(String::as_str) != Some("kb") {
        return Ok(RawNode::new(RawKind::String(value.to_owned()), None));
    }
    if is_array_field(key) {
        return Err(ConfigError::Usage(OverrideError::SetArray {
            arg: arg.to_owned(),
            key: key.join("."),
        }));
    }
    // The boolean keys: a topic's `enable`, and `kb.usage`.
    let flag = match key {
        [_, usage] if usage == "usage" => Some("usage"),
        [_, _, _, field] if field == TopicField::Enable.key() => Some("enable"),
        _ => None,
    };
    if let Some(name) = flag {
        return match value {
            "true" => Ok(RawNode::new(RawKind::Bool(true), None)),
            "false" => Ok(RawNode::new(RawKind::Bool(false), None)),
            _ => Err(ConfigError::Usage(OverrideError::NotAFlag {
                arg: arg.to_owned(),
                key: name,
            })),
        };
    }
    if key.len() < 4 {
        return Err(ConfigError::Usage(OverrideError::SetTable {
            arg: arg.to_owned(),
            key: key.join("."),
        }));
    }
    Ok(RawNode::new(RawKind::String(value.to_owned()), None))
}

/// Finds the files a `--cfg NAME` refers to: `NAME` as a path (relative to
/// the current directory), else `NAME.{toml,json,yaml,yml}` (or `NAME` when
/// it already has an extension) in every `config_load_paths` directory under
/// every root, in root order (later roots win).
pub fn find_cfg_files(
    name: &str,
    cwd: &Path,
    roots: &[PathBuf],
    load_paths: &[String],
) -> Result<Vec<PathBuf>, ConfigError> {
    let direct = cwd.join(name);
    if direct.is_file() {
        return Ok(vec![direct]);
    }
    let mut found = Vec::new();
    let mut searched = Vec::new();
    for root in roots {
        for load_path in load_paths {
            let dir = root.join(load_path);
            let mut candidates: Vec<PathBuf> = ["toml", "json", "yaml", "yml"]
                .iter()
                .map(|ext| dir.join(format!("{name}.{ext}")))
                .collect();
            if Path::new(name).extension().is_some() {
                candidates.insert(0, dir.join(name));
            }
            for candidate in candidates {
                if candidate.is_file() {
                    if !found.contains(&candidate) {
                        found.push(candidate);
                    }
                } else {
                    searched.push(candidate);
                }
            }
        }
    }
    if found.is_empty() {
        return Err(ConfigError::Usage(OverrideError::NoSuchConfig {
            name: name.to_owned(),
            searched: (!load_paths.is_empty()).then_some(searched),
        }));
    }
    Ok(found)
}

/// Appends every `-k TOPIC/GLOB` to that topic's `learned`.
pub fn apply_knowledge(config: &mut KbConfig, args: &[String]) -> Result<(), ConfigError> {
    for arg in args {
        let topics = || config.topics.keys().cloned().collect::<Vec<_>>();
        let Some((topic, glob)) = arg
            .split_once('/')
            .filter(|(t, g)| !t.is_empty() && !g.is_empty())
        else {
            return Err(ConfigError::Usage(OverrideError::KnowledgeForm {
                arg: arg.clone(),
                topics: topics(),
            }));
        };
        if !config.topics.contains_key(topic) {
            return Err(ConfigError::Usage(OverrideError::KnowledgeTopic {
                arg: arg.clone(),
                topic: topic.to_owned(),
                topics: topics(),
            }));
        }
        let patch = ArrayPatch {
            items: vec![Valued::new(glob.to_owned(), Origin::Knowledge(arg.clone()))],
            strategy: Strategy::Append,
            dedup: false,
        };
        let partial = PartialTopic {
            learned: Some(patch),
            ..PartialTopic::default()
        };
        super::merge::merge_topic(config, topic, &partial);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Vec<String> {
        s.split('.').map(str::to_owned).collect()
    }

    #[test]
    fn classifies_every_form() {
        assert_eq!(
            classify_cfg("kb.topic.x.learned+=maintainers/*"),
            CfgArg::Append {
                key: key("kb.topic.x.learned"),
                value: "maintainers/*".into()
            }
        );
        assert_eq!(
            classify_cfg("kb.topic.x.learned:=[\"a=b\"]"),
            CfgArg::Json {
                key: key("kb.topic.x.learned"),
                json: "[\"a=b\"]".into()
            }
        );
        assert_eq!(
            classify_cfg("kb.topic.x.title=A = B"),
            CfgArg::Set {
                key: key("kb.topic.x.title"),
                value: "A = B".into()
            }
        );
        assert_eq!(
            classify_cfg("kb/maintainers"),
            CfgArg::Layer("kb/maintainers".into())
        );
        assert_eq!(
            classify_cfg("./dir/a=b.toml"),
            CfgArg::Layer("./dir/a=b.toml".into())
        );
    }
}

#[cfg(test)]
mod usage_tests {
    use super::*;

    fn layer(arg: &str) -> Result<PartialConfig, ConfigError> {
        assignment_layer(arg, &classify_cfg(arg), &mut Vec::new())
    }

    #[test]
    fn kb_usage_takes_a_boolean() {
        let usage = layer("kb.usage=false").unwrap().usage.unwrap();
        assert!(!usage.value);
        assert!(layer("kb.usage=true").unwrap().usage.unwrap().value);
        assert!(layer("kb.usage=no").is_err());
    }

    #[test]
    fn a_usage_error_carries_the_argument_and_its_words_are_the_display() {
        let Err(ConfigError::Usage(why)) = layer("kb.topic.x.learned=a") else {
            panic!("an array set by `=` is refused")
        };
        assert!(
            matches!(&why, OverrideError::SetArray { arg, key }
                if arg == "kb.topic.x.learned=a" && key == "kb.topic.x.learned"),
            "{why:?}"
        );
        assert_eq!(
            why.to_string(),
            "--cfg kb.topic.x.learned=a: `kb.topic.x.learned` is an array: use `+=` to append \
             one item or `:=` with a JSON array to replace it"
        );
        let Err(ConfigError::Usage(why)) = layer("kb.usage=no") else {
            panic!("a flag takes true or false")
        };
        assert!(matches!(why, OverrideError::NotAFlag { key: "usage", .. }));
        let Err(ConfigError::Usage(why)) = layer("kb.topic.x.title+=a") else {
            panic!("`+=` on a text is refused")
        };
        assert!(matches!(why, OverrideError::AppendToScalar { .. }));
    }
}
