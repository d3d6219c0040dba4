//! Format-preserving TOML editing by splicing text: change one key or one
//! array item and keep every other byte of the file.
//!
//! It knows TOML, not topics: jp-kb's core (`jp-kb-core`'s `edit`) decides
//! *what* to change in a configuration file and calls this crate to
//! compute *where* and *how*, in the spelling the file already uses.
//!
//! Why not `toml_edit::DocumentMut`: re-rendering a `DocumentMut` turns
//! `\r\n` line breaks into `\n`, drops a byte order mark, and reorders
//! dotted keys (`a.x = 1` / `b = 2` / `a.y = 3` comes back grouped) —
//! measured on jp-kb's fixtures, each a whole-file diff for a one-word
//! change. So a document is parsed read-only (`toml_edit::Document`, for
//! spans and values), and every change is a [`patch::Patch`]: one byte
//! range replaced by new text, nothing else touched by construction.
//!
//! Layers, lowest first: [`text`] (line breaks, BOM), [`lines`] (the
//! line/column mapping), [`keys`] and [`strings`] (reading and writing
//! keys and strings), [`walk`] (every node of a parsed document, in
//! order), [`tree`] (where every key-value and header sits),
//! [`container`] (tables in any spelling: header, dotted, inline,
//! implicit), [`array`] (one array as editable text) and [`wrap`] (long
//! one-line arrays broken into lines).
#![doc = include_str!("../README.md")]

pub mod array;
pub mod container;
pub mod error;
pub mod keys;
pub mod lines;
pub mod patch;
pub mod strings;
pub mod text;
pub mod tree;
pub mod walk;
pub mod wrap;

pub use error::TomlError;
