//! JP with the knowledge base inside (`integrations/jp`, built by
//! `tests/jp/setup_inside.sh`): the same scratch [`Machine`], with that JP
//! and without `jp-kb` on JP's `PATH` (it needs no MCP server, no generated
//! file, no `jp-kb`), and a workspace whose `kb` tables are in
//! `.jp/config.toml` as the RFD writes them. jp-kb's own commands, run in
//! the same checkout, say what JP must send.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

use super::{Machine, Run};
use crate::needs::{self, Need};

/// The RFD's example topics (its "Configuration Schema"), every field of
/// the first one set: a pre-loaded subject (`learned`), a disabled one, a
/// hidden one in each topic.
pub const KB_TABLES: &str = r#"
[kb.topic.project]
enable = true
title = "General Project Knowledge"
introduction = "Conventions and people of this project."
description = """
How this project is run.

Read the maintainers first."""
subjects = ".jp/kb/project"
learned = ["maintainers/*"]
disabled = ["drafts/old"]

[kb.topic.skills]
title = "Learnable Assistant Skills"
subjects = ".jp/kb/skills"
"#;

/// The subjects of [`KB_TABLES`], relative to `.jp/kb`.
pub const SUBJECTS: [(&str, &str); 7] = [
    (
        "project/code-quality.md",
        "# Code quality\n\nSmall functions.\n",
    ),
    (
        "project/maintainers/jean.md",
        "# Jean\n\nReviews the CLI.\n",
    ),
    (
        "project/.internal-notes.md",
        "Hidden: only by its exact slug.\n",
    ),
    ("project/drafts/old.md", "Disabled: never served.\n"),
    ("project/release.txt", "Tag, then publish.\n"),
    ("skills/ast-grep.md", "ast-grep basics.\n"),
    ("skills/ast-grep/.rules.md", "ast-grep rules, hidden.\n"),
];

/// The built JP with the knowledge base inside, brought up to date with
/// this checkout's core and series first (the setup script, once per test
/// process: seconds when nothing changed, a rebuild when the core did, so
/// a test never runs an older JP than the code it checks).
pub fn jp_inside_binary() -> PathBuf {
    static UP_TO_DATE: OnceLock<Result<(), String>> = OnceLock::new();
    // The script first, the need after: a rebuild removes the build's
    // stamp until it is done, and a test looking for the need meanwhile
    // found none (every other test of the process waits here instead).
    let setup = UP_TO_DATE.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jp/setup_inside.sh");
        let out = Command::new("bash")
            .arg(script)
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    });
    if let Err(err) = setup {
        panic!("tests/jp/setup_inside.sh failed:\n{err}");
    }
    needs::require(Need::JpInside)
}

impl Machine {
    /// A scratch machine whose `jp` has the knowledge base inside, and no
    /// `jp-kb` on its `PATH`.
    pub fn inside() -> Self {
        let machine = Self::with_jp(jp_inside_binary());
        std::fs::remove_file(machine.path().join("bin/jp-kb")).unwrap();
        machine
    }

    /// `jp ARGS… query --no-edit --new EXTRA… hello` in `cwd`, which must
    /// succeed.
    pub fn query_with(&self, cwd: &Path, before: &[&str], extra: &[&str]) -> Run {
        let mut args: Vec<&str> = before.to_vec();
        args.extend(["-F", "text", "query", "--no-edit", "--new"]);
        args.extend(extra);
        args.push("hello");
        let run = self.jp(cwd, &args);
        run.assert_ok();
        run
    }

    /// `jp-kb learn ARGS` in `cwd` as the assistant would read it: its
    /// stdout, or for an error its stderr, without the final newline.
    pub fn jp_kb_learn(&self, cwd: &Path, args: &[&str]) -> String {
        let mut all = vec!["learn"];
        all.extend(args);
        let out = self.jp_kb(cwd, &all);
        let text = if out.status.success() {
            out.stdout
        } else {
            out.stderr
        };
        let text = String::from_utf8(text).unwrap();
        text.strip_suffix('\n').unwrap_or(&text).to_owned()
    }

    /// `jp-kb ARGS` in `cwd` (must succeed), without the final newline.
    pub fn jp_kb_text(&self, cwd: &Path, args: &[&str]) -> String {
        let text = self.jp_kb_ok(cwd, args);
        text.strip_suffix('\n').unwrap_or(&text).to_owned()
    }
}

/// A JP workspace at `dir`: [`KB_TABLES`] in `.jp/config.toml` and
/// [`SUBJECTS`]. Nothing of jp-kb's: no `kb.toml`, no generated layer, no
/// MCP server.
pub fn kb_workspace(dir: &Path) {
    std::fs::create_dir_all(dir.join(".jp")).unwrap();
    std::fs::write(dir.join(".jp/config.toml"), KB_TABLES).unwrap();
    for (path, text) in SUBJECTS {
        write_subject(dir, path, text);
    }
}

/// Writes the subject at `path` (relative to `.jp/kb`) in the workspace
/// at `dir`.
pub fn write_subject(dir: &Path, path: &str, text: &str) {
    let file = dir.join(".jp/kb").join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

impl Run {
    /// The tool named `name` that the first request offered (its `OpenAI`
    /// `function` object), if any.
    pub fn offered_tool(&self, name: &str) -> Option<Value> {
        self.requests.first()?["tools"]
            .as_array()?
            .iter()
            .map(|t| &t["function"])
            .find(|f| f["name"] == name)
            .cloned()
    }
}
