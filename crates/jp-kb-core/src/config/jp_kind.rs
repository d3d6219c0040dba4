//! Which JP the workspace is used with: today's JP, beside which jp-kb
//! brings the knowledge base, or a JP with the knowledge base inside
//! (`integrations/jp`, `docs/jp-inside.md`). The host finds out (the
//! `jp-kb` binary asks the `jp` on `PATH`) and says it in the
//! [`super::Environment`]; the core only acts on the answer.

/// Which JP the workspace's knowledge reaches the model through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum JpKind {
    /// Today's JP (dcdpr/jp 4c1c39f1), or none found: JP refuses a `kb`
    /// table in its own files, so jp-kb keeps them in `kb.toml` files and
    /// brings JP the section through a generated layer and `learn` through
    /// `jp-kb mcp` (`jp-kb connect jp`).
    #[default]
    Beside,
    /// A JP with the knowledge base inside: it reads `kb` from its own
    /// files (and never a `kb.toml`), builds the `<knowledge>` section at
    /// each query and has `learn` built in. Nothing needs connecting.
    Inside,
}

impl JpKind {
    /// Whether JP itself reads the `kb` tables of the files it loads.
    pub fn reads_kb(self) -> bool {
        self == Self::Inside
    }
}
