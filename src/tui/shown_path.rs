//! Paths in the TUI's messages, shown relative to the workspace root when
//! they lie inside it (`.jp/kb.toml:3:7`, not the whole temporary path):
//! the paths an error carries are made relative before it is put into
//! words, field by field, so a message is never edited as text (replacing
//! the root's spelling in a message also hit quoted values that happened
//! to contain it). A path outside the root stays whole; an error of a kind
//! this version does not know keeps its paths whole too.

use std::path::{Path, PathBuf};

use jp_kb_core::edit::plan::TopicError;
use jp_kb_core::edit::{ApplyError, JournalError, SaveError, WriteError};
use jp_kb_core::internal::config::workspace::find_root;
use jp_kb_core::{ConfigError, Environment, LoadOptions};

/// `path` relative to `root` when inside it, else whole.
pub fn relative(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

fn shorten(root: &Path, path: &mut PathBuf) {
    *path = relative(root, path);
}

/// A load's error in the TUI's words (the CLI's hints included), its
/// files relative to `root`.
pub fn config_error(root: &Path, mut error: ConfigError) -> String {
    match &mut error {
        ConfigError::BadWorkspace { path }
        | ConfigError::Untrusted { path, .. }
        | ConfigError::Io { path, .. }
        | ConfigError::Parse { path, .. } => shorten(root, path),
        ConfigError::WrongType { origin, .. } | ConfigError::BadValue { origin, .. } => {
            *origin = origin.relative_to(root);
        }
        ConfigError::ExtendsMissing { origin, path } => {
            *origin = origin.relative_to(root);
            shorten(root, path);
        }
        ConfigError::ExtendsCycle { chain } => {
            for path in chain {
                shorten(root, path);
            }
        }
        _ => {}
    }
    crate::hints::config_error(&error)
}

/// A load's error in words, its paths relative to the workspace's root
/// (the one given, else the one found from the current directory).
pub fn load_error(env: &Environment, options: &LoadOptions, error: ConfigError) -> String {
    let root = options
        .workspace
        .as_ref()
        .map(|ws| ws.canonicalize().unwrap_or_else(|_| ws.clone()))
        .or_else(|| find_root(&env.cwd));
    match root {
        Some(root) => config_error(&root, error),
        None => crate::hints::config_error(&error),
    }
}

/// Why a topic's subjects directory cannot be used, its paths relative
/// to `root`.
pub fn topic_error(root: &Path, error: &TopicError) -> String {
    let mut error = error.clone();
    match &mut error {
        TopicError::EscapesViaSymlink { target: path, .. }
        | TopicError::NotFound(path)
        | TopicError::NotADirectory(path) => shorten(root, path),
        _ => {}
    }
    error.to_string()
}

/// Why an edit was not made, its files relative to `root`.
pub fn apply_error(root: &Path, mut error: ApplyError) -> String {
    match &mut error {
        ApplyError::NotCreatable(hide) => {
            shorten(root, &mut hide.path);
            shorten(root, &mut hide.hidden);
        }
        ApplyError::Edit { path, .. } => shorten(root, path),
        ApplyError::Save(save) => save_error(root, save),
        ApplyError::Read(write) => write_error(root, write),
        _ => {}
    }
    error.to_string()
}

/// Why an undo or redo was not made, its files relative to `root`.
pub fn journal_error(root: &Path, mut error: JournalError) -> String {
    match &mut error {
        JournalError::Changed { path, .. } | JournalError::HistoryDropped { path, .. } => {
            shorten(root, path);
        }
        JournalError::Write(write) => write_error(root, write),
        _ => {}
    }
    error.to_string()
}

fn save_error(root: &Path, error: &mut SaveError) {
    match error {
        SaveError::Read { path, .. }
        | SaveError::NotUtf8 { path }
        | SaveError::Edit { path, .. }
        | SaveError::Conflict { path } => shorten(root, path),
        SaveError::Write(write) => write_error(root, write),
        _ => {}
    }
}

fn write_error(root: &Path, error: &mut WriteError) {
    match error {
        WriteError::Conflict { path } | WriteError::Io { path, .. } => shorten(root, path),
        WriteError::Locked { path, dir, .. } => {
            shorten(root, path);
            shorten(root, dir);
        }
        WriteError::Outside { path, target } => {
            shorten(root, path);
            shorten(root, target);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root's spelling inside a value is not a path: only the error's
    /// own path is shortened (a text replace also cut the quoted value).
    #[test]
    fn only_the_errors_own_paths_are_shortened() {
        let root = Path::new("/w/ws");
        let error = ConfigError::Parse {
            path: root.join(".jp/kb.toml"),
            line: 3,
            column: 7,
            format: "TOML",
            message: "unexpected `/w/ws/x`".to_owned(),
        };
        assert_eq!(
            config_error(root, error),
            ".jp/kb.toml:3:7: invalid TOML: unexpected `/w/ws/x`"
        );
        let outside = TopicError::NotFound(PathBuf::from("/elsewhere/docs"));
        assert_eq!(
            topic_error(root, &outside),
            "subjects directory /elsewhere/docs does not exist"
        );
        let inside = TopicError::NotFound(root.join("docs"));
        assert_eq!(
            topic_error(root, &inside),
            "subjects directory docs does not exist"
        );
    }
}
