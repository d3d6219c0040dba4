//! What other assistants read in a repository, by path: which assistant,
//! which kind of file, and where `init` links it in `.jp/kb/` (its topic
//! and slug). Pure: a repository-relative path in, a kind out.
//!
//! The table follows each assistant's documentation: Claude Code
//! (`CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.md` in subdirectories loaded
//! when it reads files there, `.claude/rules/**/*.md`,
//! `.claude/skills/*/SKILL.md`), Codex and the `AGENTS.md` convention (the
//! root file, then the nearest one in a subdirectory), Cursor
//! (`.cursor/rules/**/*.mdc`, nested `.cursor/rules` directories, the
//! legacy `.cursorrules`), GitHub Copilot
//! (`.github/copilot-instructions.md`,
//! `.github/instructions/**/*.instructions.md`) and Windsurf
//! (`.windsurf/rules/**/*.md`, the legacy `.windsurfrules`).

/// The assistant a file was written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Assistant {
    ClaudeCode,
    Codex,
    Cursor,
    Copilot,
    Windsurf,
}

impl Assistant {
    pub fn name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Cursor => "Cursor",
            Self::Copilot => "Copilot",
            Self::Windsurf => "Windsurf",
        }
    }
}

/// The topics `init` makes (only those that get a file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TopicKind {
    /// Instruction files (`CLAUDE.md`, `AGENTS.md`, Copilot's and the
    /// legacy single files, what `CLAUDE.md` imports), at their paths.
    Project,
    /// Rules of every assistant, under `claude/`, `cursor/`, `copilot/`,
    /// `windsurf/`.
    Rules,
    /// Claude Code's skills, one subject per skill.
    Skills,
}

impl TopicKind {
    pub const ALL: [Self; 3] = [Self::Project, Self::Rules, Self::Skills];

    pub fn id(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::Rules => "rules",
            Self::Skills => "skills",
        }
    }
}

/// A kind of file another assistant reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `CLAUDE.md` or `.claude/CLAUDE.md`: Claude Code's project memory,
    /// loaded in every session.
    ClaudeMemory,
    /// `CLAUDE.local.md`: one person's memory, usually not committed.
    ClaudeLocal,
    /// `dir/CLAUDE.md`: loaded when Claude Code reads files under `dir`.
    NestedClaude { dir: String },
    /// The root `AGENTS.md`: Codex (and others) load it in every session.
    Agents,
    /// `dir/AGENTS.md`: applies to work under `dir` (the nearest wins).
    NestedAgents { dir: String },
    /// A file an always-loaded `CLAUDE.md` pulls in with `@path`.
    Import,
    /// `.claude/rules/**/*.md`.
    ClaudeRule,
    /// `.claude/skills/NAME/SKILL.md`.
    ClaudeSkill { name: String },
    /// A Cursor rule: `.cursor/rules/**/*.mdc`, or one in `dir/.cursor/rules/`.
    CursorRule { dir: Option<String> },
    /// `.cursorrules`.
    CursorLegacy,
    /// `.github/copilot-instructions.md`.
    CopilotInstructions,
    /// `.github/instructions/**/*.instructions.md`.
    CopilotFile,
    /// `.windsurf/rules/**/*.md`.
    WindsurfRule,
    /// `.windsurfrules`.
    WindsurfLegacy,
}

impl Kind {
    pub fn assistant(&self) -> Assistant {
        match self {
            Self::ClaudeMemory
            | Self::ClaudeLocal
            | Self::NestedClaude { .. }
            | Self::Import
            | Self::ClaudeRule
            | Self::ClaudeSkill { .. } => Assistant::ClaudeCode,
            Self::Agents | Self::NestedAgents { .. } => Assistant::Codex,
            Self::CursorRule { .. } | Self::CursorLegacy => Assistant::Cursor,
            Self::CopilotInstructions | Self::CopilotFile => Assistant::Copilot,
            Self::WindsurfRule | Self::WindsurfLegacy => Assistant::Windsurf,
        }
    }

    pub fn topic(&self) -> TopicKind {
        match self {
            Self::ClaudeRule | Self::CursorRule { .. } | Self::CopilotFile | Self::WindsurfRule => {
                TopicKind::Rules
            }
            Self::ClaudeSkill { .. } => TopicKind::Skills,
            _ => TopicKind::Project,
        }
    }

    /// Whether the file's front matter says when it applies.
    pub fn has_front_matter_gate(&self) -> bool {
        matches!(
            self,
            Self::ClaudeRule
                | Self::ClaudeSkill { .. }
                | Self::CursorRule { .. }
                | Self::CopilotFile
                | Self::WindsurfRule
        )
    }
}

/// The kind of file at `rel` (repository-relative, `/`-separated), or
/// `None` when no assistant reads it by its path.
pub fn classify(rel: &str) -> Option<Kind> {
    let parts: Vec<&str> = rel.split('/').collect();
    let name = *parts.last()?;
    let kind = match parts.as_slice() {
        ["CLAUDE.md"] | [".claude", "CLAUDE.md"] => Kind::ClaudeMemory,
        ["CLAUDE.local.md"] => Kind::ClaudeLocal,
        ["AGENTS.md"] => Kind::Agents,
        [".cursorrules"] => Kind::CursorLegacy,
        [".windsurfrules"] => Kind::WindsurfLegacy,
        [".github", "copilot-instructions.md"] => Kind::CopilotInstructions,
        [".claude", "skills", skill, "SKILL.md"] => Kind::ClaudeSkill {
            name: (*skill).to_owned(),
        },
        [".claude", "rules", .., _] if extension_is(name, "md") => Kind::ClaudeRule,
        [".github", "instructions", .., _] if name.ends_with(".instructions.md") => {
            Kind::CopilotFile
        }
        [".windsurf", "rules", .., _] if extension_is(name, "md") => Kind::WindsurfRule,
        _ => return classify_anywhere(&parts, name),
    };
    Some(kind)
}

/// Kinds that may sit in any directory: Cursor's nested rule directories
/// and the nested `AGENTS.md` / `CLAUDE.md`. Files inside other
/// assistants' own directories (`.claude/skills/x/AGENTS.md`) are theirs,
/// not instructions for a part of the repository.
fn classify_anywhere(parts: &[&str], name: &str) -> Option<Kind> {
    if let Some(at) = parts
        .windows(2)
        .position(|w| w == [".cursor", "rules"])
        .filter(|&at| at + 2 < parts.len())
    {
        if !(extension_is(name, "mdc") || extension_is(name, "md")) {
            return None;
        }
        let dir = (at > 0).then(|| parts[..at].join("/"));
        return Some(Kind::CursorRule { dir });
    }
    if parts.len() < 2 || parts.iter().any(|p| matches!(*p, ".claude" | ".jp")) {
        return None;
    }
    let dir = parts[..parts.len() - 1].join("/");
    match name {
        "AGENTS.md" => Some(Kind::NestedAgents { dir }),
        "CLAUDE.md" => Some(Kind::NestedClaude { dir }),
        _ => None,
    }
}

/// The path of the link in its topic directory for a file of `kind` at
/// `rel`: the repository path with the leading dot of each component
/// dropped (a dot would make the subject hidden), or the rule's path
/// under its assistant's folder, or the skill's name. Markdown rules
/// linked as `.md`, so the assistant gets them as Markdown, not fenced.
pub fn link_rel(kind: &Kind, rel: &str) -> String {
    let undotted = |path: &str| {
        path.split('/')
            .map(|c| match c.strip_prefix('.') {
                Some(rest) if !rest.is_empty() && rest != "." => rest,
                _ => c,
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let under = |prefix: &str, rest: &str, suffix: &str| {
        let stem = rest.strip_suffix(suffix).unwrap_or(rest);
        format!("{prefix}/{}.md", undotted(stem))
    };
    match kind {
        Kind::ClaudeRule => under("claude", after(rel, ".claude/rules/"), ".md"),
        Kind::CopilotFile => under(
            "copilot",
            after(rel, ".github/instructions/"),
            ".instructions.md",
        ),
        Kind::WindsurfRule => under("windsurf", after(rel, ".windsurf/rules/"), ".md"),
        Kind::CursorRule { dir } => {
            let marker = ".cursor/rules/";
            let rest = rel.find(marker).map_or(rel, |at| &rel[at + marker.len()..]);
            let suffix = if extension_is(rest, "mdc") {
                ".mdc"
            } else {
                ".md"
            };
            match dir {
                Some(dir) => under("cursor", &format!("{dir}/{rest}"), suffix),
                None => under("cursor", rest, suffix),
            }
        }
        Kind::ClaudeSkill { name } => format!("{}.md", undotted(name)),
        _ => undotted(rel),
    }
}

/// Whether `name` has the extension `ext`, compared as the assistants
/// compare it: case-sensitively (Claude Code loads `*.md`, not `*.MD`).
fn extension_is(name: &str, ext: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(stem, e)| !stem.is_empty() && e == ext)
}

fn after<'a>(rel: &'a str, prefix: &str) -> &'a str {
    rel.strip_prefix(prefix).unwrap_or(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_place_is_classified() {
        let cases = [
            ("CLAUDE.md", Some(Kind::ClaudeMemory)),
            (".claude/CLAUDE.md", Some(Kind::ClaudeMemory)),
            ("CLAUDE.local.md", Some(Kind::ClaudeLocal)),
            ("AGENTS.md", Some(Kind::Agents)),
            (
                "crates/api/AGENTS.md",
                Some(Kind::NestedAgents {
                    dir: "crates/api".into(),
                }),
            ),
            (
                "web/CLAUDE.md",
                Some(Kind::NestedClaude { dir: "web".into() }),
            ),
            (".claude/rules/a/b.md", Some(Kind::ClaudeRule)),
            (".claude/rules/notes.txt", None),
            (
                ".claude/skills/deploy/SKILL.md",
                Some(Kind::ClaudeSkill {
                    name: "deploy".into(),
                }),
            ),
            (".claude/skills/deploy/reference.md", None),
            (".claude/skills/deploy/AGENTS.md", None),
            (".cursor/rules/x.mdc", Some(Kind::CursorRule { dir: None })),
            (
                ".cursor/rules/sub/y.mdc",
                Some(Kind::CursorRule { dir: None }),
            ),
            (
                "web/.cursor/rules/z.mdc",
                Some(Kind::CursorRule {
                    dir: Some("web".into()),
                }),
            ),
            (".cursor/rules/readme.txt", None),
            (".cursorrules", Some(Kind::CursorLegacy)),
            (
                ".github/copilot-instructions.md",
                Some(Kind::CopilotInstructions),
            ),
            (
                ".github/instructions/py/x.instructions.md",
                Some(Kind::CopilotFile),
            ),
            (".github/instructions/x.md", None),
            (".windsurf/rules/a.md", Some(Kind::WindsurfRule)),
            (".windsurfrules", Some(Kind::WindsurfLegacy)),
            ("README.md", None),
            ("docs/guide.md", None),
            // A name that is only the extension has no stem: no rule
            // (its link would be a hidden, nameless `.md`).
            (".claude/rules/.md", None),
            (".windsurf/rules/.md", None),
            (".cursor/rules/sub/.mdc", None),
            // The assistants compare extensions case-sensitively.
            (".claude/rules/web.MD", None),
        ];
        for (rel, want) in cases {
            assert_eq!(classify(rel), want, "{rel}");
        }
    }

    #[test]
    fn links_keep_paths_visible_and_markdown() {
        let link = |rel: &str| link_rel(&classify(rel).unwrap_or(Kind::Import), rel);
        assert_eq!(link("CLAUDE.md"), "CLAUDE.md");
        assert_eq!(link(".claude/CLAUDE.md"), "claude/CLAUDE.md");
        assert_eq!(
            link(".github/copilot-instructions.md"),
            "github/copilot-instructions.md"
        );
        assert_eq!(link(".cursorrules"), "cursorrules");
        assert_eq!(link(".claude/rules/web/react.md"), "claude/web/react.md");
        assert_eq!(link(".cursor/rules/sub/api.mdc"), "cursor/sub/api.md");
        assert_eq!(link("web/.cursor/rules/ui.mdc"), "cursor/web/ui.md");
        assert_eq!(
            link(".github/instructions/python.instructions.md"),
            "copilot/python.md"
        );
        assert_eq!(link(".windsurf/rules/.draft.md"), "windsurf/draft.md");
        assert_eq!(link(".claude/skills/deploy/SKILL.md"), "deploy.md");
        assert_eq!(link("docs/.style/x.md"), "docs/style/x.md");
    }
}
