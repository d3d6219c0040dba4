//! A workspace built from JP's real configuration (`crates/jp-kb-core/tests/data/toml-real/jp`:
//! `jp__config__personas__dev.toml` is `.jp/config/personas/dev.toml`),
//! with its `extends` chains and persona files, plus a jp-kb topic in
//! `.jp/kb.toml` (JP rejects a `kb` table in its own files).
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use std::path::Path;

/// Copies JP's `.jp/` files into `root`; returns how many.
pub fn copy_jp_config(root: &Path) -> usize {
    let data =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/jp-kb-core/tests/data/toml-real/jp");
    let mut copied = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(rel) = name.strip_prefix("jp__") else {
            continue;
        };
        let path = root.join(".jp").join(rel.replace("__", "/"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(data.join(&name), &path).unwrap();
        copied += 1;
    }
    assert!(copied > 40, "JP's configuration files are missing");
    copied
}

/// Writes `text` to `root/rel`, creating directories.
pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The command line that starts `jp-kb ARGS` in `root` with the user's own
/// JP directories replaced by empty ones under `root`, then prints
/// `EXIT-<status>`.
pub fn tui_command(root: &Path, args: &str) -> String {
    let quoted = super::shell_quote(root);
    format!(
        "cd {quoted} && JP_GLOBAL_CONFIG_DIR={quoted}/.user-config JP_USER_DATA_DIR={quoted}/.user-data {} {args}; echo EXIT-$?",
        super::binary()
    )
}

/// The jp-kb topic of [`jp_workspace`], in `.jp/kb.toml`.
pub const KB: &str =
    "[kb.topic.docs]\ntitle = \"Docs\"\nsubjects = \"docs\"\nlearned = [\"rules/core\"]\n";

/// JP's configuration, a `docs` topic with a hidden directory and a
/// directory holding a pre-loaded hidden subject.
pub fn jp_workspace(tmux: &super::Tmux) -> std::path::PathBuf {
    let root = tmux.path("jp");
    copy_jp_config(&root);
    write(&root, ".jp/kb.toml", KB);
    write(&root, "docs/guide.md", "# Guide\n\nStart here.\n");
    write(&root, "docs/.hidden-dir/one.md", "one\n");
    write(&root, "docs/.hidden-dir/two.md", "two\n");
    write(&root, "docs/rules/.core.md", "Core rules, pre-loaded.\n");
    write(&root, "docs/rules/style.md", "Style.\n");
    root
}

/// `n` MCP tool files under `.jp/mcp/tools/` (JP's real configuration
/// extends `mcp/tools/**/*.toml`: 62 of them, one per tool).
pub fn mcp_tools(root: &Path, n: usize) {
    for i in 0..n {
        let server = ["github", "cargo", "fs", "git"][i % 4];
        write(
            root,
            &format!(".jp/mcp/tools/{server}/tool_{i:02}.toml"),
            &format!("[conversation.tools.{server}_tool_{i:02}]\nenable = true\n"),
        );
    }
}

pub fn kb_toml(root: &Path) -> String {
    std::fs::read_to_string(root.join(".jp/kb.toml")).unwrap()
}

pub fn start(tmux: &super::Tmux, root: &Path) {
    tmux.type_line(&tui_command(root, "tui"));
    tmux.wait_for("the docs topic", |s| s.contains("Subjects of docs"));
}

/// Selects the directory row `name/` in the subjects pane: filter by its
/// name, then the first row (a directory comes before its subjects).
pub fn select_directory(tmux: &super::Tmux, name: &str) {
    tmux.literal("/");
    tmux.literal(name);
    tmux.send(&["Enter"]);
    tmux.send(&["Home"]);
    tmux.wait_for(&format!("the {name}/ row selected"), |s| {
        s.contains(&format!("{name}/")) && s.contains("learn or disable the whole directory")
    });
}

/// JP's documentation in small (`docs/` of dcdpr/jp): the names around
/// `getting-started.md`, a hidden `.vitepress` directory first and RFD
/// drafts whose names hold the letters of `getting` scattered.
pub const JP_DOCS: &[&str] = &[
    ".vitepress/config.mts",
    ".vitepress/loaders/metadata.mjs",
    ".vitepress/loaders/rfd-board.data.js",
    ".vitepress/loaders/rfds.data.js",
    "README/providers.md",
    "architecture/knowledge-base.md",
    "features/contexts.md",
    "features/personas.md",
    "rfd/001-jp-rfd-process.md",
    "rfd/drafts/D18-plugin-event-subscriptions-and-query-delegation.md",
    "rfd/drafts/D36-live-workspace-view-for-long-running-plugin-hosts.md",
    "change-log.md",
    "configuration.md",
    "getting-started.md",
    "installation.md",
    "usage.md",
];

/// The jp-kb topic of [`jp_docs`].
pub const DOCS_KB: &str = "[kb.topic.docs]\ntitle = \"Docs\"\nsubjects = \"docs\"\n";

/// A workspace whose one topic is [`JP_DOCS`] under `docs/`.
pub fn jp_docs(root: &Path) {
    write(root, ".jp/kb.toml", DOCS_KB);
    for rel in JP_DOCS {
        write(root, &format!("docs/{rel}"), &format!("# {rel}\n"));
    }
}
