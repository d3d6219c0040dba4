//! Reading one configuration file (TOML, JSON or YAML) into a [`RawNode`].

use std::path::Path;

use super::error::ConfigError;
use super::raw::{self, LineIndex, RawNode};

/// The formats a configuration layer may use, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
    Json,
    Yaml,
}

impl Format {
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => Format::Json,
            Some("yaml" | "yml") => Format::Yaml,
            _ => Format::Toml,
        }
    }
}

/// Reads and parses `path`. A missing file is an `Io` error; callers that
/// probe optional layers check existence first.
pub fn read_config_file(path: &Path) -> Result<RawNode, ConfigError> {
    let bytes = std::fs::read(path).map_err(|source| ConfigError::Io {
        path: path.to_owned(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(e.as_bytes());
        let (line, column) = LineIndex::new(&text).position(&text, offset);
        ConfigError::Parse {
            path: path.to_owned(),
            line,
            column,
            format: "UTF-8",
            message: "the file is not valid UTF-8".to_owned(),
        }
    })?;
    parse_config_text(path, &text)
}

/// Parses configuration text whose format follows `path`'s extension.
/// Error columns count characters whatever the parser counts
/// ([`LineIndex`] maps them), so they always point at a whole character.
pub fn parse_config_text(path: &Path, text: &str) -> Result<RawNode, ConfigError> {
    let index = LineIndex::new(text);
    match Format::of(path) {
        Format::Toml => match toml_edit::Document::parse(text.to_owned()) {
            Ok(doc) => Ok(raw::from_toml(&doc)),
            Err(e) => {
                let (line, column) = e.span().map_or((1, 1), |s| index.position(text, s.start));
                Err(ConfigError::Parse {
                    path: path.to_owned(),
                    line,
                    column,
                    format: "TOML",
                    message: e.message().trim().to_owned(),
                })
            }
        },
        Format::Json => {
            let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
                // serde_json counts bytes.
                let line = u32::try_from(e.line()).unwrap_or(u32::MAX);
                let byte_column = u32::try_from(e.column()).unwrap_or(u32::MAX);
                ConfigError::Parse {
                    path: path.to_owned(),
                    line,
                    column: index.char_column(text, line, byte_column),
                    format: "JSON",
                    message: e.to_string(),
                }
            })?;
            Ok(raw::from_json(&value, None))
        }
        Format::Yaml => {
            if text.trim().is_empty() {
                return Ok(raw::from_json(
                    &serde_json::Value::Object(serde_json::Map::new()),
                    None,
                ));
            }
            let value: serde_json::Value = serde_norway::from_str(text).map_err(|e| {
                // libyaml's index is a byte offset after any byte order
                // mark (its column counts characters): map the offset.
                let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
                let (line, column) = e
                    .location()
                    .map_or((1, 1), |l| index.position(text, l.index() + bom));
                ConfigError::Parse {
                    path: path.to_owned(),
                    line,
                    column,
                    format: "YAML",
                    message: e.to_string(),
                }
            })?;
            Ok(raw::from_json(&value, None))
        }
    }
}
