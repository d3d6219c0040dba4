//! Why a `--cfg` value or a `-k` flag cannot be used: the data of each
//! case, worded by its `Display` (contract §2.2, §2.3).

use std::path::PathBuf;

/// Why a `--cfg` or `-k` value cannot be used (a usage error: the
/// binary exits with status 2).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OverrideError {
    /// `KEY+=VALUE` on a key that is not an array.
    #[error(
        "--cfg {arg}: `+=` appends to an array; only kb.topic.<id>.learned and kb.topic.<id>.disabled are arrays"
    )]
    AppendToScalar {
        /// The argument as given.
        arg: String,
    },
    /// `KEY:=JSON` whose value does not parse.
    #[error("--cfg {arg}: the value after `:=` is not valid JSON: {error}")]
    NotJson {
        /// The argument as given.
        arg: String,
        /// The JSON parser's error.
        error: serde_json::Error,
    },
    /// `KEY=VALUE` on an array.
    #[error(
        "--cfg {arg}: `{key}` is an array: use `+=` to append one item or `:=` with a JSON array to replace it"
    )]
    SetArray {
        /// The argument as given.
        arg: String,
        /// The array's dotted key.
        key: String,
    },
    /// `KEY=VALUE` on a flag with something else than `true` or `false`.
    #[error("--cfg {arg}: `{key}` takes `true` or `false`")]
    NotAFlag {
        /// The argument as given.
        arg: String,
        /// The flag's name (`enable`, `usage`).
        key: &'static str,
    },
    /// `KEY=VALUE` on a table.
    #[error(
        "--cfg {arg}: `{key}` is a table: set one field (kb.topic.<id>.<field>=value) or use `:=` with a JSON object"
    )]
    SetTable {
        /// The argument as given.
        arg: String,
        /// The table's dotted key.
        key: String,
    },
    /// `--cfg NAME` that is no assignment, no file, and no configuration
    /// found in `config_load_paths`.
    #[error(
        "--cfg {name}: not a `key=value` assignment, not an existing file, and no config named `{name}` was found ({})",
        searched_text(.searched.as_deref())
    )]
    NoSuchConfig {
        /// The argument as given.
        name: String,
        /// The files looked for; `None` when no `config_load_paths` are
        /// configured.
        searched: Option<Vec<PathBuf>>,
    },
    /// `-k` without the `TOPIC/GLOB` form.
    #[error(
        "-k {arg}: expected TOPIC/GLOB, e.g. `-k project/**` for a whole topic (topics: {})",
        whole_topics(.topics)
    )]
    KnowledgeForm {
        /// The argument as given.
        arg: String,
        /// Every configured topic's id.
        topics: Vec<String>,
    },
    /// `-k TOPIC/GLOB` for a topic that is not configured.
    #[error("-k {arg}: unknown topic `{topic}`; valid: {}", whole_topics(.topics))]
    KnowledgeTopic {
        /// The argument as given.
        arg: String,
        /// The topic it names.
        topic: String,
        /// Every configured topic's id.
        topics: Vec<String>,
    },
}

fn searched_text(searched: Option<&[PathBuf]>) -> String {
    match searched {
        None => "no `config_load_paths` are configured".to_owned(),
        Some(paths) => format!(
            "searched {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `a/**, b/**`: the `-k` that pre-loads each topic whole.
fn whole_topics(topics: &[String]) -> String {
    topics
        .iter()
        .map(|id| format!("{id}/**"))
        .collect::<Vec<_>>()
        .join(", ")
}
