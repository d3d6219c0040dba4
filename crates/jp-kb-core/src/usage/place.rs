//! Where a workspace's ledger lives: `<data>/jp-kb/usage/<name>-<hash>.jsonl`,
//! `<data>` being JP's user data directory as the configuration finds it
//! (`$JP_USER_DATA_DIR`, else `$XDG_DATA_HOME/jp`, else the platform data
//! directory + `jp`; contract §2 layer 4). One ledger per workspace root,
//! named by the root's directory name (for a person looking) and a hash of
//! its canonical path (so two checkouts called `app` stay apart). Never
//! inside the workspace: nothing to commit by mistake.

use std::path::{Path, PathBuf};

/// The directory holding every workspace's ledger.
pub fn usage_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("jp-kb").join("usage")
}

/// The ledger of the workspace at `root` (its canonical path), named by
/// the workspace's key ([`jp_kb_fs::workspace_key`], as its search cache
/// is).
pub fn ledger_path(data_dir: &Path, root: &Path) -> PathBuf {
    usage_dir(data_dir).join(format!("{}.jsonl", jp_kb_fs::workspace_key(root)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_ledger_per_root_outside_it() {
        let data = Path::new("/home/u/.local/share/jp");
        let a = ledger_path(data, Path::new("/w/one/app"));
        let b = ledger_path(data, Path::new("/w/two/app"));
        assert_ne!(a, b);
        assert!(a.starts_with("/home/u/.local/share/jp/jp-kb/usage"));
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("app-"), "{name}");
        assert_eq!(a.extension().unwrap(), "jsonl");
        // Stable: the same root always names the same file.
        assert_eq!(a, ledger_path(data, Path::new("/w/one/app")));
        let odd = ledger_path(data, Path::new("/w/a b\n../c"));
        assert!(odd.starts_with(usage_dir(data)));
    }
}
