//! Loading configuration files with their `extends` chains.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;

use super::error::ConfigError;
use super::file::read_config_file;
use super::interpret::{ArrayMode, OriginSource, interpret_layer};
use super::model::{ConfigWarning, PartialConfig};

/// Which layer of the configuration a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerKind {
    UserGlobal,
    Workspace,
    JpToml,
    UserWorkspace,
    Extends,
    Cfg,
}

impl LayerKind {
    pub fn label(self) -> &'static str {
        match self {
            LayerKind::UserGlobal => "user-global",
            LayerKind::Workspace => "workspace",
            LayerKind::JpToml => ".jp.toml",
            LayerKind::UserWorkspace => "user-workspace",
            LayerKind::Extends => "extends",
            LayerKind::Cfg => "--cfg",
        }
    }
}

/// One file that contributed to the effective configuration, in merge
/// order (lowest precedence first).
#[derive(Debug, Clone, PartialEq)]
pub struct LayerFile {
    pub path: PathBuf,
    pub kind: LayerKind,
    pub partial: PartialConfig,
}

/// Loads `path` and everything it `extends`, appending the layers in merge
/// order: `extends` entries before the file, then the file itself, then
/// entries with `strategy = "after"`.
pub fn load_with_extends(
    path: &Path,
    kind: LayerKind,
    out: &mut Vec<LayerFile>,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<(), ConfigError> {
    let mut stack = Vec::new();
    load_recursive(path, kind, &mut stack, out, warnings)
}

fn load_recursive(
    path: &Path,
    kind: LayerKind,
    stack: &mut Vec<PathBuf>,
    out: &mut Vec<LayerFile>,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<(), ConfigError> {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if let Some(pos) = stack.iter().position(|p| *p == canonical) {
        let mut chain = stack[pos..].to_vec();
        chain.push(canonical);
        return Err(ConfigError::ExtendsCycle { chain });
    }
    let raw = read_config_file(path)?;
    let partial = interpret_layer(&raw, &OriginSource::File(path), ArrayMode::Append, warnings)?;
    let base = path.parent().unwrap_or(Path::new("."));
    stack.push(canonical);
    for entry in partial.extends.iter().filter(|e| !e.after) {
        for target in expand_extends(base, &entry.path, &entry.origin)? {
            load_recursive(&target, LayerKind::Extends, stack, out, warnings)?;
        }
    }
    let after: Vec<_> = partial
        .extends
        .iter()
        .filter(|e| e.after)
        .cloned()
        .collect();
    out.push(LayerFile {
        path: path.to_path_buf(),
        kind,
        partial,
    });
    for entry in &after {
        for target in expand_extends(base, &entry.path, &entry.origin)? {
            load_recursive(&target, LayerKind::Extends, stack, out, warnings)?;
        }
    }
    stack.pop();
    Ok(())
}

const GLOB_CHARS: &[char] = &['*', '?', '[', '{'];

/// Expands one `extends` entry relative to the declaring file's directory.
/// A literal path must exist; a glob may match nothing. Matches are sorted.
fn expand_extends(
    base: &Path,
    entry: &str,
    origin: &super::origin::Origin,
) -> Result<Vec<PathBuf>, ConfigError> {
    if !entry.contains(GLOB_CHARS) {
        let path = base.join(entry);
        if !super::file::is_present(&path) {
            return Err(ConfigError::ExtendsMissing {
                origin: origin.clone(),
                path,
            });
        }
        return Ok(vec![path]);
    }
    let glob = GlobBuilder::new(entry)
        .literal_separator(true)
        .build()
        .map_err(|e| ConfigError::BadValue {
            origin: origin.clone(),
            key: "extends".to_owned(),
            value: entry.to_owned(),
            reason: e.to_string(),
        })?
        .compile_matcher();
    // Walk only below the literal prefix of the pattern.
    let literal: PathBuf = Path::new(entry)
        .components()
        .take_while(|c| !c.as_os_str().to_string_lossy().contains(GLOB_CHARS))
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
