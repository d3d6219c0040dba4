//! What some integration tests need from outside the repository, and how to
//! tell whether it is here. Shared by `build.rs`, which probes once per
//! build and sets `cfg(lacks = "KEY")` for each need that is missing
//! (unless `CI` is set), and by `tests/needs/mod.rs`, which checks again
//! when a test runs. Plain `std` only: the build script compiles it too.

use std::path::{Path, PathBuf};

/// Something a test needs that `cargo test` cannot provide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// tmux on `PATH`: the tests that drive the TUI in a real terminal.
    Tmux,
    /// The official MCP Python SDK in `target/mcp-venv`
    /// (`tests/mcp/setup.sh`).
    McpVenv,
    /// MCP Inspector and Codex CLI in `target/clients-node`
    /// (`tests/clients/setup.sh`, with npm).
    ClientsNode,
    /// fast-agent in `target/clients-venv` (`tests/clients/setup.sh`).
    ClientsVenv,
    /// The tldr corpus in `../shared/corpora`, beside the checkout.
    Corpora,
    /// all-MiniLM-L6-v2 in `target/models` and its numpy reference
    /// embeddings (`tests/semantic/setup.sh`, with pip).
    Model,
    /// Real JP (dcdpr/jp 4c1c39f1, unpatched), built from `../shared/jp`
    /// by `tests/jp/setup.sh` into `JP_KB_JP_TARGET` (default
    /// `~/.cache/jp-kb/jp-target`, outside the checkout: a cold build is
    /// ~6 minutes, so it is kept between checkouts and runs).
    Jp,
    /// JP with the knowledge base inside (`integrations/jp`: the patch
    /// series on this checkout's core), built by `tests/jp/setup_inside.sh`
    /// into `JP_KB_JP_INSIDE_TARGET` (default
    /// `~/.cache/jp-kb/jp-inside-target`); its stamp says the build is
    /// complete.
    JpInside,
    /// Running as root: the tests that hand files to another user (a
    /// `.jp/` planted by someone else) or run jp-kb as another user.
    Root,
    /// JP's source (`jp-4c1c39f1.tar.gz`) in `../shared/jp/src`, beside
    /// the checkout: its documentation is a real knowledge base.
    JpSource,
}

/// Where a need was found.
pub struct Found {
    /// What the tests use: tmux's binary, or the need's directory.
    pub path: PathBuf,
    /// The file whose presence says the need is met (the setup scripts
    /// write their stamp last); `build.rs` asks cargo to probe again when
    /// it changes.
    pub marker: PathBuf,
}

impl Need {
    pub const ALL: [Self; 10] = [
        Self::Tmux,
        Self::McpVenv,
        Self::ClientsNode,
        Self::ClientsVenv,
        Self::Corpora,
        Self::Model,
        Self::Jp,
        Self::JpInside,
        Self::Root,
        Self::JpSource,
    ];

    /// The environment variables that move a need's directory.
    pub const ENV: [&'static str; 6] = [
        "JP_KB_MCP_VENV",
        "JP_KB_CLIENTS_NODE",
        "JP_KB_CLIENTS_VENV",
        "JP_KB_JP_TARGET",
        "JP_KB_JP_INSIDE_TARGET",
        "HOME",
    ];

    /// The value of `cfg(lacks = …)` when it is missing.
    pub fn key(self) -> &'static str {
        match self {
            Self::Tmux => "tmux",
            Self::McpVenv => "mcp-venv",
            Self::ClientsNode => "clients-node",
            Self::ClientsVenv => "clients-venv",
            Self::Corpora => "corpora",
            Self::Model => "model",
            Self::Jp => "jp",
            Self::JpInside => "jp-inside",
            Self::Root => "root",
            Self::JpSource => "jp-source",
        }
    }

    /// The reason cargo prints beside an ignored test: what is missing and
    /// how to get it. Each test's `ignore = "…"` repeats it word for word
    /// (an attribute takes only a literal; `tests/it/readme_install.rs` checks
    /// they agree).
    pub fn reason(self) -> &'static str {
        match self {
            Self::Tmux => "needs tmux (install it, then touch build.rs; or run .ci/run)",
            Self::McpVenv => "needs the MCP Python SDK (run bash tests/mcp/setup.sh, or .ci/run)",
            Self::ClientsNode => {
                "needs MCP Inspector and Codex CLI (run bash tests/clients/setup.sh, or .ci/run)"
            }
            Self::ClientsVenv => "needs fast-agent (run bash tests/clients/setup.sh, or .ci/run)",
            Self::Corpora => {
                "needs the tldr corpus in ../shared/corpora beside the checkout (then touch build.rs)"
            }
            Self::Model => {
                "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
            }
            Self::Jp => {
                "needs real JP built (run bash tests/jp/setup.sh, or .ci/run; JP_KB_JP_TARGET names its target directory)"
            }
            Self::JpInside => {
                "needs JP with the knowledge base inside built (run bash tests/jp/setup_inside.sh, or .ci/run; JP_KB_JP_INSIDE_TARGET names its target directory)"
            }
            Self::Root => "needs root, to give files to another user (run the tests as root)",
            Self::JpSource => {
                "needs JP's source in ../shared/jp/src beside the checkout (then touch build.rs)"
            }
        }
    }

    /// Where the need is met for the package at `root`, if it is.
    pub fn find(self, root: &Path) -> Option<Found> {
        let dir = |var: &str, default: &str| {
            std::env::var_os(var).map_or_else(|| root.join("target").join(default), PathBuf::from)
        };
        let (path, marker) = match self {
            Self::Tmux => {
                let path = on_path("tmux")?;
                (path.clone(), path)
            }
            Self::McpVenv => {
                let venv = dir("JP_KB_MCP_VENV", "mcp-venv");
                let marker = venv.join(".requirements.sha256");
                if !venv.join("bin/python").exists() {
                    return None;
                }
                (venv, marker)
            }
            Self::ClientsNode => {
                let node = dir("JP_KB_CLIENTS_NODE", "clients-node");
                (node.clone(), node.join(".stamp"))
            }
            Self::ClientsVenv => {
                let venv = dir("JP_KB_CLIENTS_VENV", "clients-venv");
                if !venv.join("bin/python").exists() {
                    return None;
                }
                (venv.clone(), venv.join(".stamp"))
            }
            Self::Corpora => {
                let corpora = root.join("../shared/corpora");
                if !corpora.join("tldr/pages").is_dir() {
                    return None;
                }
                (corpora.clone(), corpora.join(".jp/config.toml"))
            }
            Self::Model => {
                let models = root.join("target/models");
                if !models.join("all-minilm-l6-v2/model.safetensors").is_file() {
                    return None;
                }
                (
                    models.join("all-minilm-l6-v2"),
                    models.join(".all-minilm-l6-v2.sha256"),
                )
            }
            Self::Jp => {
                let jp = built_jp("JP_KB_JP_TARGET", "jp-target")?;
                (jp.clone(), jp)
            }
            Self::JpInside => {
                let jp = built_jp("JP_KB_JP_INSIDE_TARGET", "jp-inside-target")?;
                // Written last by the setup script, removed before it
                // builds: a build cut short is not found.
                let stamp = jp.parent()?.parent()?.join(".jp-kb-stamp");
                (jp, stamp)
            }
            Self::Root => {
                // `/proc/self` belongs to the process's effective user.
                if !owned_by_root(Path::new("/proc/self")) {
                    return None;
                }
                (PathBuf::from("/"), root.join("build.rs"))
            }
            Self::JpSource => {
                let tarball = root.join("../shared/jp/src/jp-4c1c39f1.tar.gz");
                (tarball.clone(), tarball)
            }
        };
        marker.is_file().then_some(Found { path, marker })
    }
}

/// Whether this is a CI run: `CI` set to anything, as cargo itself reads
/// it. Under CI no test is ignored for a missing need; it fails.
pub fn ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// The `jp` binary of a JP build: `debug/jp` in the target directory the
/// variable `var` names, else in `~/.cache/jp-kb/DEFAULT` (what
/// `tests/jp/setup.sh` builds into; outside the checkout, so that every
/// checkout and worktree reuses one build). A second JP build (a patched
/// one) is a second variable and directory.
pub fn built_jp(var: &str, default: &str) -> Option<PathBuf> {
    let target = std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".cache/jp-kb").join(default))
        })?;
    let jp = target.join("debug/jp");
    std::fs::metadata(&jp)
        .is_ok_and(|m| m.is_file() && executable(&m))
        .then_some(jp)
}

/// The first executable file called `name` in a `PATH` directory.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|file| std::fs::metadata(file).is_ok_and(|m| m.is_file() && executable(&m)))
}

#[cfg(unix)]
fn owned_by_root(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).is_ok_and(|m| m.uid() == 0)
}

#[cfg(not(unix))]
fn owned_by_root(_: &Path) -> bool {
    false
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    true
}
