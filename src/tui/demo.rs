//! The bundled demo workspace (`assets/demo/`, embedded in the binary),
//! copied to a temporary directory so edits work and nothing of the
//! user's is touched.

use std::path::Path;

use include_dir::{Dir, include_dir};

static DEMO: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/demo");

/// Copies the demo into a new temporary directory (removed when the
/// returned value is dropped).
pub fn materialize() -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new().prefix("jp-kb-demo-").tempdir()?;
    DEMO.extract(dir.path())?;
    Ok(dir)
}

/// The line shown above the demo: that it is a copy deleted on quit (so
/// no one expects their edits to last) and, when it opened because no
/// workspace was found from `cwd`, how to start one (the how first: a
/// narrow terminal cuts the end of the line).
pub fn banner(asked: bool, cwd: &Path) -> String {
    if asked {
        "DEMO (--demo): a temporary copy of the bundled demo, deleted when you quit".to_owned()
    } else {
        format!(
            "DEMO, deleted when you quit: no workspace here; to start one, quit and run `jp-kb init`, then `n` adds topics (searched from {})",
            jp_kb_core::display::escape_name(&cwd.to_string_lossy())
        )
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn banner_says_the_copy_is_deleted_and_how_to_start_a_workspace() {
        let asked = super::banner(true, Path::new("/w"));
        assert!(asked.starts_with("DEMO (--demo): "), "{asked}");
        assert!(asked.contains("deleted when you quit"), "{asked}");
        assert!(!asked.contains("stay"), "{asked}");
        let none = super::banner(false, Path::new("/home/me/proj"));
        assert!(none.contains("deleted when you quit"), "{none}");
        assert!(
            none.contains("`jp-kb init`") && none.contains("`n`"),
            "{none}"
        );
        assert!(none.ends_with("(searched from /home/me/proj)"), "{none}");
    }

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
