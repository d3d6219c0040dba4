//! The one rule for what a plan may write: a file is written only when
//! its new content parses as what the file is.

use std::path::Path;

use crate::edit::error::EditError;

/// Whether `text` is valid as the file at `path`: JSON for `.json` (a
/// client's MCP file), nothing to parse in Markdown (a memory file), TOML
/// for every other file a plan writes (configuration layers).
pub(crate) fn parses(path: &Path, text: &str) -> Result<(), EditError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => serde_json::from_str::<serde_json::Value>(text)
            .map(drop)
            .map_err(|e| EditError::Parse {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            }),
        Some("md") => Ok(()),
        _ => crate::edit::locate::parse_document(text).map(drop),
    }
}
