//! A model kept loaded between one-off searches: `jp-kb model serve`.
//!
//! Why: a search by meaning as a process spends most of its time making
//! the model usable (parsing the tokenizer, reading the encoder's 42 MB
//! of weights: ~60 ms on the bench machine); a loaded model embeds a
//! query in ~5 ms (`one_text`). So a one-off search asks a server of this user for its
//! query's vector, and embeds it itself when none answers.
//!
//! - **Who may connect.** Sockets live in a directory of this user only
//!   ([`Resident::of_user`]: `$XDG_RUNTIME_DIR/jp-kb`, else
//!   `jp-kb-UID` in the temporary directory), checked before every use:
//!   a directory (not a link), owned by this user, mode `0700`. Anyone
//!   else cannot create or reach a socket there; the server also refuses
//!   a peer of another user (Linux: `SO_PEERCRED`).
//! - **Which model.** A socket is named by a digest of the model
//!   directory's canonical path and the stamp of its files
//!   ([`crate::files_stamp`]: each file's length, time, inode and device),
//!   and the server says both when a client connects; the client uses its
//!   answer only when both are its own ([`ModelKey`]). A server's stamp is
//!   that of the files it read (the model refuses files that changed
//!   while it read them), so a search needs only a few `stat`s, not the
//!   model, to find the server of the files there now. A model that
//!   changes on disk gets a new name (and a new server); a workspace
//!   naming another directory never reaches this one's server.
//! - **Lifetime.** A server exits after its idle time without a request,
//!   when its socket is removed or replaced, or when asked to stop
//!   (`jp-kb model stop`). Only one serves a name: it holds a lock file
//!   beside its socket.
//! - **What it answers.** Only the vector of one text (exact f32 bits);
//!   every answer is checked (its length, finite values) and any failure
//!   or a silence longer than [`ANSWER_TIMEOUT`] means the client embeds
//!   the text itself.

mod ask;
mod serve;
mod wire;

use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::Model;

pub use ask::{AskError, Pending, Ranked, ServerStatus};
pub use serve::Served;

pub use crate::read::file_identity;

/// How long a client waits for a server's greeting and its answer before
/// embedding the text itself (a query of the model's full length takes
/// ~0.1 s).
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(2);

/// The longest socket path every Unix takes.
const MAX_SOCKET_PATH: usize = 103;

/// How long a server stays up without a request, by default.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(600);

/// This user's directory of model servers.
#[derive(Debug, Clone)]
pub struct Resident {
    dir: PathBuf,
}

/// Why no server can be used or started here.
#[derive(Debug, thiserror::Error)]
pub enum ResidentError {
    /// No directory for the sockets is known.
    #[error("no directory for model servers is known (set XDG_RUNTIME_DIR)")]
    NoDirectory,
    /// The directory exists but is not this user's alone.
    #[error("{dir} is not a private directory of this user ({why}); model servers are not used")]
    NotPrivate {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The socket's path is longer than a Unix socket's address holds: no
    /// server can listen there (and none is started, search after search).
    #[error("{0} is too long for a socket's address; set XDG_RUNTIME_DIR to a shorter directory")]
    TooLong(PathBuf),
    /// The directory, a socket or a lock file cannot be made or read.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl Resident {
    /// This user's directory: `$XDG_RUNTIME_DIR/jp-kb` when that variable
    /// names an absolute directory, else `jp-kb-UID` in the temporary
    /// directory; made (mode `0700`) when missing, then checked.
    pub fn of_user() -> Result<Self, ResidentError> {
        let runtime = std::env::var_os("XDG_RUNTIME_DIR")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        let dir = if let Some(runtime) = runtime {
            runtime.join("jp-kb")
        } else {
            let tmp = std::env::temp_dir();
            if !tmp.is_absolute() {
                return Err(ResidentError::NoDirectory);
            }
            tmp.join(format!("jp-kb-{}", user_id()))
        };
        Self::in_dir(&dir)
    }

    /// The servers in `dir` (made when missing, then checked as in
    /// [`Resident::of_user`]).
    pub fn in_dir(dir: &Path) -> Result<Self, ResidentError> {
        private_dir(dir)?;
        Ok(Self {
            dir: dir.to_owned(),
        })
    }

    /// The directory of the sockets.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The socket of the server of the model `key` names: named by its
    /// directory's canonical path, its files' stamp, and this program's
    /// file (a server started by another build of jp-kb, which may embed
    /// differently, is not asked).
    pub fn socket(&self, key: &ModelKey) -> Result<PathBuf, ResidentError> {
        let mut digest = Sha256::new();
        digest.update(key.dir.as_os_str().as_encoded_bytes());
        digest.update(key.stamp);
        digest.update(program_identity());
        let name = digest
            .finalize()
            .iter()
            .take(8)
            .fold(String::new(), |mut name, b| {
                use std::fmt::Write;
                let _ = write!(name, "{b:02x}");
                name
            });
        let socket = self.dir.join(format!("model-{name}.sock"));
        // `sun_path` holds 108 bytes with its final NUL on Linux (104 on
        // the BSDs and macOS).
        if socket.as_os_str().len() > MAX_SOCKET_PATH {
            return Err(ResidentError::TooLong(socket));
        }
        Ok(socket)
    }

    /// Sends `text` to the server of the model `key` names, if one is up
    /// for these very files; [`Pending::answer`] reads its vector.
    pub fn ask(&self, key: &ModelKey, text: &str) -> Result<Pending, AskError> {
        ask::ask(self, key, text)
    }

    /// Sends `text` to `key`'s server to rank the saved vectors at
    /// `vectors` by it, if that file is still the one `file` describes
    /// (the server keeps the vectors it read: a one-off search then reads
    /// none of them); [`Pending::ranked`] reads the answer, its `top`
    /// best files.
    pub fn ask_ranked(
        &self,
        key: &ModelKey,
        text: &str,
        vectors: &Path,
        file: &std::fs::Metadata,
        top: usize,
    ) -> Result<Pending, AskError> {
        ask::ask_ranked(self, key, text, vectors, file, top)
    }

    /// The vector of `text` from `key`'s server, if one is up and answers
    /// for these very files in time.
    pub fn embed(&self, key: &ModelKey, text: &str) -> Result<Vec<f32>, AskError> {
        self.ask(key, text)?.answer()
    }

    /// Serves `model` on its socket until idle for `idle`, its socket is
    /// removed or replaced, or a client asks it to stop. Returns at once
    /// when another server already serves it.
    pub fn serve(&self, model: &Model, idle: Duration) -> Result<Served, ResidentError> {
        serve::serve(self, model, idle)
    }

    /// What every server in the directory says of itself.
    pub fn status_all(&self) -> Vec<ServerStatus> {
        ask::status_all(self)
    }

    /// Asks every server in the directory to stop; returns how many did.
    pub fn stop_all(&self) -> usize {
        ask::stop_all(self)
    }
}

/// This program's file: its device, inode, length and time (a rebuilt or
/// upgraded jp-kb is another file). Empty when it cannot be known.
fn program_identity() -> Vec<u8> {
    use std::os::unix::fs::MetadataExt;
    let Some(file) = std::env::current_exe()
        .ok()
        .and_then(|exe| std::fs::metadata(exe).ok())
    else {
        return Vec::new();
    };
    [
        file.dev(),
        file.ino(),
        file.len(),
        file.mtime().cast_unsigned(),
    ]
    .iter()
    .flat_map(|n| n.to_le_bytes())
    .collect()
}

/// What names a model's server: its directory as the server and its
/// clients both name it (canonical), the stamp of its files, and the
/// length of its vectors (`None`: its config cannot be read, and no
/// greeting is believed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelKey {
    dir: PathBuf,
    stamp: [u8; 32],
    dims: Option<usize>,
}

impl ModelKey {
    /// `model`, as it read its files.
    pub fn of(model: &Model) -> Result<Self, ResidentError> {
        Ok(Self {
            dir: canonical(model.dir())?,
            stamp: model.stamp(),
            dims: Some(model.dims()),
        })
    }

    /// The model in `dir` as its files are now, without loading it (a
    /// search that a server answers reads only its `config.json`, for the
    /// vectors' length).
    pub fn on_disk(dir: &Path) -> Result<Self, ResidentError> {
        let dir = canonical(dir)?;
        Ok(Self {
            stamp: crate::files_stamp(&dir),
            dims: crate::config_dims(&dir),
            dir,
        })
    }

    /// The canonical directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stamp, as the greeting spells it.
    fn stamp_hex(&self) -> String {
        self.stamp.iter().fold(String::new(), |mut hex, b| {
            use std::fmt::Write;
            let _ = write!(hex, "{b:02x}");
            hex
        })
    }
}

fn canonical(dir: &Path) -> Result<PathBuf, ResidentError> {
    std::fs::canonicalize(dir).map_err(|source| ResidentError::Io {
        path: dir.to_owned(),
        source,
    })
}

fn user_id() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Makes `dir` (mode `0700`) when missing, then checks it is a directory
/// of this user's only: not a link, owned by this user, no access for
/// group or others.
fn private_dir(dir: &Path) -> Result<(), ResidentError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let io = |source| ResidentError::Io {
        path: dir.to_owned(),
        source,
    };
    let meta = match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // Parents too (a `XDG_RUNTIME_DIR` not made yet), this user's.
            match std::fs::DirBuilder::new()
                .mode(0o700)
                .recursive(true)
                .create(dir)
            {
                Ok(()) => {}
                // Made by another process meanwhile: checked below.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io(e)),
            }
            std::fs::symlink_metadata(dir).map_err(io)?
        }
        other => other.map_err(io)?,
    };
    let not_private = |why: String| ResidentError::NotPrivate {
        dir: dir.to_owned(),
        why,
    };
    if meta.file_type().is_symlink() {
        return Err(not_private("a symbolic link".to_owned()));
    }
    if !meta.is_dir() {
        return Err(not_private("not a directory".to_owned()));
    }
    if meta.uid() != user_id() {
        return Err(not_private(format!("owned by user {}", meta.uid())));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(not_private(format!(
            "mode {:o}: others may enter it",
            meta.mode() & 0o777
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn only_a_private_directory_of_this_user_is_used() {
        let tmp = tempfile::tempdir().unwrap();
        let made = tmp.path().join("a/b/jp-kb");
        assert!(Resident::in_dir(&made).is_ok(), "made, parents too");
        let bits = std::fs::metadata(&made).unwrap().permissions().mode();
        assert_eq!(bits & 0o777, 0o700);
        std::fs::set_permissions(&made, std::fs::Permissions::from_mode(0o750)).unwrap();
        assert!(matches!(
            Resident::in_dir(&made),
            Err(ResidentError::NotPrivate { .. })
        ));
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(tmp.path(), &link).unwrap();
        assert!(matches!(
            Resident::in_dir(&link),
            Err(ResidentError::NotPrivate { .. })
        ));
        let file = tmp.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert!(matches!(
            Resident::in_dir(&file),
            Err(ResidentError::NotPrivate { .. })
        ));
    }
}
