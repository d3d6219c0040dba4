//! Which file an edit goes to (contract §7): `--file` when given; else the
//! file whose value is being changed (for `learned`/`disabled`, the file
//! that sets the topic's `subjects`, or the `kb.toml` beside it when that
//! file is JSON or YAML); a new topic goes to the file that declares the
//! workspace's other topics; else `.jp/kb.toml`, a file JP never loads.
//! Nothing here creates a file that would shadow a layer: see [`creatable`].

use std::path::{Path, PathBuf};

use crate::config::origin::is_editable_toml;
use crate::config::workspace::{CONFIG_FILE_NAMES, jp_dir, shadowed_by_creating};
use crate::config::{LoadedConfig, Origin, Topic, TopicField, Valued};

/// A file to edit and why it was chosen (shown to the user).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenFile {
    pub path: PathBuf,
    pub reason: String,
}

/// `<root>/.jp/kb.toml`: where the `kb` tables go by default (contract
/// §2: JP refuses a `kb` table in any file it loads).
pub fn workspace_file(root: &Path) -> PathBuf {
    jp_dir(root).join("kb.toml")
}

/// Whether `topic` is enabled in `file` by removing its `enable` line
/// (enabled is the default) rather than by writing `enable = true`: the
/// effective `enable = false` comes from `file`, and no other loaded file
/// also sets `enable = false` for the topic (that one would then apply).
pub fn enable_by_removal(loaded: &LoadedConfig, topic: &Topic, file: &Path) -> bool {
    let set_here = topic
        .enable
        .as_ref()
        .is_some_and(|v| !v.value && v.origin.editable_file() == Some(file));
    set_here
        && !loaded.files.iter().any(|f| {
            f.path != file
                && f.partial
                    .topics
                    .get(&topic.id)
                    .and_then(|t| t.enable.as_ref())
                    .is_some_and(|v| !v.value)
        })
}

/// Where the workspace's topics go when no file declares any yet.
pub fn default_target(loaded: &LoadedConfig) -> ChosenFile {
    if loaded.jp.reads_kb() {
        ChosenFile {
            path: jp_dir(&loaded.root).join("config.toml"),
            reason: "the workspace's config.toml (the JP here reads `kb` there)".to_owned(),
        }
    } else {
        workspace_target(&loaded.root)
    }
}

fn workspace_target(root: &Path) -> ChosenFile {
    ChosenFile {
        path: workspace_file(root),
        reason: "the workspace's kb.toml".to_owned(),
    }
}

/// The file an edit of a value set at `origin` goes to: the file itself
/// when it is TOML; for a JSON/YAML `config.*` file, the `kb.toml` of the
/// same directory (read right after it, as part of the same layer).
fn editable_or_beside(origin: &Origin) -> Option<(PathBuf, &'static str)> {
    if let Some(path) = origin.editable_file() {
        return Some((path.to_path_buf(), ""));
    }
    let path = origin.path()?;
    let name = path.file_name()?.to_str()?;
    CONFIG_FILE_NAMES.contains(&name).then(|| {
        (
            path.with_file_name("kb.toml"),
            " (the kb.toml beside it: JSON and YAML are read-only)",
        )
    })
}

/// The file that sets the topic's `subjects` (or the `kb.toml` beside it),
/// else the workspace's `kb.toml`.
pub fn for_lists(topic: Option<&Topic>, root: &Path) -> ChosenFile {
    topic
        .and_then(|t| t.subjects.as_ref())
        .and_then(|s| editable_or_beside(&s.origin))
        .map_or_else(
            || workspace_target(root),
            |(path, beside)| ChosenFile {
                path,
                reason: format!("the file that sets the topic's `subjects`{beside}"),
            },
        )
}

/// Where a new topic goes: the first TOML file under the workspace root
/// that declares topics (the workspace keeps them there), else
/// `.jp/kb.toml` — or, used with a JP that has the knowledge base inside,
/// `.jp/config.toml`, the file of the workspace's that JP reads `kb` from.
pub fn for_new_topic(loaded: &LoadedConfig) -> ChosenFile {
    loaded
        .files
        .iter()
        .filter(|f| f.path.starts_with(&loaded.root) && !f.partial.topics.is_empty())
        .find(|f| is_editable_toml(&f.path))
        .map_or_else(
            || default_target(loaded),
            |f| ChosenFile {
                path: f.path.clone(),
                reason: "the file that declares the workspace's other topics".to_owned(),
            },
        )
}

/// A file jp-kb will not create: it would take the place of `hidden`, a
/// JSON/YAML file of the same layer (contract §7).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}: not created: it would take the place of {}, and every setting there would be \
     ignored; convert that file to TOML yourself, or name a TOML file to edit with \
     `--file PATH`{}",
    path.display(),
    hidden.display(),
    instead(path)
)]
#[non_exhaustive]
pub struct WouldHide {
    /// The file that would be created.
    pub path: PathBuf,
    /// The file it would hide.
    pub hidden: PathBuf,
}

/// For a `config.toml`, the `kb.toml` beside it, to edit instead.
fn instead(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "config.toml") {
        format!(
            " (e.g. `--file {}`)",
            path.with_file_name("kb.toml").display()
        )
    } else {
        String::new()
    }
}

/// Refuses to create `path` when it would hide a JSON/YAML file of the
/// same layer (a new `config.toml` beside `config.yaml` takes precedence
/// and every topic of the YAML file vanishes). The message names that
/// file and suggests `--file`.
///
/// # Errors
/// [`WouldHide`], naming both files.
pub fn creatable(path: &Path) -> Result<(), WouldHide> {
    match shadowed_by_creating(path) {
        None => Ok(()),
        Some(hidden) => Err(WouldHide {
            path: path.to_path_buf(),
            hidden,
        }),
    }
}

/// The file that sets `field`, else the file that sets `subjects`, else
/// the workspace file.
pub fn for_field(topic: Option<&Topic>, field: TopicField, root: &Path) -> ChosenFile {
    let value = topic.and_then(|t| t.scalar_origin(field));
    match value.and_then(editable_or_beside) {
        Some((path, beside)) => ChosenFile {
            path,
            reason: format!("the file that sets `{}`{beside}", field.key()),
        },
        None => for_lists(topic, root),
    }
}

/// Where the entries equal to `value` come from: the editable TOML files
/// (each once, in merge order) and the other origins (command-line values,
/// JSON/YAML layers) that cannot be edited.
pub fn origins_of(items: &[Valued<String>], value: &str) -> (Vec<PathBuf>, Vec<Origin>) {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut others = Vec::new();
    for item in items.iter().filter(|v| v.value == value) {
        match item.origin.editable_file() {
            Some(path) if !files.iter().any(|f| f == path) => files.push(path.to_path_buf()),
            Some(_) => {}
            None => others.push(item.origin.clone()),
        }
    }
    (files, others)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(path: &str) -> Origin {
        Origin::File {
            path: PathBuf::from(path),
            line: Some(1),
        }
    }

    #[test]
    fn lists_go_to_the_subjects_file() {
        let mut t = Topic::new("t".into(), origin("/w/.jp/config.toml"));
        assert_eq!(
            for_lists(Some(&t), Path::new("/w")).path,
            PathBuf::from("/w/.jp/kb.toml")
        );
        t.subjects = Some(Valued::new("kb".into(), origin("/w/.jp.toml")));
        assert_eq!(
            for_lists(Some(&t), Path::new("/w")).path,
            PathBuf::from("/w/.jp.toml")
        );
        t.subjects = Some(Valued::new("kb".into(), origin("/g/config.json")));
        assert_eq!(
            for_lists(Some(&t), Path::new("/w")).path,
            PathBuf::from("/g/kb.toml")
        );
        t.title = Some(Valued::new("T".into(), origin("/g/config.toml")));
        assert_eq!(
            for_field(Some(&t), TopicField::Title, Path::new("/w")).path,
            PathBuf::from("/g/config.toml")
        );
    }

    #[test]
    fn never_creates_a_file_that_shadows_a_layer() {
        let dir = tempfile::tempdir().unwrap();
        let jp = dir.path();
        assert!(creatable(&jp.join("config.toml")).is_ok());
        std::fs::write(jp.join("config.yaml"), "kb: {}\n").unwrap();
        let err = creatable(&jp.join("config.toml")).unwrap_err().to_string();
        assert!(
            err.contains("config.yaml") && err.contains("--file"),
            "{err}"
        );
        // kb.toml is another file of the layer: it hides nothing.
        assert!(creatable(&jp.join("kb.toml")).is_ok());
        std::fs::write(jp.join("kb.json"), "{}").unwrap();
        assert!(
            creatable(&jp.join("kb.toml"))
                .unwrap_err()
                .hidden
                .ends_with("kb.json")
        );
        // An existing file is edited, not created.
        std::fs::write(jp.join("kb.toml"), "").unwrap();
        assert!(creatable(&jp.join("kb.toml")).is_ok());
    }

    #[test]
    fn origins_split_files_and_arguments() {
        let items = vec![
            Valued::new("a".to_owned(), origin("/w/x.toml")),
            Valued::new("a".to_owned(), Origin::Cfg("kb.topic.t.learned+=a".into())),
            Valued::new("a".to_owned(), origin("/w/x.toml")),
            Valued::new("b".to_owned(), origin("/w/y.toml")),
        ];
        let (files, others) = origins_of(&items, "a");
        assert_eq!(files, [PathBuf::from("/w/x.toml")]);
        assert_eq!(others.len(), 1);
    }
}
