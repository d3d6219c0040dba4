//! Why a splice could not be computed. Nothing is written when one occurs;
//! the caller adds the file's path (and, for topics, which topic).

/// An error of the TOML splice layer. Its messages are the ones jp-kb
/// shows, so they name the key and its line:column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TomlError {
    /// A value has a type the edit cannot work with; it is left alone.
    #[error(
        "`{key}` at line {line}, column {column} is {found}, expected {expected}; nothing changed"
    )]
    WrongType {
        key: String,
        line: usize,
        column: usize,
        found: &'static str,
        expected: &'static str,
    },
    /// The splice could not be computed correctly; the input is untouched.
    #[error("internal error, nothing changed: {0}")]
    Internal(String),
}
