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
