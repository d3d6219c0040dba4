//! Which checkout a server JP started serves (issue 36). JP starts its
//! MCP servers in its own working directory, with the arguments of the
//! configuration it loaded, and tells them nothing else; `connect jp`
//! puts the workspace id in those arguments (`--jp-workspace-id ID`, in
//! JP's user-workspace layer, which every checkout of the id shares).
//!
//! - Started inside a checkout of that id (JP run there, the usual case):
//!   that checkout, as for every command.
//! - Started elsewhere (`jp -w DIR` from another directory, or from
//!   another repository): JP's own choice. Before it starts any server,
//!   JP points the `storage` link of the one per-user directory of the id
//!   at the checkout it runs for ([`crate::config::jp_user_dir`]); the
//!   server follows it, and checks that the checkout there has that id.
//!
//! `jp -w OTHER` run inside another checkout of the same repository is
//! served the checkout it runs in (the first rule): the link cannot tell
//! it from another JP started meanwhile in another checkout.

use std::path::PathBuf;

use crate::config::Environment;
use crate::config::jp_user_dir::{directories_of, linked_checkout, resolve};
use crate::config::workspace::{find_root, is_valid_workspace_id, workspace_id};

/// The checkout to serve for JP's workspace `id`: `Ok(None)` for the
/// current directory's workspace (found as every command finds it),
/// `Ok(Some(dir))` for the one JP's link names, `Err` with what is
/// missing when neither holds.
pub fn checkout_for(env: &Environment, id: &str) -> Result<Option<PathBuf>, String> {
    if !is_valid_workspace_id(id) {
        return Err(format!("{id:?} is not a workspace id"));
    }
    if let Some(root) = find_root(&env.cwd)
        && workspace_id(&root).as_deref() == Some(id)
    {
        return Ok(None);
    }
    let Some(data) = &env.user_data_dir else {
        return Err("there is no user data directory to find JP's directory in".to_owned());
    };
    let workspaces = data.join("workspace");
    // JP merged every other directory of the id into the one it chose
    // when it started: one is left (two only if another JP made one
    // since; JP's rule picks among them).
    if directories_of(&workspaces, id).is_empty() {
        return Err(format!(
            "JP has no directory for it in {} (is JP_USER_DATA_DIR or XDG_DATA_HOME the same for \
             JP and jp-kb?)",
            workspaces.display()
        ));
    }
    let dir = resolve(&workspaces, "", id);
    let Some(checkout) = linked_checkout(&dir, &env.cwd) else {
        return Err(format!(
            "{} has no `storage` link to the checkout",
            dir.display()
        ));
    };
    if workspace_id(&checkout).as_deref() != Some(id) {
        return Err(format!(
            "the `storage` link of {} names {}, which is not a checkout of that workspace",
            dir.display(),
            checkout.display()
        ));
    }
    Ok(Some(checkout))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::path::Path;

    /// A checkout at `dir` of workspace `id`.
    fn checkout(dir: &Path, id: &str) {
        std::fs::create_dir_all(dir.join(".jp")).unwrap();
        std::fs::write(dir.join(".jp/.id"), format!("DO NOT EDIT\n{id}\n")).unwrap();
    }

    /// JP's directory of `id`, its `storage` link pointing at `target`.
    fn linked(data: &Path, name: &str, target: &Path) {
        let dir = data.join("workspace").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(target, dir.join("storage")).unwrap();
    }

    fn env(cwd: &Path, data: &Path) -> Environment {
        Environment::workspace_only(cwd).with_user_data_dir(data)
    }

    #[test]
    fn the_workspace_started_in_when_it_has_the_id_else_jps_link() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b, other, data) = (
            tmp.path().join("a"),
            tmp.path().join("b"),
            tmp.path().join("other"),
            tmp.path().join("data"),
        );
        checkout(&a, "ab123");
        checkout(&b, "ab123");
        checkout(&other, "zz999");
        linked(&data, "a-ab123", &b.join(".jp"));
        // Inside a checkout of the id: that one, whatever the link says.
        assert_eq!(checkout_for(&env(&a.join(".jp"), &data), "ab123"), Ok(None));
        // Elsewhere, or in another workspace: the one JP links.
        assert_eq!(
            checkout_for(&env(tmp.path(), &data), "ab123"),
            Ok(Some(b.clone()))
        );
        assert_eq!(
            checkout_for(&env(&other, &data), "ab123"),
            Ok(Some(b.clone()))
        );
    }

    #[test]
    fn a_relative_link_is_read_from_jps_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        checkout(&tmp.path().join("work/b"), "ab123");
        linked(&data, "b-ab123", Path::new("work/b/.jp"));
        assert_eq!(
            checkout_for(&env(tmp.path(), &data), "ab123"),
            Ok(Some(tmp.path().join("work/b")))
        );
    }

    #[test]
    fn what_cannot_be_told_is_said() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let here = env(tmp.path(), &data);
        let no_dir = checkout_for(&here, "ab123").unwrap_err();
        assert!(no_dir.contains("no directory"), "{no_dir}");
        std::fs::create_dir_all(data.join("workspace/x-ab123")).unwrap();
        let no_link = checkout_for(&here, "ab123").unwrap_err();
        assert!(no_link.contains("no `storage` link"), "{no_link}");
        checkout(&tmp.path().join("c"), "cd456");
        std::os::unix::fs::symlink(
            tmp.path().join("c/.jp"),
            data.join("workspace/x-ab123/storage"),
        )
        .unwrap();
        let other = checkout_for(&here, "ab123").unwrap_err();
        assert!(
            other.contains("not a checkout of that workspace"),
            "{other}"
        );
        assert!(checkout_for(&here, "../x").is_err());
    }
}
