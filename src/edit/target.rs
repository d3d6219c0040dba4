//! Which file an edit goes to (contract §7): `--file` when given; else the
//! file whose value is being changed (for `learned`/`disabled`, the file
//! that sets the topic's `subjects`); else the workspace `.jp/config.toml`.

use std::path::{Path, PathBuf};

use crate::config::{LoadedConfig, Origin, Topic, Valued};

/// A file to edit and why it was chosen (shown to the user).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub path: PathBuf,
    pub reason: String,
}

/// `<root>/.jp/config.toml`.
pub fn workspace_file(root: &Path) -> PathBuf {
    root.join(".jp").join("config.toml")
}

/// Whether `topic` is enabled in `file` by removing its `enable` line
/// (enabled is the default) rather than by writing `enable = true`: the
/// effective `enable = false` comes from `file`, and no other loaded file
/// also sets `enable = false` for the topic (that one would then apply).
pub fn enable_by_removal(loaded: &LoadedConfig, topic: &Topic, file: &Path) -> bool {
    let set_here = topic
        .enable
        .as_ref()
        .is_some_and(|v| !v.value && editable(&v.origin) == Some(file));
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

/// The TOML file an origin points at; JSON/YAML layers and command-line
/// values cannot be edited.
pub fn editable(origin: &Origin) -> Option<&Path> {
    origin
        .path()
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
}

fn workspace_target(root: &Path) -> Target {
    Target {
        path: workspace_file(root),
        reason: "the workspace config".to_owned(),
    }
}

/// The file that sets the topic's `subjects`, else the workspace file.
pub fn for_lists(topic: Option<&Topic>, root: &Path) -> Target {
    topic
        .and_then(|t| t.subjects.as_ref())
        .and_then(|s| editable(&s.origin))
        .map_or_else(
            || workspace_target(root),
            |path| Target {
                path: path.to_path_buf(),
                reason: "the file that sets the topic's `subjects`".to_owned(),
            },
        )
}

/// The file that sets `field`, else the file that sets `subjects`, else
/// the workspace file.
pub fn for_field(topic: Option<&Topic>, field: &str, root: &Path) -> Target {
    let value = topic.and_then(|t| match field {
        "title" => t.title.as_ref().map(|v| &v.origin),
        "introduction" => t.introduction.as_ref().map(|v| &v.origin),
        "description" => t.description.as_ref().map(|v| &v.origin),
        "subjects" => t.subjects.as_ref().map(|v| &v.origin),
        "enable" => t.enable.as_ref().map(|v| &v.origin),
        _ => None,
    });
    match value.and_then(editable) {
        Some(path) => Target {
            path: path.to_path_buf(),
            reason: format!("the file that sets `{field}`"),
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
        match editable(&item.origin) {
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
            PathBuf::from("/w/.jp/config.toml")
        );
        t.subjects = Some(Valued::new("kb".into(), origin("/w/.jp.toml")));
        assert_eq!(
            for_lists(Some(&t), Path::new("/w")).path,
            PathBuf::from("/w/.jp.toml")
        );
        t.subjects = Some(Valued::new("kb".into(), origin("/w/.jp/config.json")));
        assert_eq!(
            for_lists(Some(&t), Path::new("/w")).path,
            PathBuf::from("/w/.jp/config.toml")
        );
        t.title = Some(Valued::new("T".into(), origin("/g/config.toml")));
        assert_eq!(
            for_field(Some(&t), "title", Path::new("/w")).path,
            PathBuf::from("/g/config.toml")
        );
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
