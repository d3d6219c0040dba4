//! The one rule for what a plan may write: a file is written only when
//! its new content parses as what the file is.

use std::path::Path;

use crate::edit::error::EditError;

/// Whether `text` is valid as the file at `path`: JSON for `.json` (a
/// client's MCP file), nothing to parse in Markdown (a memory file), a
/// workspace id last in JP's `.id`, TOML for every other file a plan
/// writes (configuration layers).
pub(crate) fn parses(path: &Path, text: &str) -> Result<(), EditError> {
    if path.file_name().is_some_and(|n| n == ".id") {
        let lines = text.lines().count();
        return match text.lines().last() {
            Some(id) if crate::config::workspace::is_valid_workspace_id(id) => Ok(()),
            _ => Err(EditError::Parse {
                line: lines.max(1),
                column: 1,
                message: "the last line is not a workspace id".to_owned(),
            }),
        };
    }
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
