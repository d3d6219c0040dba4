//! Turning an [`Origin`] (file and line) into a location with a column and
//! a span to underline, by re-reading the TOML file with
//! [`TomlSpans`]. Files are read, indexed and judged once, and only when a
//! finding points into them, so a check costs the same per finding
//! whether it has ten findings or 100k.
//!
//! Only files inside the workspace or the user's own JP directories
//! (user-global configuration, user data) are quoted: any other file (a
//! `.jp/config.toml` symlinked to `~/.ssh/id_rsa`, an `extends` of
//! `/etc/…`) is named with its line and column, its text never kept.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::config::Origin;
use crate::config::file::Format;
use crate::config::spans::{LineIndex, SpanEntry, TomlSpans};

/// Where a finding points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub file: Option<PathBuf>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub span: Option<Range<usize>>,
}

/// What to point at on the origin's line.
#[derive(Debug, Clone)]
pub enum PointAt<'a> {
    /// A key (`learnd` in `learnd = []`, `x` in `[kb.topic.x]`), named the
    /// way the engine names keys: dotted, with a trailing `[]` for "an item
    /// of this array".
    Key(&'a str),
    /// The value of a key (same naming).
    Value(&'a str),
    /// The string item `value` of the array at `keys` (dotted).
    Item { keys: &'a str, value: &'a str },
    /// A string under `keys` that, joined to the file's directory, names
    /// `path` (an `extends` entry). `canonical` compares canonical paths.
    PathItem {
        keys: &'a str,
        path: &'a Path,
        canonical: bool,
    },
}

/// One file findings point into, read once.
#[derive(Debug)]
struct SourceFile {
    /// `None` when the file cannot be read.
    text: Option<String>,
    lines: LineIndex,
    /// `None` for JSON/YAML and for TOML that does not parse.
    spans: Option<TomlSpans>,
    /// Whether its text may be shown (see the module documentation).
    quotable: bool,
    display: PathBuf,
}

/// Reads and caches the files findings point into.
#[derive(Debug, Default)]
pub struct Locator {
    root: Option<PathBuf>,
    /// Canonical directories whose files may be quoted.
    quotable_dirs: Vec<PathBuf>,
    files: HashMap<PathBuf, SourceFile>,
    /// Texts of the files a span points into, by display path.
    pub sources: BTreeMap<PathBuf, String>,
}

impl Locator {
    /// A locator for the workspace at `root`; files under `root` or under
    /// one of `user_dirs` (the user's JP configuration and data
    /// directories) may be quoted.
    pub fn new(root: Option<PathBuf>, user_dirs: &[PathBuf]) -> Self {
        let quotable_dirs = root
            .iter()
            .chain(user_dirs)
            .filter_map(|dir| dir.canonicalize().ok())
            .collect();
        Self {
            root,
            quotable_dirs,
            ..Self::default()
        }
    }

    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// `path` relative to the workspace root when inside it.
    pub fn display(&self, path: &Path) -> PathBuf {
        self.root
            .as_deref()
            .and_then(|root| path.strip_prefix(root).ok())
            .map_or_else(|| path.to_path_buf(), Path::to_path_buf)
    }

    /// A location naming a file only.
    pub fn file(&self, path: &Path) -> Location {
        Location {
            file: Some(self.display(path)),
            ..Location::default()
        }
    }

    /// A location at a 1-based line and character column (how
    /// [`ConfigError::Parse`](crate::config::ConfigError) reports
    /// positions), underlining one character.
    pub fn line_column(&mut self, path: &Path, line: u32, column: u32) -> Location {
        let offset = {
            let source = self.source(path);
            source
                .text
                .as_deref()
                .map(|text| (source.lines.offset(text, line, column), text))
                .map(|(offset, text)| {
                    let len = text
                        .get(offset..)
                        .and_then(|rest| rest.chars().next())
                        .map_or(0, char::len_utf8);
                    offset..offset + len
                })
        };
        match offset {
            Some(range) => self.with_span(path, range),
            None => Location {
                line: Some(line),
                column: Some(column),
                ..self.file(path)
            },
        }
    }

    /// The location of a configuration value: its file, and on its line
    /// the key or value `target` names. Falls back to the whole line, and
    /// to the file alone for JSON/YAML layers (no line) and command-line
    /// values (no file).
    pub fn origin(&mut self, origin: &Origin, target: &PointAt<'_>) -> Location {
        let Origin::File { path, line } = origin else {
            return Location::default();
        };
        let source = self.source(path);
        let found = source
            .spans
            .as_ref()
            .and_then(|spans| find_target(spans, path, *line, target));
        if let Some(range) = found {
            return self.with_span(path, range);
        }
        let Some(line) = *line else {
            return self.file(path);
        };
        let whole_line = source
            .text
            .as_deref()
            .and_then(|text| source.lines.line_span(text, line));
        match whole_line {
            Some(range) => self.with_span(path, range),
            None => Location {
                line: Some(line),
                ..self.file(path)
            },
        }
    }

    /// The location of `span` of the file at `path`, whose text the
    /// caller has read already (a subject, through the guarded open): the
    /// file is not read again.
    pub fn span_in_text(&mut self, path: &Path, text: &str, span: Range<usize>) -> Location {
        if !self.files.contains_key(path) {
            let quotable = path
                .canonicalize()
                .is_ok_and(|real| self.quotable_dirs.iter().any(|dir| real.starts_with(dir)));
            let file = SourceFile {
                lines: LineIndex::new(text),
                text: Some(text.to_owned()),
                spans: None,
                quotable,
                display: self.display(path),
            };
            self.files.insert(path.to_path_buf(), file);
        }
        self.with_span(path, span)
    }

    /// The location of `span` of `path` (already read by [`Self::source`]),
    /// keeping the file's text for quoting only when it may be quoted.
    fn with_span(&mut self, path: &Path, span: Range<usize>) -> Location {
        if !self.files.contains_key(path) {
            let file = self.read(path);
            self.files.insert(path.to_path_buf(), file);
        }
        let Some(source) = self.files.get(path) else {
            return self.file(path);
        };
        let text = source.text.as_deref().unwrap_or_default();
        let (line, column) = source.lines.position(text, span.start);
        let file = source.display.clone();
        if !source.quotable {
            return Location {
                file: Some(file),
                line: Some(line),
                column: Some(column),
                span: None,
            };
        }
        if !self.sources.contains_key(&file) {
            let text = text.to_owned();
            self.sources.insert(file.clone(), text);
        }
        Location {
            file: Some(file),
            line: Some(line),
            column: Some(column),
            span: Some(span),
        }
    }

    /// Whether a message may repeat a value set at `origin`: one from the
    /// command line or from a file that may be quoted. A value from a file
    /// outside the workspace (an `extends` of `/etc/…`) is as private as
    /// that file's text, which is never shown.
    pub fn may_repeat(&mut self, origin: Option<&Origin>) -> bool {
        match origin {
            Some(Origin::File { path, .. }) => self.source(path).quotable,
            _ => true,
        }
    }

    /// The file at `path`, read and indexed on first use.
    fn source(&mut self, path: &Path) -> &SourceFile {
        if !self.files.contains_key(path) {
            let file = self.read(path);
            self.files.insert(path.to_path_buf(), file);
        }
        &self.files[path]
    }

    fn read(&self, path: &Path) -> SourceFile {
        let text = crate::config::file::read_guarded(path)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        let is_toml = Format::of(path) == Format::Toml;
        let spans = text
            .as_deref()
            .filter(|_| is_toml)
            .and_then(TomlSpans::parse);
        // Decided by where the file really is, whatever path names it.
        let quotable = path
            .canonicalize()
            .is_ok_and(|real| self.quotable_dirs.iter().any(|dir| real.starts_with(dir)));
        SourceFile {
            lines: text.as_deref().map(LineIndex::new).unwrap_or_default(),
            text,
            spans,
            quotable,
            display: self.display(path),
        }
    }
}

fn find_target(
    spans: &TomlSpans,
    path: &Path,
    line: Option<u32>,
    target: &PointAt<'_>,
) -> Option<Range<usize>> {
    match target {
        PointAt::Key(dotted) | PointAt::Value(dotted) => {
            let (keys, item) = match dotted.strip_suffix("[]") {
                Some(keys) => (keys, true),
                None => (*dotted, false),
            };
            let candidates = spans.with_key_path(keys, item);
            // For "an item of the wrong type", prefer an item that is not a
            // string.
            let entry = pick(spans, &candidates, line, |e| !item || e.string.is_none())?;
            match target {
                PointAt::Key(_) => entry.key.clone().or_else(|| entry.value.clone()),
                _ => entry.value.clone().or_else(|| entry.key.clone()),
            }
        }
        PointAt::Item { keys, value } => {
            // `learned = [...]` or the table form `learned = { value = [...] }`.
            let table_form = format!("{keys}.value");
            let candidates = spans.items_with(&[keys, &table_form], value);
            pick(spans, &candidates, line, |_| true)?.value.clone()
        }
        PointAt::PathItem {
            keys,
            path: wanted,
            canonical,
        } => {
            let dir = path.parent().unwrap_or(Path::new("."));
            let same = |s: &str| {
                let p = dir.join(s);
                if *canonical {
                    p.canonicalize().is_ok_and(|c| c == *wanted)
                } else {
                    p == *wanted
                }
            };
            let candidates: Vec<&SpanEntry> = spans
                .entries()
                .iter()
                .filter(|e| e.keys().next() == Some(*keys) && e.string.as_deref().is_some_and(same))
                .collect();
            pick(spans, &candidates, line, |_| true)?.value.clone()
        }
    }
}

/// The first candidate on `line` that is `preferred`, else the first on
/// `line`, else the first at all.
fn pick<'a>(
    spans: &TomlSpans,
    candidates: &[&'a SpanEntry],
    line: Option<u32>,
    preferred: impl Fn(&SpanEntry) -> bool,
) -> Option<&'a SpanEntry> {
    let on_line = |e: &SpanEntry| line.is_none_or(|l| spans.entry_line(e) == Some(l));
    candidates
        .iter()
        .find(|e| on_line(e) && preferred(e))
        .or_else(|| candidates.iter().find(|e| on_line(e)))
        .or_else(|| candidates.first())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_keys_values_and_items() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        let path = root.join("config.toml");
        let text = "[kb.topic.x]\nlearned = [\"a\", 7]\nlearnd = true\n[kb.topic.\"a.b\"]\ndisabled = { value = [\"z\"] }\n";
        std::fs::write(&path, text).expect("write");
        let mut locator = Locator::new(Some(root.clone()), &[]);
        let at = |line| Origin::File {
            path: path.clone(),
            line: Some(line),
        };

        let key = locator.origin(&at(3), &PointAt::Key("kb.topic.x.learnd"));
        assert_eq!(key.file.as_deref(), Some(Path::new("config.toml")));
        assert_eq!((key.line, key.column), (Some(3), Some(1)));
        assert_eq!(key.span.map(|r| &text[r]), Some("learnd"));

        let item = locator.origin(
            &at(2),
            &PointAt::Item {
                keys: "kb.topic.x.learned",
                value: "a",
            },
        );
        assert_eq!((item.line, item.column), (Some(2), Some(12)));

        let wrong = locator.origin(&at(2), &PointAt::Value("kb.topic.x.learned[]"));
        assert_eq!(wrong.span.map(|r| &text[r]), Some("7"));

        let topic = locator.origin(&at(1), &PointAt::Key("kb.topic.x"));
        assert_eq!(topic.span.map(|r| &text[r]), Some("x"));

        let dotted_id = locator.origin(
            &at(5),
            &PointAt::Item {
                keys: "kb.topic.a.b.disabled",
                value: "z",
            },
        );
        assert_eq!(dotted_id.span.map(|r| &text[r]), Some("\"z\""));

        let fallback = locator.origin(&at(3), &PointAt::Key("kb.nothing"));
        assert_eq!(fallback.span.map(|r| &text[r]), Some("learnd = true"));
        assert!(locator.sources.contains_key(Path::new("config.toml")));

        let parse = locator.line_column(&path, 2, 17);
        assert_eq!(parse.span.clone().map(|r| &text[r]), Some("7"));
        // A column past the line, or inside nothing, never panics.
        let past = locator.line_column(&path, 2, 999);
        assert_eq!(past.span.map(|r| &text[r]), Some("\n"));
        assert_eq!((parse.line, parse.column), (Some(2), Some(17)));
        assert_eq!(parse.span.map(|r| &text[r]), Some("7"));
    }
}
