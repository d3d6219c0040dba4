//! Reading one configuration file (TOML, JSON or YAML) into a [`RawNode`].
//!
//! Only regular files are configuration: a directory, a FIFO, a socket, a
//! device or a dangling symbolic link where a config file is looked for is
//! an error naming the file and what it is, never "no such layer" (a
//! misplaced `config.toml/` directory used to drop the whole layer without
//! a word). The type is checked before anything is opened, so a FIFO is
//! never opened and a device never touched.

use std::fs;
use std::io;
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

/// Whether anything at all is at `path`: a file, a directory, a FIFO, a
/// symbolic link (dangling or not), or something that cannot be examined.
/// Layer lookups use this, not `is_file`, so that [`read_config_file`]
/// reports what is wrong with a path that holds something other than a
/// regular file instead of the layer being skipped silently.
pub fn is_present(path: &Path) -> bool {
    match fs::symlink_metadata(path) {
        Ok(_) => true,
        Err(e) => !matches!(
            e.kind(),
            io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
        ),
    }
}

/// Files jp-kb reads on a person's behalf that are not subjects (layers,
/// client files, `.jp/.id`, its own cache) above this size are refused:
/// the largest real configuration seen is a few hundred KiB; a file the
/// size of a disk must not be read into memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The one guarded read of a file that is not a subject
/// ([`jp_kb_fs::read_regular`]): only a regular file (checked before it is
/// opened, and again on the open handle), opened without blocking (a FIFO
/// never hangs), at most [`MAX_FILE_BYTES`] (a link to `/dev/zero` is a
/// device, refused; a huge file is an error, not an exhausted memory). A
/// missing file is `NotFound`.
///
/// # Errors
/// `NotFound`; `InvalidInput` saying what the file is or that it is too
/// large; any other I/O error.
pub fn read_guarded(path: &Path) -> io::Result<Vec<u8>> {
    jp_kb_fs::read_regular(path, MAX_FILE_BYTES)
}

/// Reads and parses `path`. A missing file is an `Io` error; callers that
/// probe optional layers check [`is_present`] first. Anything but a regular
/// file (after following symbolic links) is an `Io` error saying what it
/// is.
pub fn read_config_file(path: &Path) -> Result<RawNode, ConfigError> {
    let bytes = read_guarded(path)
        .map_err(configuration_words)
        .map_err(|source| ConfigError::Io {
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

/// A refused configuration file, said in a configuration's words.
fn configuration_words(err: io::Error) -> io::Error {
    match jp_kb_fs::refusal(&err) {
        Some(jp_kb_fs::Refusal::NotRegular(kind)) => io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "is {kind}, not a configuration file; jp-kb reads only regular files here \
                 (remove it, or put the configuration in a file of that name)"
            ),
        ),
        _ => err,
    }
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
                // libyaml's index is a byte offset into the whole text, a
                // byte order mark included, and its column counts the
                // mark (measured: `x` in "\u{feff}kb: {topic: \"abc\" x}"
                // is index 21, column 20): map the offset instead.
                let (line, column) = e
                    .location()
                    .map_or((1, 1), |l| index.position(text, l.index()));
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
