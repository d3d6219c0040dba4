//! Real JP (dcdpr/jp 4c1c39f1, built by `tests/jp/setup.sh`) run against
//! jp-kb in a scratch directory: its own `HOME`, XDG directories and
//! `TMPDIR` (JP writes temporary files on every run), `jp-kb` on JP's
//! `PATH`, and a fake model API ([`fake_model`]) that records every
//! request JP sends. What the model received is compared byte for byte
//! with `jp-kb prompt` / `jp-kb learn` run in the checkout that should
//! have been served.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

pub mod fake_model;
pub mod inside;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tempfile::TempDir;

use super::needs::{self, Need};
pub use fake_model::FakeModel;

/// The `jp` binary the tests run (panics with the need's reason, or
/// fails under CI, when it is not built).
pub fn jp_binary() -> PathBuf {
    needs::require(Need::Jp)
}

/// A scratch machine: one person's home, JP configured for the fake
/// model, and nothing of the developer's own configuration.
pub struct Machine {
    pub dir: TempDir,
    pub model: FakeModel,
    jp: PathBuf,
    session: String,
}

impl Machine {
    pub fn new() -> Self {
        Self::with_jp(jp_binary())
    }

    /// A scratch machine whose `jp` is the binary at `jp`.
    pub fn with_jp(jp: PathBuf) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let model = FakeModel::start();
        let machine = Self {
            dir,
            model,
            jp,
            session: "jp-kb-test".to_owned(),
        };
        for sub in ["home", "tmp", "bin", "config/jp", "data", "cache"] {
            std::fs::create_dir_all(machine.path().join(sub)).unwrap();
        }
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_jp-kb"),
            machine.path().join("bin/jp-kb"),
        )
        .unwrap();
        // What a JP user has in their own configuration: a model, and the
        // `run` default JP requires of every tool (`ask` approves by
        // itself when stdout is not a terminal).
        std::fs::write(
            machine.path().join("config/jp/config.toml"),
            format!(
                "[assistant.model.id]\nprovider = \"llamacpp\"\nname = \"fake\"\n\n\
                 [providers.llm.llamacpp]\nbase_url = \"http://127.0.0.1:{}\"\n\n\
                 [conversation.title.generate]\nauto = false\n\n\
                 [conversation.tools.'*']\nrun = \"ask\"\n",
                machine.model.port
            ),
        )
        .unwrap();
        machine
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// JP's user data directory (`$XDG_DATA_HOME/jp`).
    pub fn jp_data(&self) -> PathBuf {
        self.path().join("data/jp")
    }

    /// The environment every command runs with: JP and jp-kb see the same
    /// directories, as they do on a person's machine.
    pub fn vars(&self) -> Vec<(&'static str, std::ffi::OsString)> {
        let path = std::env::join_paths(
            std::iter::once(self.path().join("bin"))
                .chain(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from)),
        )
        .unwrap();
        let dir = |sub: &str| self.path().join(sub).into_os_string();
        vec![
            ("PATH", path),
            ("HOME", dir("home")),
            ("XDG_CONFIG_HOME", dir("config")),
            ("XDG_DATA_HOME", dir("data")),
            ("XDG_CACHE_HOME", dir("cache")),
            ("XDG_RUNTIME_DIR", dir("tmp")),
            ("TMPDIR", dir("tmp")),
            ("JP_SESSION", self.session.clone().into()),
            ("JP_KB_MODEL_SERVER", "off".into()),
            ("NO_COLOR", "1".into()),
            ("GIT_CONFIG_NOSYSTEM", "1".into()),
            ("GIT_AUTHOR_NAME", "t".into()),
            ("GIT_AUTHOR_EMAIL", "t@example.com".into()),
            ("GIT_COMMITTER_NAME", "t".into()),
            ("GIT_COMMITTER_EMAIL", "t@example.com".into()),
        ]
    }

    fn env(&self, cmd: &mut Command) {
        cmd.env_clear().envs(self.vars());
    }

    /// `jp-kb ARGS` in `cwd`, as the person runs it.
    pub fn jp_kb(&self, cwd: &Path, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_jp-kb"));
        self.env(&mut cmd);
        cmd.current_dir(cwd).args(args).output().unwrap()
    }

    /// `jp-kb ARGS` that must succeed; its stdout.
    pub fn jp_kb_ok(&self, cwd: &Path, args: &[&str]) -> String {
        let out = self.jp_kb(cwd, args);
        assert!(
            out.status.success(),
            "jp-kb {args:?} in {}: {}\n{}",
            cwd.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `git ARGS` in `cwd`, which must succeed.
    pub fn git(&self, cwd: &Path, args: &[&str]) {
        let mut cmd = Command::new("git");
        self.env(&mut cmd);
        let out = cmd.current_dir(cwd).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `jp ARGS` in `cwd`: its output and the chat requests it sent.
    pub fn jp(&self, cwd: &Path, args: &[&str]) -> Run {
        let before = self.model.count();
        let mut cmd = Command::new(&self.jp);
        self.env(&mut cmd);
        let output = cmd.current_dir(cwd).args(args).output().unwrap();
        Run {
            requests: self.model.since(before),
            output,
        }
    }

    /// A new JP conversation in `cwd` (`jp query --new`), which must
    /// succeed; `workspace` is JP's `-w`.
    pub fn query(&self, cwd: &Path, workspace: Option<&Path>) -> Run {
        self.query_args(cwd, workspace, &["--new"])
    }

    /// The session's conversation continued (`jp query`).
    pub fn continue_query(&self, cwd: &Path) -> Run {
        self.query_args(cwd, None, &[])
    }

    fn query_args(&self, cwd: &Path, workspace: Option<&Path>, extra: &[&str]) -> Run {
        let mut args: Vec<&str> = Vec::new();
        let shown;
        if let Some(dir) = workspace {
            shown = dir.to_str().unwrap().to_owned();
            args.extend(["-w", shown.as_str()]);
        }
        args.extend(["-F", "text", "query", "--no-edit"]);
        args.extend(extra);
        args.push("hello");
        let run = self.jp(cwd, &args);
        run.assert_ok();
        run
    }

    /// A git repository at `dir` made the way the README says: `jp-kb
    /// init`, two subjects (one pre-loaded: its text is in the section;
    /// the other's is what `learn` answers with, so an answer tells which
    /// checkout the server read), `connect jp`; then JP run once; all of
    /// it committed, `.jp/.id` included.
    pub fn repository(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        self.git(dir, &["init", "-q", "-b", "main"]);
        self.jp_kb_ok(dir, &["init"]);
        std::fs::remove_file(dir.join(".jp/kb/project/conventions.md")).unwrap();
        write(
            dir,
            "code-quality.md",
            "Code quality in the first checkout.\n",
        );
        write(
            dir,
            "maintainers.md",
            "Maintainers of the first checkout.\n",
        );
        self.jp_kb_ok(dir, &["learned", "add", "project", "code-quality"]);
        self.jp_kb_ok(dir, &["connect", "jp"]);
        self.query(dir, None);
        assert!(dir.join(".jp/.id").is_file(), "JP wrote .jp/.id");
        // What an earlier jp-kb asked for once JP had made `.jp/.id` (it
        // then wrote this machine's entry); a no-op today.
        self.jp_kb_ok(dir, &["connect", "jp"]);
        self.commit(dir, "a knowledge base for JP");
    }

    pub fn commit(&self, dir: &Path, message: &str) {
        self.git(dir, &["add", "-A"]);
        self.git(dir, &["commit", "-q", "-m", message]);
    }

    /// What `checkout` serves, by jp-kb's own commands there: the section
    /// and the answers to `learn project` and `learn project
    /// code-quality maintainers`, each without its final newline (as a
    /// tool result carries it).
    pub fn expected(&self, checkout: &Path) -> Expected {
        let trim = |s: String| s.strip_suffix('\n').map(str::to_owned).unwrap_or(s);
        Expected {
            section: trim(self.jp_kb_ok(checkout, &["prompt"])),
            listing: trim(self.jp_kb_ok(checkout, &["learn", "project"])),
            subjects: trim(self.jp_kb_ok(
                checkout,
                &["learn", "project", "code-quality", "maintainers"],
            )),
        }
    }

    /// The model calls `learn` twice per conversation turn: the listing,
    /// then two subjects.
    pub fn script_listing_and_subjects(&self) {
        self.model.script(vec![
            serde_json::json!({"topic": "project"}),
            serde_json::json!({"topic": "project", "subjects": ["code-quality", "maintainers"]}),
        ]);
    }
}

/// Writes a subject of topic `project` in the checkout at `dir`.
pub fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(".jp/kb/project").join(name), text).unwrap();
}

/// What a checkout serves, by jp-kb's commands.
#[derive(Debug, PartialEq, Eq)]
pub struct Expected {
    pub section: String,
    pub listing: String,
    pub subjects: String,
}

/// One `jp` run: its output and what it sent the model.
pub struct Run {
    pub requests: Vec<Value>,
    pub output: Output,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    pub fn assert_ok(&self) {
        assert!(
            self.output.status.success(),
            "jp failed ({}):\n{}\n{}",
            self.output.status,
            self.stdout(),
            self.stderr()
        );
    }

    /// The `<knowledge>` sections of the first request's system
    /// messages (the conversation's system prompt).
    pub fn sections(&self) -> Vec<String> {
        let Some(first) = self.requests.first() else {
            return Vec::new();
        };
        first["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "system")
            .filter_map(|m| m["content"].as_str())
            .filter(|c| c.contains("<knowledge>"))
            .map(str::to_owned)
            .collect()
    }

    /// The one `<knowledge>` section the model received.
    pub fn section(&self) -> String {
        let sections = self.sections();
        assert_eq!(
            sections.len(),
            1,
            "one <knowledge> section expected:\n{sections:#?}\n{}",
            self.stdout()
        );
        sections.into_iter().next().unwrap()
    }

    /// The tool results of the last request, in order.
    pub fn tool_results(&self) -> Vec<String> {
        let Some(last) = self.requests.last() else {
            return Vec::new();
        };
        last["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "tool")
            .map(|m| match &m["content"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect()
    }

    /// Asserts the model received exactly what `expected` says: the
    /// section, and the two `learn` answers.
    pub fn assert_served(&self, expected: &Expected, what: &str) {
        assert_eq!(self.section(), expected.section, "{what}: the section");
        assert_eq!(
            self.tool_results(),
            [expected.listing.clone(), expected.subjects.clone()],
            "{what}: the learn results\n{}",
            self.stderr()
        );
    }
}
