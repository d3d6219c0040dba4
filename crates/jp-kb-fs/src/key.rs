//! The one name of a workspace's per-user files (its search cache, its
//! usage ledger): they live outside the workspace, in the person's own
//! directories, one per workspace root.

use std::path::Path;

/// Characters of the root's directory name kept in a key.
const NAME_CHARS: usize = 40;

/// The key of the workspace at `root` (its canonical path):
/// `<name>-<hash>`, `<name>` being the root's directory name for a person
/// looking (letters, digits, `-` and `_`; anything else `_`; at most 40
/// characters) and `<hash>` 16 hex digits of a hash of the whole path (two
/// checkouts called `app` stay apart). Stable across versions and
/// platforms: a file name must be.
pub fn workspace_key(root: &Path) -> String {
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
        .take(NAME_CHARS)
        .collect();
    let hash = fnv1a(root.as_os_str().as_encoded_bytes());
    format!("{name}-{hash:016x}")
}

/// FNV-1a, 64 bits: stable across versions and platforms (std's hasher
/// is not).
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
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn one_key_per_root_stable_and_safe_as_a_file_name() {
        let a = workspace_key(Path::new("/w/one/app"));
        assert_ne!(a, workspace_key(Path::new("/w/two/app")));
        assert!(a.starts_with("app-"), "{a}");
        assert_eq!(a, workspace_key(Path::new("/w/one/app")));
        // The ledgers written before this crate existed keep their name.
        assert_eq!(a, "app-f535b56dddf3de64");
        let odd = workspace_key(Path::new("/w/a b\n../c.d"));
        assert!(!odd.contains(['/', '\n', '.', ' ']), "{odd}");
        assert!(workspace_key(Path::new("/")).starts_with('-'));
    }
}
