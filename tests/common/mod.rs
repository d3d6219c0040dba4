//! Helpers shared by the integration tests: an isolated `jp-kb` command
//! (no developer config can leak in) and fixture copying.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// The workspace at `root` loaded in process, with no user or global
/// configuration.
pub fn load_kb(root: &Path) -> jp_kb_core::KnowledgeBase {
    let env = jp_kb_core::Environment::workspace_only(root);
    let options = jp_kb_core::LoadOptions::default().workspace(root);
    jp_kb_core::KnowledgeBase::load(&env, &options).unwrap()
}

/// A `jp-kb` command whose `HOME`, `XDG_*` and `JP_*` directories point into
/// `sandbox`, run from `cwd`.
pub fn jp_kb(sandbox: &Path, cwd: &Path) -> Command {
    Command::from_std(jp_kb_std(sandbox, cwd))
}

/// [`jp_kb`] as a plain `std::process::Command`, for tests that talk to a
/// running process (`jp-kb mcp`).
pub fn jp_kb_std(sandbox: &Path, cwd: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_jp-kb"));
    cmd.current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", sandbox.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.join("xdg-config"))
        .env("XDG_DATA_HOME", sandbox.join("xdg-data"))
        .env("JP_GLOBAL_CONFIG_DIR", sandbox.join("global"))
        .env("JP_USER_DATA_DIR", sandbox.join("data"))
        .env("XDG_RUNTIME_DIR", sandbox.join("run"))
        // Whichever `jp` the machine running the tests has: today's JP
        // (a test about the other one sets `JP_KB_JP=inside`).
        .env("JP_KB_JP", "beside")
        .env("NO_COLOR", "1");
    cmd
}

/// Copies a directory tree (files, directories; symlinks as symlinks).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk fixture");
        let rel = entry.path().strip_prefix(from).expect("inside");
        let target = to.join(rel);
        let ft = entry.file_type();
        if ft.is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else if ft.is_symlink() {
            let link = std::fs::read_link(entry.path()).expect("readlink");
            std::os::unix::fs::symlink(link, &target).expect("symlink");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A temporary sandbox holding a copy of `fixture` under `ws/`.
pub struct Sandbox {
    pub dir: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    pub fn with_fixture(fixture: &Path) -> Self {
        let sb = Self::new();
        copy_tree(fixture, &sb.ws());
        sb
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The workspace directory.
    pub fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// Writes a file under the sandbox, creating parents.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, content).expect("write");
        path
    }

    /// `jp-kb` run from the workspace directory.
    pub fn cmd(&self) -> Command {
        jp_kb(self.path(), &self.ws())
    }
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}
