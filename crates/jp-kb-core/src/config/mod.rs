//! Configuration: the effective [`KbConfig`] with the origin of every
//! value, and (feature `config`) its loader: workspace discovery, the
//! layered files, `extends`, `--cfg` and `-k` (contract §2). Without the
//! feature a host program hands in the configuration it merged itself
//! ([`crate::KnowledgeBase::from_topics`]).

// The model, always: what a knowledge base is made of.
pub mod field;
pub mod merge;
pub mod model;
pub mod origin;

// The loader (feature `config`): reading JP's files the way JP does.
#[cfg(feature = "config")]
pub mod distrust;
#[cfg(feature = "config")]
pub mod error;
#[cfg(feature = "config")]
pub mod file;
#[cfg(feature = "config")]
pub mod interpret;
#[cfg(feature = "config")]
pub mod jp_kind;
#[cfg(feature = "config")]
pub mod jp_user_dir;
#[cfg(feature = "config")]
pub mod layers;
#[cfg(feature = "config")]
pub mod override_error;
#[cfg(feature = "config")]
pub mod overrides;
#[cfg(feature = "config")]
pub mod raw;
#[cfg(feature = "config")]
pub mod spans;
#[cfg(feature = "config")]
pub mod trust;
#[cfg(feature = "config")]
pub mod watch;
#[cfg(feature = "config")]
pub mod workspace;

use std::path::{Path, PathBuf};

pub use field::{FieldKind, TopicField};
pub use model::{ConfigWarning, KbConfig, LayerFile, LayerKind, Topic};
pub use origin::{Origin, Valued};

#[cfg(feature = "config")]
pub use error::ConfigError;
#[cfg(feature = "config")]
pub use jp_kind::JpKind;
#[cfg(feature = "config")]
pub use override_error::OverrideError;
#[cfg(feature = "config")]
pub use watch::ConfigWatch;
#[cfg(feature = "config")]
pub use workspace::Environment;

#[cfg(feature = "config")]
use layers::ExtendsLoader;
#[cfg(feature = "config")]
use overrides::{CfgArg, apply_knowledge, assignment_layer, classify_cfg, find_cfg_files};

/// What the command line adds to configuration loading.
#[cfg(feature = "config")]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// `--workspace DIR`.
    pub workspace: Option<PathBuf>,
    /// `--cfg VALUE`, in order.
    pub cfg: Vec<String>,
    /// `-k TOPIC/GLOB`, in order.
    pub knowledge: Vec<String>,
}

#[cfg(feature = "config")]
impl LoadOptions {
    /// The workspace is the one at (or above) `dir` rather than the one
    /// found from the environment's current directory.
    #[must_use]
    pub fn workspace(mut self, dir: impl Into<PathBuf>) -> Self {
        self.workspace = Some(dir.into());
        self
    }

    /// Adds a `--cfg` value (a file, or `KEY=VALUE`), applied after the
    /// workspace's layers.
    #[must_use]
    pub fn cfg(mut self, value: impl Into<String>) -> Self {
        self.cfg.push(value.into());
        self
    }

    /// Adds a `-k TOPIC/GLOB` pre-load.
    #[must_use]
    pub fn knowledge(mut self, pattern: impl Into<String>) -> Self {
        self.knowledge.push(pattern.into());
        self
    }
}

/// The effective configuration of a workspace and how it was made. Made
/// by [`load`], or by a host's own merge (then only `root` and `kb` say
/// anything: no file was read here).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedConfig {
    /// The canonical workspace root.
    pub root: PathBuf,
    /// Every file read, in merge order (lowest precedence first).
    pub files: Vec<LayerFile>,
    /// The files read because of a `kb.*` file (it and what it `extends`):
    /// files JP itself never loads.
    pub kb_files: Vec<PathBuf>,
    pub kb: KbConfig,
    pub warnings: Vec<ConfigWarning>,
    /// The user's own JP directories (user-global configuration, user
    /// data), whose files `check` may quote besides the workspace's.
    pub user_dirs: Vec<PathBuf>,
    /// The user-workspace configuration directory, existing or not (the
    /// layer picker offers to create its `kb.toml`).
    pub user_workspace_dir: Option<PathBuf>,
    /// JP's user data directory, existing or not (`connect jp` writes the
    /// user-workspace layer of a workspace id it has just written).
    pub jp_data_dir: Option<PathBuf>,
    /// The `.jp.toml` nearest the current directory, existing or not.
    pub jp_toml_here: Option<PathBuf>,
    /// Which JP the workspace is used with (from the environment).
    #[cfg(feature = "config")]
    pub jp: JpKind,
}

impl LoadedConfig {
    /// The configuration `kb` of the workspace at `root` (canonical), as a
    /// host merged it: no file, no warning, no user directory.
    pub fn merged_by_host(root: PathBuf, kb: KbConfig) -> Self {
        Self {
            root,
            files: Vec::new(),
            kb_files: Vec::new(),
            kb,
            warnings: Vec::new(),
            user_dirs: Vec::new(),
            user_workspace_dir: None,
            jp_data_dir: None,
            jp_toml_here: None,
            #[cfg(feature = "config")]
            jp: JpKind::Beside,
        }
    }

    /// The TOML files jp-kb may edit, in merge order, without duplicates.
    pub fn toml_files(&self) -> Vec<&Path> {
        let mut out: Vec<&Path> = Vec::new();
        for f in &self.files {
            if origin::is_editable_toml(&f.path) && !out.contains(&f.path.as_path()) {
                out.push(&f.path);
            }
        }
        out
    }
}

/// Loads the files of one configuration directory.
#[cfg(feature = "config")]
struct LayerLoader<'a> {
    loader: &'a mut ExtendsLoader,
    files: &'a mut Vec<LayerFile>,
    kb_files: &'a mut Vec<PathBuf>,
    warnings: &'a mut Vec<ConfigWarning>,
}

#[cfg(feature = "config")]
impl LayerLoader<'_> {
    /// The directory's config file, then its `kb.*` file (contract §2):
    /// one layer, the `kb` file winning.
    fn load_dir(&mut self, dir: &Path, kind: LayerKind) -> Result<(), ConfigError> {
        if let Some(path) = workspace::config_file_in(dir) {
            self.loader.load(&path, kind, self.files, self.warnings)?;
        }
        if let Some(path) = workspace::kb_file_in(dir) {
            let first = self.files.len();
            self.loader.load(&path, kind, self.files, self.warnings)?;
            self.kb_files
                .extend(self.files[first..].iter().map(|f| f.path.clone()));
        }
        Ok(())
    }
}

/// Loads the effective `kb` configuration (contract §2).
#[cfg(feature = "config")]
pub fn load(env: &Environment, options: &LoadOptions) -> Result<LoadedConfig, ConfigError> {
    let root = workspace::resolve_root(env, options.workspace.as_deref())?;
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    // One loader for the whole load: a file is parsed once however many
    // layers and `extends` reach it.
    let mut loader = ExtendsLoader::new(env.safe_directories.clone());

    let mut kb_files = Vec::new();
    let mut layer = LayerLoader {
        loader: &mut loader,
        files: &mut files,
        kb_files: &mut kb_files,
        warnings: &mut warnings,
    };
    if let Some(dir) = env.global_config_dir.as_deref() {
        layer.load_dir(dir, LayerKind::UserGlobal)?;
    }
    layer.load_dir(&workspace::jp_dir(&root), LayerKind::Workspace)?;
    for path in workspace::jp_toml_chain(&root, &env.cwd) {
        layer
            .loader
            .load(&path, LayerKind::JpToml, layer.files, layer.warnings)?;
    }
    let user_ws = workspace::user_workspace_dir(env, &root, layer.warnings);
    let user_workspace_dir = user_ws.clone();
    let jp_toml_here = workspace::jp_toml_candidates(&root, &env.cwd).pop();
    if let Some(dir) = user_ws.as_deref() {
        layer.load_dir(dir, LayerKind::UserWorkspace)?;
    }

    let mut kb = KbConfig::default();
    for file in &files {
        merge::merge_layer(&mut kb, &file.partial);
    }

    let load_paths: Vec<String> = files
        .iter()
        .flat_map(|f| f.partial.config_load_paths.iter().map(|v| v.value.clone()))
        .collect();
    let roots: Vec<PathBuf> = [env.global_config_dir.clone(), Some(root.clone()), user_ws]
        .into_iter()
        .flatten()
        .collect();

    for arg in &options.cfg {
        match classify_cfg(arg) {
            CfgArg::Layer(name) => {
                let mut layer_files = Vec::new();
                for path in find_cfg_files(&name, &env.cwd, &roots, &load_paths)? {
                    loader.load(&path, LayerKind::Cfg, &mut layer_files, &mut warnings)?;
                }
                for file in &layer_files {
                    merge::merge_layer(&mut kb, &file.partial);
                }
                files.extend(layer_files);
            }
            parsed => {
                let layer = assignment_layer(arg, &parsed, &mut warnings)?;
                merge::merge_layer(&mut kb, &layer);
            }
        }
    }
    apply_knowledge(&mut kb, &options.knowledge)?;
    merge::normalise(&mut kb);

    Ok(LoadedConfig {
        root,
        files,
        kb_files,
        kb,
        warnings,
        user_dirs: env.user_dirs(),
        user_workspace_dir,
        jp_data_dir: env.user_data_dir.clone(),
        jp_toml_here,
        jp: env.jp,
    })
}
