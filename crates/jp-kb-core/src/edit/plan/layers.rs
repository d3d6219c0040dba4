//! The files an edit may go to, for a person to choose from (the TUI's
//! layer picker, `f`): every TOML layer in merge order with its role and
//! whether it declares a topic, then the layers that do not exist yet and
//! may be created (the workspace's `kb.toml`, the user-workspace file —
//! the place for personal pre-loads the team's config should not get —
//! and the `.jp.toml` of the current directory). Paths are normalised
//! (`knowledge/voice.toml`, not `personas/../knowledge/voice.toml`).

use std::path::{Component, Path, PathBuf};

use crate::KnowledgeBase;
use crate::config::LayerKind;
use crate::config::LoadedConfig;
use crate::config::origin::is_editable_toml;
use crate::edit::target::default_target;

/// One file edits may go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    /// Normalised, absolute.
    pub path: PathBuf,
    /// As shown: relative to the workspace root when inside.
    pub shown: String,
    /// `team`, `extends`, `.jp.toml`, `user-workspace`, `user-global`,
    /// `--cfg`.
    pub role: &'static str,
    /// Whether the file exists (the picker offers to create the others).
    pub exists: bool,
    /// Whether the file declares the topic asked about.
    pub declares: bool,
    /// Whether JP loads the file: today's JP refuses to start when such a
    /// file holds a `kb` table (contract §2), so the picker says so.
    pub jp_loads: bool,
}

/// Whether JP itself loads `path` (contract §2): a loaded layer that is
/// neither a `kb.*` file nor what one extends, nor a `--cfg` file; a file
/// not loaded yet when it is a `.jp.toml` or the `config.*` of the
/// workspace's or the user-workspace's configuration directory.
pub fn jp_loads(loaded: &LoadedConfig, path: &Path) -> bool {
    let path = normalise(path);
    if let Some(file) = loaded.files.iter().find(|f| normalise(&f.path) == path) {
        return file.kind != LayerKind::Cfg
            && !loaded.kb_files.iter().any(|k| normalise(k) == path);
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = path.parent();
    name == ".jp.toml"
        || (crate::config::workspace::CONFIG_FILE_NAMES.contains(&name)
            && (dir == Some(normalise(&loaded.root.join(".jp")).as_path())
                || loaded
                    .user_workspace_dir
                    .as_deref()
                    .is_some_and(|d| dir == Some(normalise(d).as_path()))))
}

/// Whether `path` already declares `kb` topics.
pub fn holds_topics(loaded: &LoadedConfig, path: &Path) -> bool {
    let path = normalise(path);
    loaded
        .files
        .iter()
        .any(|f| normalise(&f.path) == path && !f.partial.topics.is_empty())
}

/// `path` without `.` and `..` components (lexically: a layer reached
/// through `extends = ["../x.toml"]` is the file, however it was named).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn role(kind: LayerKind) -> &'static str {
    match kind {
        LayerKind::Workspace => "team",
        other => other.label(),
    }
}

/// The layers of `kb` for edits of `topic` (`None`: a new topic).
pub fn layers(kb: &KnowledgeBase, topic: Option<&str>) -> Vec<Layer> {
    let shown = |p: &Path| kb.display_path(p).display().to_string();
    let mut out: Vec<Layer> = Vec::new();
    for file in &kb.loaded.files {
        let path = normalise(&file.path);
        if !is_editable_toml(&path) {
            continue;
        }
        let declares = topic.is_some_and(|t| file.partial.topics.contains_key(t));
        if let Some(seen) = out.iter_mut().find(|l| l.path == path) {
            seen.declares |= declares;
            continue;
        }
        out.push(Layer {
            shown: shown(&path),
            jp_loads: jp_loads(&kb.loaded, &path),
            path,
            role: role(file.kind),
            exists: true,
            declares,
        });
    }
    let loaded = &kb.loaded;
    let mut missing: Vec<(PathBuf, &'static str)> =
        vec![(default_target(loaded).path, role(LayerKind::Workspace))];
    if let Some(dir) = &loaded.user_workspace_dir {
        let has_layer = out.iter().any(|l| l.path.parent() == Some(dir.as_path()));
        if !has_layer {
            missing.push((dir.join("kb.toml"), role(LayerKind::UserWorkspace)));
        }
    }
    if let Some(here) = &loaded.jp_toml_here {
        missing.push((here.clone(), role(LayerKind::JpToml)));
    }
    for (path, role) in missing {
        let path = normalise(&path);
        // Only what the load gave: a file there would have been loaded.
        if out.iter().any(|l| l.path == path) {
            continue;
        }
        out.push(Layer {
            shown: shown(&path),
            jp_loads: jp_loads(&kb.loaded, &path),
            path,
            role,
            exists: false,
            declares: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalise;
    use std::path::Path;

    #[test]
    fn normalise_drops_dot_and_dot_dot() {
        assert_eq!(
            normalise(Path::new(
                "/w/.jp/config/personas/../knowledge/./voice.toml"
            )),
            Path::new("/w/.jp/config/knowledge/voice.toml")
        );
        assert_eq!(normalise(Path::new("../a")), Path::new("../a"));
    }
}
