//! Finding the workspace root and the per-user directories JP uses.

use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::jp_kind::JpKind;
use super::model::ConfigWarning;
use super::origin::Origin;
use super::trust::{self, SafeDirectories};

/// The process facts configuration loading depends on. Built from the real
/// process by [`Environment::from_process`]; tests build their own so a
/// developer's own configuration never leaks in.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Environment {
    /// The directory the workspace is looked for from.
    pub cwd: PathBuf,
    /// Directory of the user-global `config.toml`.
    pub global_config_dir: Option<PathBuf>,
    /// JP's user data directory (holds `workspace/<name>-<id>/`).
    pub user_data_dir: Option<PathBuf>,
    /// Directories whose configuration is used whoever owns it
    /// ([`super::trust`]); elsewhere only the person's own files are.
    pub safe_directories: SafeDirectories,
    /// Which JP the workspace is used with: today's JP unless the host
    /// found one with the knowledge base inside ([`Self::with_jp`]).
    pub jp: JpKind,
}

impl Environment {
    /// Running in `cwd` with no user-global configuration and no user
    /// data directory: what a workspace alone declares (the bundled demo,
    /// tests, benchmarks).
    pub fn workspace_only(cwd: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            global_config_dir: None,
            user_data_dir: None,
            safe_directories: SafeDirectories::default(),
            jp: JpKind::Beside,
        }
    }

    /// … used with `jp`, the JP the host found (the `jp-kb` binary asks
    /// the `jp` on `PATH`; a library host knows what it is).
    #[must_use]
    pub fn with_jp(mut self, jp: JpKind) -> Self {
        self.jp = jp;
        self
    }

    /// … trusting the configuration below `safe` whoever owns it.
    #[must_use]
    pub fn with_safe_directories(mut self, safe: SafeDirectories) -> Self {
        self.safe_directories = safe;
        self
    }

    /// [`Environment::workspace_only`] with JP's user-global configuration
    /// directory (its `config.toml` is a layer).
    #[must_use]
    pub fn with_global_config_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.global_config_dir = Some(dir.into());
        self
    }

    /// … with JP's user data directory (it holds the user-workspace
    /// layer, `workspace/<name>-<id>/`).
    #[must_use]
    pub fn with_user_data_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.user_data_dir = Some(dir.into());
        self
    }

    /// Reads `JP_GLOBAL_CONFIG_DIR`, `XDG_CONFIG_HOME`, `JP_USER_DATA_DIR`,
    /// `XDG_DATA_HOME` and falls back to the platform directories; the
    /// trusted directories from `JP_KB_SAFE_DIRECTORIES` and jp-kb's own
    /// `safe-directories` file ([`super::trust`]).
    pub fn from_process() -> std::io::Result<Self> {
        let cwd = std::env::current_dir()?;
        let global_config_dir = env_dir("JP_GLOBAL_CONFIG_DIR")
            .or_else(|| env_dir("XDG_CONFIG_HOME").map(|d| d.join("jp")))
            .or_else(|| dirs::config_dir().map(|d| d.join("jp")));
        let user_data_dir = env_dir("JP_USER_DATA_DIR")
            .or_else(|| env_dir("XDG_DATA_HOME").map(|d| d.join("jp")))
            .or_else(|| dirs::data_dir().map(|d| d.join("jp")));
        let safe_directories = SafeDirectories::from_process(trust::list_file().as_deref());
        Ok(Self {
            cwd,
            global_config_dir,
            user_data_dir,
            safe_directories,
            jp: JpKind::Beside,
        })
    }
}

impl Environment {
    /// The user's own JP directories that exist: the user-global
    /// configuration directory and the user data directory.
    pub fn user_dirs(&self) -> Vec<PathBuf> {
        [&self.global_config_dir, &self.user_data_dir]
            .into_iter()
            .flatten()
            .filter(|d| d.is_dir())
            .cloned()
            .collect()
    }
}

fn env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// A workspace's JP directory, `<root>/.jp`: the workspace layer's
/// directory (its `config.*` and `kb.*`), the `.id` file, `kb/`. The one
/// place its name is spelled.
pub fn jp_dir(root: &Path) -> PathBuf {
    root.join(".jp")
}

/// The nearest directory from `start` upwards that contains a `.jp`
/// directory.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| jp_dir(dir).is_dir())
        .map(Path::to_path_buf)
}

/// Resolves the workspace root: `--workspace DIR` when given, else the
/// nearest `.jp` ancestor of the current directory. The result is
/// canonical, so containment checks (symlinks, `..`) compare like with like.
/// A `.jp/` another user could have written is refused
/// ([`ConfigError::Untrusted`]), not skipped for one further up.
pub fn resolve_root(env: &Environment, explicit: Option<&Path>) -> Result<PathBuf, ConfigError> {
    let dir = match explicit {
        Some(dir) => {
            let dir = env.cwd.join(dir);
            if !dir.is_dir() {
                return Err(ConfigError::BadWorkspace { path: dir });
            }
            dir
        }
        None => find_root(&env.cwd).ok_or_else(|| ConfigError::NoWorkspace {
            start: env.cwd.clone(),
        })?,
    };
    let root = dir
        .canonicalize()
        .map_err(|source| ConfigError::Io { path: dir, source })?;
    // Found or named, a `.jp/` another user could have planted (another
    // user's `/tmp/.jp` above the person's `/tmp/work`) is never the
    // workspace: naming it with `--workspace` is no more a reason to
    // trust it than `git -C` is for git.
    let jp = jp_dir(&root);
    if jp.is_dir() {
        trust::check(&jp, &env.safe_directories)?;
    }
    Ok(root)
}

/// The user-workspace directory JP uses for this checkout
/// ([`super::jp_user_dir::resolve`]: `<data>/workspace/<name>-<id>`, or
/// the one another checkout of the same id made), when the
/// workspace has a `.jp/.id` file (its last non-empty line is the id) and
/// the id is valid ([`is_valid_workspace_id`]). An invalid id is a warning
/// naming `.jp/.id`, and no directory: it is joined into a path, and
/// `x/../../…` would load a configuration from anywhere.
pub fn user_workspace_dir(
    env: &Environment,
    root: &Path,
    warnings: &mut Vec<ConfigWarning>,
) -> Option<PathBuf> {
    let data = env.user_data_dir.as_ref()?;
    let (id_file, index, id) = id_line(root)?;
    let id = id.as_str();
    if !is_valid_workspace_id(id) {
        // The id itself is not repeated: `.jp/.id` may be a symlink to a
        // file whose content must not be printed.
        warnings.push(ConfigWarning {
            origin: Some(Origin::File {
                path: id_file,
                line: u32::try_from(index + 1).ok(),
            }),
            message: format!(
                "{BAD_ID_PREFIX}: the user-workspace configuration is ignored (an id is 1 to {MAX_ID_LEN} ASCII letters, digits, `-` or `_`; JP writes 5 of a-z, 0-9)"
            ),
        });
        return None;
    }
    let name = root.file_name()?.to_str()?;
    // Shared by every checkout of the id, found as JP finds it.
    Some(super::jp_user_dir::resolve(
        &data.join("workspace"),
        name,
        id,
    ))
}

/// The workspace id in `root`'s `.jp/.id`, when it holds a valid one.
pub fn workspace_id(root: &Path) -> Option<String> {
    id_line(root)
        .map(|(_, _, id)| id)
        .filter(|id| is_valid_workspace_id(id))
}

/// `.jp/.id`, and the index and text of its last non-empty line.
fn id_line(root: &Path) -> Option<(PathBuf, usize, String)> {
    let id_file = jp_dir(root).join(".id");
    // Guarded: a FIFO or `/dev/zero` committed as `.jp/.id` must not hang
    // or exhaust every command.
    let text = super::file::read_guarded(&id_file).ok()?;
    let text = String::from_utf8_lossy(&text);
    let (index, id) = text
        .lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .last()?;
    let id = id.to_owned();
    Some((id_file, index, id))
}

/// How a warning about an invalid `.jp/.id` starts (`check` gives it its
/// own code).
pub const BAD_ID_PREFIX: &str = "`.jp/.id` does not hold a valid workspace id";

/// The longest workspace id accepted.
pub const MAX_ID_LEN: usize = 64;

/// Whether `id` may name a directory below `<data>/workspace/`: 1 to
/// [`MAX_ID_LEN`] ASCII letters, digits, `-` and `_`. JP itself writes five
/// characters of `0-9a-z`; the few extra characters accept hand-made ids
/// while keeping out every path separator, `.`/`..`, NUL and anything a
/// file system might treat specially.
pub fn is_valid_workspace_id(id: &str) -> bool {
    (1..=MAX_ID_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The names a layer directory's config file may have, in the order they
/// are looked for.
pub const CONFIG_FILE_NAMES: [&str; 4] =
    ["config.toml", "config.json", "config.yaml", "config.yml"];

/// The first of `config.toml`, `config.json`, `config.yaml`, `config.yml`
/// that exists in `dir` (as anything: reading it then says what is wrong
/// with one that is not a regular file).
pub fn config_file_in(dir: &Path) -> Option<PathBuf> {
    CONFIG_FILE_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|p| super::file::is_present(p))
}

/// The names of jp-kb's own file beside a layer directory's config file
/// (contract §2: a file JP never loads, read right after the config file
/// as part of the same layer), in the order they are looked for.
pub const KB_FILE_NAMES: [&str; 4] = ["kb.toml", "kb.json", "kb.yaml", "kb.yml"];

/// The first of `kb.toml`, `kb.json`, `kb.yaml`, `kb.yml` present in
/// `dir` — present as anything, like [`config_file_in`]: a directory, a
/// FIFO or a link to a device there is then an error naming it when it is
/// read, not a layer skipped without a word (whose edits would go to
/// `config.toml` instead).
pub fn kb_file_in(dir: &Path) -> Option<PathBuf> {
    KB_FILE_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|p| super::file::is_present(p))
}

/// The file of `dir`'s layer that creating `path` would hide: `path` is a
/// missing `config.toml` or `kb.toml` (or `.json`) and a later-looked-for
/// sibling of the same family (`config.yaml` beside `config.toml`) exists.
/// jp-kb never creates such a file (contract §7).
pub fn shadowed_by_creating(path: &Path) -> Option<PathBuf> {
    if path.exists() {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    [CONFIG_FILE_NAMES, KB_FILE_NAMES]
        .into_iter()
        .find_map(|family| {
            let at = family.iter().position(|n| *n == name)?;
            family[at + 1..]
                .iter()
                .map(|n| dir.join(n))
                .find(|p| p.is_file())
        })
}

/// `.jp.toml` files from the workspace root down to `cwd` (lowest
/// precedence first, so the one nearest the current directory wins). When
/// `cwd` is outside the workspace only the root's `.jp.toml` counts.
pub fn jp_toml_chain(root: &Path, cwd: &Path) -> Vec<PathBuf> {
    jp_toml_candidates(root, cwd)
        .into_iter()
        .filter(|p| super::file::is_present(p))
        .collect()
}

/// Every place a `.jp.toml` layer could be, existing or not, in merge order.
pub fn jp_toml_candidates(root: &Path, cwd: &Path) -> Vec<PathBuf> {
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let mut dirs: Vec<&Path> = if cwd.starts_with(root) {
        cwd.ancestors()
            .take_while(|d| d.starts_with(root))
            .collect()
    } else {
        vec![root]
    };
    dirs.reverse();
    dirs.into_iter().map(|d| d.join(".jp.toml")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_ids_are_plain_names() {
        for good in ["abc12", "a", "ab-1_Z", &"x".repeat(MAX_ID_LEN)] {
            assert!(is_valid_workspace_id(good), "{good}");
        }
        for bad in [
            "",
            "x/../../evil",
            "..",
            ".",
            "a.b",
            "a\\b",
            "a\0b",
            "ab c",
            "é",
            &"x".repeat(MAX_ID_LEN + 1),
        ] {
            assert!(!is_valid_workspace_id(bad), "{bad:?}");
        }
    }
}
