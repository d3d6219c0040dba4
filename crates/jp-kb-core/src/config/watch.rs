//! Telling that the configuration changed without parsing it: the paths
//! that make it (the files read, and every place a layer file could
//! appear), and a stamp of their sizes and modification times. A
//! long-running process polls [`ConfigWatch::changed`] (a few `stat`s).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::workspace::{
    CONFIG_FILE_NAMES, KB_FILE_NAMES, jp_dir, jp_toml_candidates, resolve_root, user_workspace_dir,
};
use super::{Environment, LoadOptions, LoadedConfig, load};

/// Every path whose creation, change or removal can change the effective
/// configuration: the files `loaded` read (with their `extends` and `--cfg`
/// files), and the places the layers are looked for, existing or not.
pub fn config_paths(
    env: &Environment,
    options: &LoadOptions,
    loaded: Option<&LoadedConfig>,
) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut push = |p: PathBuf| crate::unique::push_new(&mut paths, p);
    let layer_dir = |dir: &Path| {
        CONFIG_FILE_NAMES
            .into_iter()
            .chain(KB_FILE_NAMES)
            .map(|name| dir.join(name))
            .collect::<Vec<_>>()
    };
    if let Some(dir) = &env.global_config_dir {
        layer_dir(dir).into_iter().for_each(&mut push);
    }
    if let Ok(root) = resolve_root(env, options.workspace.as_deref()) {
        layer_dir(&jp_dir(&root)).into_iter().for_each(&mut push);
        push(jp_dir(&root).join(".id"));
        jp_toml_candidates(&root, &env.cwd)
            .into_iter()
            .for_each(&mut push);
        if let Some(dir) = user_workspace_dir(env, &root, &mut Vec::new()) {
            layer_dir(&dir).into_iter().for_each(&mut push);
        }
    }
    for file in loaded.map_or(&[][..], |l| l.files.as_slice()) {
        push(file.path.clone());
    }
    paths
}

/// Modification time, size and (on Unix) inode of each path (`None`:
/// absent). The inode catches an atomic replace within the file system's
/// timestamp granularity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigStamp(Vec<Option<(SystemTime, u64, u64)>>);

impl ConfigStamp {
    pub fn of(paths: &[PathBuf]) -> Self {
        Self(
            paths
                .iter()
                .map(|p| {
                    let meta = std::fs::metadata(p).ok()?;
                    Some((meta.modified().ok()?, meta.len(), inode(&meta)))
                })
                .collect(),
        )
    }
}

#[cfg(unix)]
fn inode(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn inode(_meta: &std::fs::Metadata) -> u64 {
    0
}

/// Watches the configuration of one workspace by polling.
#[derive(Debug)]
pub struct ConfigWatch {
    env: Environment,
    options: LoadOptions,
    paths: Vec<PathBuf>,
    stamp: ConfigStamp,
}

impl ConfigWatch {
    pub fn new(env: Environment, options: LoadOptions) -> Self {
        let mut watch = Self {
            env,
            options,
            paths: Vec::new(),
            stamp: ConfigStamp(Vec::new()),
        };
        watch.refresh();
        watch
    }

    /// The paths being watched.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// True when a watched path changed since the last call (or since
    /// [`ConfigWatch::new`]); the set of paths is then recomputed, since a
    /// change may add or drop an `extends` file.
    pub fn changed(&mut self) -> bool {
        if ConfigStamp::of(&self.paths) == self.stamp {
            return false;
        }
        self.refresh();
        true
    }

    fn refresh(&mut self) {
        let loaded = load(&self.env, &self.options).ok();
        let mut paths = config_paths(&self.env, &self.options, loaded.as_ref());
        if loaded.is_none() {
            // A file being edited may not parse: keep watching what was
            // read before, so the fix is noticed too.
            for p in &self.paths {
                if !paths.contains(p) {
                    paths.push(p.clone());
                }
            }
        }
        self.stamp = ConfigStamp::of(&paths);
        self.paths = paths;
    }
}
