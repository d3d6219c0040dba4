//! `jp-kb init` adopting what other assistants read (issue 41), on a
//! fixture repository with every kind (`tests/adopt/repo`): what each
//! assistant's documentation says it loads always is pre-loaded, byte for
//! byte, and nothing else; every on-demand file is learnable by the slug
//! the plan printed; no other file is a subject; nothing outside `.jp/`
//! is created or changed; a second run changes no byte.

#![cfg(unix)]

use super::common;

use std::collections::BTreeSet;
use std::os::unix::fs::symlink;
use std::path::Path;

use common::Sandbox;
use serde_json::Value;

/// Always shown, per each assistant's documentation: the root memory
/// files, what `CLAUDE.md` imports (recursively), rules without a gate.
const ALWAYS: [&str; 9] = [
    "CLAUDE.md",
    "AGENTS.md",
    "docs/architecture.md",
    "docs/glossary.md",
    ".github/copilot-instructions.md",
    ".github/instructions/everywhere.instructions.md",
    ".claude/rules/testing.md",
    ".cursor/rules/style.mdc",
    ".windsurf/rules/always.md",
];

/// Shown on demand: nested instruction files, gated, described and
/// manual rules, skills.
const ON_DEMAND: [&str; 11] = [
    "crates/api/AGENTS.md",
    "web/CLAUDE.md",
    ".claude/rules/frontend/react.md",
    ".claude/skills/deploy/SKILL.md",
    ".claude/skills/review/SKILL.md",
    ".cursor/rules/api-design.mdc",
    ".cursor/rules/backend/sql.mdc",
    ".cursor/rules/legacy.mdc",
    "web/.cursor/rules/components.mdc",
    ".github/instructions/python.instructions.md",
    ".windsurf/rules/go.md",
];

fn fixture() -> Sandbox {
    let sb = Sandbox::with_fixture(&common::fixtures().join("adopt/repo"));
    // Ignored by the fixture's .gitignore: a dependency's, not ours.
    sb.write("ws/vendor/lib/AGENTS.md", "# vendored instructions\n");
    sb
}

/// Every entry outside `.jp/` with its type and bytes (links by target).
pub(super) fn tree(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".jp")
        .filter_map(Result::ok)
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let t = e.file_type();
            let what = if t.is_symlink() {
                format!("link {}", std::fs::read_link(e.path()).unwrap().display())
            } else if t.is_file() {
                format!("file {:?}", std::fs::read(e.path()).unwrap())
            } else {
                "dir".into()
            };
            (rel, what)
        })
        .collect();
    out.sort();
    out
}

/// Everything under `.jp/`, with modification times: a second run must
/// not even rewrite a file with the same bytes.
fn jp_tree(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir.join(".jp"))
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| {
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            let bytes = if meta.is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (
                e.path().display().to_string(),
                format!(
                    "{:?} {:?} {bytes:?}",
                    meta.modified().unwrap(),
                    meta.file_type()
                ),
            )
        })
        .collect();
    out.sort();
    out
}

fn stdout(sb: &Sandbox, args: &[&str]) -> String {
    let out = sb.cmd().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn plan(sb: &Sandbox, args: &[&str]) -> Value {
    let mut all = vec!["init", "--json"];
    all.extend(args);
    serde_json::from_str(&stdout(sb, &all)).unwrap()
}

/// (path, topic, slug, state) of each planned file.
fn files(plan: &Value) -> Vec<(String, String, String, String)> {
    plan["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_owned();
            (s("path"), s("topic"), s("slug"), s("state"))
        })
        .collect()
}

fn text(sb: &Sandbox, rel: &str) -> String {
    std::fs::read_to_string(sb.ws().join(rel))
        .unwrap()
        .trim_end_matches('\n')
        .to_owned()
}

#[test]
fn adopt_fixture_prompt_holds_exactly_the_always_on_texts() {
    let sb = fixture();
    let before = tree(&sb.ws());
    let planned = plan(&sb, &["--dry-run"]);
    assert!(!sb.ws().join(".jp").exists(), "--dry-run wrote");
    let planned_files = files(&planned);
    let paths: BTreeSet<&str> = planned_files.iter().map(|f| f.0.as_str()).collect();
    let expected: BTreeSet<&str> = ALWAYS.iter().chain(&ON_DEMAND).copied().collect();
    assert_eq!(paths, expected);

    let out = stdout(&sb, &["init"]);
    assert!(out.contains("created .jp/kb.toml"), "{out}");
    assert_eq!(
        tree(&sb.ws()),
        before,
        "init changed something outside .jp/"
    );

    let prompt = stdout(&sb, &["prompt"]);
    let slug_of = |path: &str| {
        planned_files
            .iter()
            .find(|f| f.0 == path)
            .map(|f| (f.1.clone(), f.2.clone(), f.3.clone()))
            .unwrap()
    };
    for path in ALWAYS {
        let (_, slug, state) = slug_of(path);
        assert_eq!(state, "learned", "{path}");
        let block = format!("<subject \"{slug}\">\n{}\n</subject>", text(&sb, path));
        assert!(prompt.contains(&block), "{path} is not pre-loaded whole");
    }
    assert_eq!(prompt.matches("<subject \"").count(), ALWAYS.len());
    for path in ON_DEMAND {
        let (topic, slug, state) = slug_of(path);
        assert_eq!(state, "learnable", "{path}");
        assert_eq!(
            stdout(&sb, &["learn", &topic, &slug]).trim_end_matches('\n'),
            text(&sb, path),
            "{path}"
        );
        assert!(
            !prompt.contains(&text(&sb, path)),
            "{path} is in the prompt"
        );
        // Listed by `learn`: discoverable, not only loadable.
        assert!(stdout(&sb, &["learn", &topic]).contains(&format!("- {slug}\n")));
    }
    // No other file is a subject of any topic.
    let mut subjects = BTreeSet::new();
    for topic in ["project", "rules", "skills"] {
        let listed: Value =
            serde_json::from_str(&stdout(&sb, &["list", topic, "--all", "--json"])).unwrap();
        for s in listed.as_array().unwrap() {
            subjects.insert((topic.to_owned(), s["slug"].as_str().unwrap().to_owned()));
        }
    }
    let planned_subjects: BTreeSet<_> = planned_files
        .iter()
        .map(|f| (f.1.clone(), f.2.clone()))
        .collect();
    assert_eq!(subjects, planned_subjects);
    // The plan's count is the prompt's.
    let stats = sb.cmd().args(["prompt", "--stats"]).output().unwrap();
    let tokens = planned["section_tokens"].as_u64().unwrap();
    assert!(
        String::from_utf8_lossy(&stats.stderr).contains(&format!(" {tokens} tokens")),
        "{}",
        String::from_utf8_lossy(&stats.stderr)
    );
    // The import outside the workspace is said, never followed.
    let not: Vec<&str> = planned["not_adopted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["path"].as_str().unwrap())
        .collect();
    assert_eq!(not, ["~/.claude/acme-prefs.md"]);
    assert_eq!(stdout(&sb, &["check"]).trim(), "check: no problems found");

    // Again: no byte, no time, nothing.
    let jp = jp_tree(&sb.ws());
    let again = stdout(&sb, &["init"]);
    assert!(
        again.contains("already adopted: nothing changed"),
        "{again}"
    );
    assert_eq!(jp_tree(&sb.ws()), jp);
    assert_eq!(tree(&sb.ws()), before);
}

#[test]
fn adopt_edits_in_place_show_at_once() {
    let sb = fixture();
    stdout(&sb, &["init"]);
    let claude = sb.ws().join("CLAUDE.md");
    let mut text = std::fs::read_to_string(&claude).unwrap();
    text.push_str("\nNew rule: write it down.\n");
    std::fs::write(&claude, text).unwrap();
    assert!(stdout(&sb, &["prompt"]).contains("New rule: write it down."));
    let skill = sb.ws().join(".claude/skills/deploy/SKILL.md");
    std::fs::write(&skill, "Deploy differently.\n").unwrap();
    assert_eq!(
        stdout(&sb, &["learn", "skills", "deploy"]),
        "Deploy differently.\n"
    );
}

#[test]
fn adopt_choices_gated_and_per_file() {
    let sb = fixture();
    let p = plan(
        &sb,
        &[
            "--dry-run",
            "--gated",
            "learned",
            "--skip",
            "docs/glossary.md",
            "--learnable",
            "AGENTS.md",
        ],
    );
    let state = |path: &str| {
        files(&p)
            .into_iter()
            .find(|f| f.0 == path)
            .map(|f| f.3)
            .unwrap()
    };
    assert_eq!(state("crates/api/AGENTS.md"), "learned");
    assert_eq!(state(".claude/rules/frontend/react.md"), "learned");
    // Described and manual files are not gated by paths: still learnable.
    assert_eq!(state(".claude/skills/deploy/SKILL.md"), "learnable");
    assert_eq!(state("docs/glossary.md"), "skipped");
    assert_eq!(state("AGENTS.md"), "learnable");
    stdout(
        &sb,
        &[
            "init",
            "--gated",
            "learned",
            "--skip",
            "docs/glossary.md",
            "--learnable",
            "AGENTS.md",
        ],
    );
    let prompt = stdout(&sb, &["prompt"]);
    assert!(prompt.contains("<subject \"crates/api/AGENTS\">"));
    assert!(!prompt.contains("<subject \"AGENTS\">"));
    assert!(!prompt.contains("stock keeping unit"));
    // The same plan again changes nothing; another plan is refused.
    let jp = jp_tree(&sb.ws());
    let out = sb.cmd().arg("init").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("never overwrites"));
    assert_eq!(jp_tree(&sb.ws()), jp);
    // A choice naming a file the plan does not have is a usage error.
    let out = sb
        .cmd()
        .args(["init", "--dry-run", "--skip", "README.md"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("README.md is not among the files"));
}

#[test]
fn adopt_plan_escapes_hostile_names() {
    let sb = Sandbox::new();
    sb.write("ws/CLAUDE.md", "See @docs/\x1b]52;c;aGk=\x07x.md\n");
    sb.write("ws/.claude/rules/\x1b[2Jred.md", "Red.\n");
    sb.write("ws/docs/\x1b]52;c;aGk=\x07x.md", "Imported.\n");
    let out = stdout(&sb, &["init", "--dry-run"]);
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    assert!(out.contains("claude/^[[2Jred"), "{out}");
    assert!(out.contains("docs/^[]52;c;aGk=^Gx"), "{out}");
    let json = stdout(&sb, &["init", "--dry-run", "--json"]);
    assert!(!json.contains('\x1b'), "{json:?}");
    // The kb.toml comments hold the names escaped: one line each.
    stdout(&sb, &["init"]);
    let kb = std::fs::read_to_string(sb.ws().join(".jp/kb.toml")).unwrap();
    assert!(!kb.contains('\x1b'), "{kb:?}");
    assert!(stdout(&sb, &["prompt"]).contains("Red."));
}

#[test]
fn adopt_never_reads_or_writes_through_links_out() {
    let sb = Sandbox::new();
    let home = sb.path().join("home");
    sb.write("home/secret.md", "SECRET\n");
    sb.write("home/.claude/rules/mine.md", "MINE\n");
    sb.write("ws/AGENTS.md", "# Agents\n");
    sb.write("ws/CLAUDE.md", "@../home/secret.md and @docs/linked.md\n");
    std::fs::create_dir_all(sb.ws().join("docs")).unwrap();
    symlink(home.join("secret.md"), sb.ws().join("docs/linked.md")).unwrap();
    symlink(home.join(".claude"), sb.ws().join(".claude")).unwrap();
    symlink("../home/secret.md", sb.ws().join(".cursorrules")).unwrap();
    let out = stdout(&sb, &["init", "--dry-run"]);
    assert!(!out.contains("SECRET") && !out.contains("MINE"), "{out}");
    assert!(
        out.contains("../home/secret.md  imported by CLAUDE.md: outside"),
        "{out}"
    );
    assert!(
        out.contains("docs/linked.md  imported by CLAUDE.md: outside"),
        "{out}"
    );
    assert!(
        out.contains(".cursorrules  not read: resolves outside"),
        "{out}"
    );
    stdout(&sb, &["init"]);
    let prompt = stdout(&sb, &["prompt"]);
    assert!(!prompt.contains("SECRET") && !prompt.contains("MINE"));
    assert!(prompt.contains("# Agents"));
}

#[test]
fn adopt_refuses_what_is_in_the_way_and_writes_nothing() {
    let sb = fixture();
    sb.write("ws/.jp/kb/project/CLAUDE.md", "mine\n");
    let out = sb.cmd().arg("init").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a file, not the link jp-kb init makes"),
        "{err}"
    );
    assert!(!sb.ws().join(".jp/kb.toml").exists());
    assert!(!sb.ws().join(".jp/kb/rules").exists());
    // `--example` keeps the old scaffold where there is something to adopt.
    let sb = fixture();
    stdout(&sb, &["init", "--example"]);
    assert!(sb.ws().join(".jp/kb/project/conventions.md").is_file());
}
