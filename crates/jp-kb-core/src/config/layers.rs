//! Loading configuration files with their `extends` chains.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use globset::GlobBuilder;

use super::error::ConfigError;
use super::file::read_config_file;
use super::interpret::{ArrayMode, OriginSource, interpret_layer};
use super::model::{ConfigWarning, LayerFile, LayerKind, PartialConfig};
use super::trust::{self, SafeDirectories};
pub use crate::subjects::pattern::GLOB_META;

/// Loads `path` and everything it `extends`, appending the layers in merge
/// order: `extends` entries before the file, then the file itself, then
/// entries with `strategy = "after"`. See [`ExtendsLoader::load`].
pub fn load_with_extends(
    path: &Path,
    kind: LayerKind,
    out: &mut Vec<LayerFile>,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<(), ConfigError> {
    ExtendsLoader::default().load(path, kind, out, warnings)
}

/// One configuration file, read, interpreted and its `extends` expanded.
#[derive(Debug)]
struct ParsedFile {
    partial: PartialConfig,
    before: Vec<PathBuf>,
    after: Vec<PathBuf>,
}

/// Loads configuration files with their `extends`, parsing each file once
/// per configuration load (files are remembered by canonical path): a
/// diamond of `extends` costs one read per file, not one per path through
/// it. The walk keeps its own stack, so a chain of 16,000 files needs no
/// deeper native stack than a chain of one.
#[derive(Debug, Default)]
pub struct ExtendsLoader {
    parsed: HashMap<PathBuf, Rc<ParsedFile>>,
    /// Where files are used whoever owns them ([`super::trust`]).
    safe: SafeDirectories,
}

/// A file whose `extends` are being loaded.
struct Frame {
    canonical: PathBuf,
    path: PathBuf,
    kind: LayerKind,
    file: Rc<ParsedFile>,
    /// How many of `before`, then the file itself, then `after` are done.
    next: usize,
}

impl ExtendsLoader {
    /// A loader that refuses files another user could have written
    /// ([`super::trust`]) outside `safe`.
    pub fn new(safe: SafeDirectories) -> Self {
        Self {
            parsed: HashMap::new(),
            safe,
        }
    }

    /// Loads `path` and everything it `extends`, appending the layers in
    /// merge order: `extends` entries before the file, then the file
    /// itself, then entries with `strategy = "after"`. A file reached
    /// twice from `path` (a diamond) is a layer once, at its first place;
    /// a file that `extends` itself, directly or not, is an
    /// [`ConfigError::ExtendsCycle`] naming the cycle.
    pub fn load(
        &mut self,
        path: &Path,
        kind: LayerKind,
        out: &mut Vec<LayerFile>,
        warnings: &mut Vec<ConfigWarning>,
    ) -> Result<(), ConfigError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut on_stack: HashSet<PathBuf> = HashSet::new();
        let mut done: HashSet<PathBuf> = HashSet::new();
        self.enter(path, kind, &mut stack, &mut on_stack, warnings)?;
        while let Some(top) = stack.last_mut() {
            let before = top.file.before.len();
            let step = top.next;
            top.next += 1;
            let child = match step.cmp(&before) {
                std::cmp::Ordering::Less => top.file.before.get(step).cloned(),
                std::cmp::Ordering::Equal => {
                    out.push(LayerFile {
                        path: top.path.clone(),
                        kind: top.kind,
                        partial: top.file.partial.clone(),
                    });
                    continue;
                }
                std::cmp::Ordering::Greater => top.file.after.get(step - before - 1).cloned(),
            };
            match child {
                Some(child) => {
                    let canonical = canonical(&child);
                    if !done.contains(&canonical) {
                        self.enter(
                            &child,
                            LayerKind::Extends,
                            &mut stack,
                            &mut on_stack,
                            warnings,
                        )?;
                    }
                }
                None => {
                    if let Some(frame) = stack.pop() {
                        on_stack.remove(&frame.canonical);
                        done.insert(frame.canonical);
                    }
                }
            }
        }
        Ok(())
    }

    /// Starts loading `path`: a cycle error when it is already being
    /// loaded, else its parsed file pushed on `stack`.
    fn enter(
        &mut self,
        path: &Path,
        kind: LayerKind,
        stack: &mut Vec<Frame>,
        on_stack: &mut HashSet<PathBuf>,
        warnings: &mut Vec<ConfigWarning>,
    ) -> Result<(), ConfigError> {
        let canonical = canonical(path);
        if on_stack.contains(&canonical) {
            let start = stack
                .iter()
                .position(|f| f.canonical == canonical)
                .unwrap_or(0);
            let mut chain: Vec<PathBuf> =
                stack[start..].iter().map(|f| f.canonical.clone()).collect();
            chain.push(canonical);
            return Err(ConfigError::ExtendsCycle { chain });
        }
        let file = if let Some(file) = self.parsed.get(&canonical) {
            Rc::clone(file)
        } else {
            trust::check(path, &self.safe)?;
            let file = Rc::new(parse_file(path, warnings)?);
            self.parsed.insert(canonical.clone(), Rc::clone(&file));
            file
        };
        on_stack.insert(canonical.clone());
        stack.push(Frame {
            canonical,
            path: path.to_path_buf(),
            kind,
            file,
            next: 0,
        });
        Ok(())
    }
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Reads and interprets one file and expands its `extends` entries
/// (relative to the file's directory as named).
fn parse_file(path: &Path, warnings: &mut Vec<ConfigWarning>) -> Result<ParsedFile, ConfigError> {
    let raw = read_config_file(path)?;
    let partial = interpret_layer(&raw, &OriginSource::File(path), ArrayMode::Append, warnings)?;
    let base = path.parent().unwrap_or(Path::new("."));
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for entry in &partial.extends {
        let targets = expand_extends(base, &entry.path, &entry.origin)?;
        if entry.after {
            after.extend(targets);
        } else {
            before.extend(targets);
        }
    }
    Ok(ParsedFile {
        partial,
        before,
        after,
    })
}

/// The one meaning of "an `extends` list reaches this file", for loading,
/// `connect` and `check --client` alike: does one of `entries` (relative
/// to the declaring file's directory) name `rel` (relative to that same
/// directory)? A literal entry names one path (`./` and `a/../` spelled
/// as the loader resolves them); a glob matches as the loader expands it.
pub fn extends_reaches(entries: &[String], rel: &str) -> bool {
    let wanted = normal(Path::new(rel));
    entries.iter().any(|entry| {
        if entry.contains(GLOB_META) {
            extends_glob(entry).is_ok_and(|glob| glob.is_match(rel))
        } else {
            normal(Path::new(entry)) == wanted
        }
    })
}

/// A relative path without `.` and with `..` applied.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn extends_glob(entry: &str) -> Result<globset::GlobMatcher, globset::Error> {
    GlobBuilder::new(entry)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
}

/// Expands one `extends` entry relative to the declaring file's directory.
/// A literal path must exist; a glob may match nothing. Matches are sorted.
fn expand_extends(
    base: &Path,
    entry: &str,
    origin: &super::origin::Origin,
) -> Result<Vec<PathBuf>, ConfigError> {
    if !entry.contains(GLOB_META) {
        let path = base.join(entry);
        if !super::file::is_present(&path) {
            return Err(ConfigError::ExtendsMissing {
                origin: origin.clone(),
                path,
            });
        }
        return Ok(vec![path]);
    }
    let glob = extends_glob(entry).map_err(|e| ConfigError::BadValue {
        origin: origin.clone(),
        key: "extends".to_owned(),
        value: entry.to_owned(),
        reason: e.to_string(),
    })?;
    // Walk only below the literal prefix of the pattern.
    let literal: PathBuf = Path::new(entry)
        .components()
        .take_while(|c| !c.as_os_str().to_string_lossy().contains(GLOB_META))
        .collect();
    let start = base.join(&literal);
    if !start.is_dir() {
        return Ok(Vec::new());
    }
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(&start)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| {
            e.path()
                .strip_prefix(base)
                .ok()
                .and_then(Path::to_str)
                .is_some_and(|rel| glob.is_match(rel))
        })
        .map(walkdir::DirEntry::into_path)
        .collect();
    found.sort();
    Ok(found)
}
