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

/// The ledger of the workspace at `root` (its canonical path).
pub fn ledger_path(data_dir: &Path, root: &Path) -> PathBuf {
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = fnv1a(root.as_os_str().as_encoded_bytes());
    usage_dir(data_dir).join(format!("{name}-{hash:016x}.jsonl"))
}

/// FNV-1a, 64 bits: stable across versions and platforms (std's hasher
/// is not), which a file name must be.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
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
