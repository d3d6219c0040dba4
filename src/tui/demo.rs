//! The bundled demo workspace (`assets/demo/`, embedded in the binary),
//! copied to a temporary directory so edits work and nothing of the
//! user's is touched.

use include_dir::{Dir, include_dir};

static DEMO: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/demo");

/// Copies the demo into a new temporary directory (removed when the
/// returned value is dropped).
pub fn materialize() -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new().prefix("jp-kb-demo-").tempdir()?;
    DEMO.extract(dir.path())?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    #[test]
    fn demo_includes_hidden_files_and_a_binary() {
        let dir = super::materialize().unwrap();
        let root = dir.path();
        assert!(root.join(".jp/kb.toml").is_file());
        let png = std::fs::read(root.join(".jp/kb/formats/logo.png")).unwrap();
        assert!(png.contains(&0), "the demo PNG must be binary");
        assert!(root.join(".jp/kb/project/.internal-notes.md").is_file());
    }
}
