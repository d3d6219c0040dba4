//! Finding, in a repository, the files other assistants read
//! ([`super::kinds`]), and the files `CLAUDE.md` imports: one walk that
//! honours `.gitignore` (a dependency's `AGENTS.md` under `node_modules/`
//! or `target/` is nobody's instruction here), then every file read
//! through the guarded open (no link out of the workspace, no FIFO, a size
//! limit). Imports are followed as Claude Code follows them (relative to
//! the importing file, five hops at most), never out of the workspace.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Component, Path, PathBuf};

use crate::content::{self, Content, MAX_SUBJECT_BYTES, Root, open::OpenError};

use super::gate::{Gate, Trigger, gate_of};
use super::kinds::{Kind, classify};

/// How many imports deep Claude Code follows `@path` (its documentation:
/// "a maximum depth of five hops").
pub const MAX_IMPORT_DEPTH: usize = 5;

/// A file another assistant reads, with its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundFile {
    /// Repository-relative, `/`-separated.
    pub rel: String,
    /// Which assistant's file it is, and of what kind.
    pub kind: Kind,
    /// When that assistant reads it (always, for some paths, on request).
    pub gate: Gate,
    /// The text as read (trailing line breaks removed, as for a subject).
    pub text: String,
    /// The file that imports it (`@path`), the first one found.
    pub imported_by: Option<String>,
}

/// Why a file another assistant reads is not adopted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAdoptedWhy {
    /// `CLAUDE.local.md`: one person's notes, usually not committed.
    Personal,
    /// A file jp-kb itself generates for this client (the section).
    Generated { client: String },
    /// Binary, not UTF-8, too large, a FIFO, unreadable, a link out.
    Unreadable(String),
    /// An import that leads out of the workspace (`@~/x`, `@../x`, a link).
    ImportOutside { by: String },
    /// An import that names no file.
    ImportMissing { by: String },
    /// An import deeper than Claude Code follows.
    ImportTooDeep { by: String },
}

/// A file not adopted, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAdopted {
    /// As found: a repository path, or an import as written (`~/x.md`).
    pub rel: String,
    pub why: NotAdoptedWhy,
}

/// Everything found in a repository.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// By path.
    pub files: Vec<FoundFile>,
    /// What was found and is not adopted, and why.
    pub not_adopted: Vec<NotAdopted>,
}

/// Finds what other assistants read under `root` (its canonical path).
pub fn find(root: &Path) -> Found {
    let reader = Root::new(root);
    let generated = generated_files();
    let mut found = Found::default();
    let mut files: BTreeMap<String, FoundFile> = BTreeMap::new();
    for rel in candidates(root) {
        let Some(kind) = classify(&rel) else { continue };
        if kind == Kind::ClaudeLocal {
            found.not_adopted.push(NotAdopted {
                rel,
                why: NotAdoptedWhy::Personal,
            });
            continue;
        }
        if let Some(client) = generated.get(rel.as_str()) {
            found.not_adopted.push(NotAdopted {
                rel,
                why: NotAdoptedWhy::Generated {
                    client: client.clone(),
                },
            });
            continue;
        }
        match read_text(&reader, &root.join(&rel)) {
            Ok(text) => {
                let gate = gate_of(&kind, &text);
                files.insert(
                    rel.clone(),
                    FoundFile {
                        rel,
                        kind,
                        gate,
                        text,
                        imported_by: None,
                    },
                );
            }
            Err(problem) => found.not_adopted.push(NotAdopted {
                rel,
                why: NotAdoptedWhy::Unreadable(problem.to_string()),
            }),
        }
    }
    follow_imports(root, &reader, &mut files, &mut found.not_adopted);
    found.files = files.into_values().collect();
    found
}

/// Repository-relative paths of the files the walk sees, `.gitignore`
/// honoured, `.git` and `.jp` left out, symbolic links not followed (a
/// linked file is still a candidate: its read decides), sorted.
fn candidates(root: &Path) -> Vec<String> {
    let walk = ignore::WalkBuilder::new(root)
        .hidden(false)
        .parents(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|e| {
            let name = e.file_name();
            !(name == ".git" || (e.depth() == 1 && name == ".jp"))
        })
        .build();
    let mut out: Vec<String> = walk
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| !t.is_dir()))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            let parts: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            Some(parts?.join("/"))
        })
        .collect();
    // A personal file is usually ignored by git: still said.
    if root.join("CLAUDE.local.md").exists() && !out.iter().any(|r| r == "CLAUDE.local.md") {
        out.push("CLAUDE.local.md".into());
    }
    out.sort();
    out
}

/// The files jp-kb generates for a client, by path, with the client.
fn generated_files() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for id in crate::clients::profile::client_ids() {
        if let Ok(profile) = crate::clients::profile::profile(id) {
            for file in profile.generated_files() {
                out.insert(file.to_owned(), profile.name.clone());
            }
        }
    }
    out
}

/// Why a file could not be read as text.
#[derive(Debug)]
enum ReadProblem {
    Missing,
    Outside,
    Other(String),
}

impl std::fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing => f.write_str("no such file"),
            Self::Outside => f.write_str("resolves outside the workspace"),
            Self::Other(why) => f.write_str(why),
        }
    }
}

fn read_text(root: &Root<'_>, path: &Path) -> Result<String, ReadProblem> {
    match root.open(path) {
        Err(OpenError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ReadProblem::Missing);
        }
        Err(OpenError::Outside) => return Err(ReadProblem::Outside),
        Err(e) => return Err(ReadProblem::Other(e.to_string())),
        Ok(_) => {}
    }
    let bytes = content::read_bytes(root, path, MAX_SUBJECT_BYTES)
        .map_err(|r| ReadProblem::Other(r.to_string()))?;
    match content::decode_content(bytes) {
        Content::Text(text) => Ok(text),
        Content::Skipped(reason) => Err(ReadProblem::Other(reason.to_string())),
    }
}

/// Follows `@path` imports from every `CLAUDE.md` (and from what they
/// import), breadth first. An imported file takes the trigger of the
/// file importing it (what imports it is shown when that is); one that
/// is adopted anyway keeps its own kind, pre-loaded when either says so.
fn follow_imports(
    root: &Path,
    reader: &Root<'_>,
    files: &mut BTreeMap<String, FoundFile>,
    not_adopted: &mut Vec<NotAdopted>,
) {
    let mut queue: VecDeque<(String, usize)> = files
        .values()
        .filter(|f| matches!(f.kind, Kind::ClaudeMemory | Kind::NestedClaude { .. }))
        .map(|f| (f.rel.clone(), 0))
        .collect();
    let mut seen: BTreeSet<String> = queue.iter().map(|(r, _)| r.clone()).collect();
    let mut said: BTreeSet<String> = BTreeSet::new();
    while let Some((by, depth)) = queue.pop_front() {
        let Some(importer) = files.get(&by) else {
            continue;
        };
        let trigger = importer.gate.trigger.clone();
        let words = crate::clients::imports::import_paths(&importer.text);
        for word in words {
            let mut say = |why: NotAdoptedWhy| {
                if said.insert(word.clone()) {
                    not_adopted.push(NotAdopted {
                        rel: word.clone(),
                        why,
                    });
                }
            };
            let Some(rel) = import_target(root, &by, &word) else {
                say(NotAdoptedWhy::ImportOutside { by: by.clone() });
                continue;
            };
            if depth + 1 > MAX_IMPORT_DEPTH {
                say(NotAdoptedWhy::ImportTooDeep { by: by.clone() });
                continue;
            }
            if let Some(file) = files.get_mut(&rel) {
                if trigger == Trigger::Always && file.gate.trigger != Trigger::Always {
                    file.gate.trigger = Trigger::Always;
                }
                file.imported_by.get_or_insert_with(|| by.clone());
            } else {
                match read_text(reader, &root.join(&rel)) {
                    Ok(text) => {
                        let kind = classify(&rel).unwrap_or(Kind::Import);
                        let mut gate = gate_of(&kind, &text);
                        if kind == Kind::Import || trigger == Trigger::Always {
                            gate.trigger = trigger.clone();
                        }
                        files.insert(
                            rel.clone(),
                            FoundFile {
                                rel: rel.clone(),
                                kind,
                                gate,
                                text,
                                imported_by: Some(by.clone()),
                            },
                        );
                    }
                    // Prose like "ask @jean" is no path: only words that
                    // look like one are said.
                    Err(ReadProblem::Missing) if !looks_like_path(&word) => continue,
                    Err(ReadProblem::Missing) => {
                        say(NotAdoptedWhy::ImportMissing { by: by.clone() });
                        continue;
                    }
                    Err(ReadProblem::Outside) => {
                        say(NotAdoptedWhy::ImportOutside { by: by.clone() });
                        continue;
                    }
                    Err(ReadProblem::Other(why)) => {
                        say(NotAdoptedWhy::Unreadable(why));
                        continue;
                    }
                }
            }
            if seen.insert(rel.clone()) {
                queue.push_back((rel, depth + 1));
            }
        }
    }
}

fn looks_like_path(word: &str) -> bool {
    word.contains('/') || word.contains('.')
}

/// The repository path an import names, or `None` when it leads out of
/// the workspace: `~/…`, an absolute path elsewhere, `../` past the root.
/// Links are judged when the file is read.
fn import_target(root: &Path, by: &str, word: &str) -> Option<String> {
    if word.starts_with('~') {
        return None;
    }
    let path = Path::new(word);
    let joined: PathBuf = if path.is_absolute() {
        path.strip_prefix(root).ok()?.to_path_buf()
    } else {
        Path::new(by).parent().unwrap_or(Path::new("")).join(path)
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in joined.components() {
        match c {
            Component::Normal(n) => parts.push(n.to_str()?),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_resolve_from_the_importing_file_and_never_leave_the_root() {
        let root = Path::new("/ws");
        assert_eq!(
            import_target(root, "CLAUDE.md", "docs/a.md").as_deref(),
            Some("docs/a.md")
        );
        assert_eq!(
            import_target(root, "web/CLAUDE.md", "../docs/a.md").as_deref(),
            Some("docs/a.md")
        );
        assert_eq!(import_target(root, "CLAUDE.md", "../other/x.md"), None);
        assert_eq!(import_target(root, "CLAUDE.md", "~/.claude/x.md"), None);
        assert_eq!(import_target(root, "CLAUDE.md", "/etc/passwd"), None);
        assert_eq!(
            import_target(root, "CLAUDE.md", "/ws/docs/b.md").as_deref(),
            Some("docs/b.md")
        );
    }
}
