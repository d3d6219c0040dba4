//! The client side: ask a server for a text's vector, or every server to
//! stop.

use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

use super::wire::{Hello, Reply, Request, SERVER, VERSION, receive, send};
use super::{ANSWER_TIMEOUT, ModelKey, Resident, ResidentError};
use crate::Scored;

/// Why a server gave no vector (the client then embeds the text itself).
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// No server is up for this model (no socket, or nobody listening).
    #[error("no model server is up")]
    NotUp,
    /// The directory or the model's path cannot be used.
    #[error(transparent)]
    Resident(#[from] ResidentError),
    /// The server answered for another model, or not as a model server.
    #[error("the model server at its socket serves something else")]
    Mismatch,
    /// The exchange failed or timed out.
    #[error("the model server did not answer ({0})")]
    Io(std::io::Error),
    /// The model failed on the text in the server.
    #[error("the model server failed: {0}")]
    Failed(String),
}

impl AskError {
    /// Whether starting a server would help: none is up for this model.
    pub fn not_up(&self) -> bool {
        matches!(self, Self::NotUp)
    }
}

/// A text sent to a server, its answer not read yet: the asker does
/// other work while the server computes.
#[derive(Debug)]
pub struct Pending {
    stream: UnixStream,
    dims: usize,
}

/// A server's ranking of a saved vectors file ([`Resident::ask_ranked`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Ranked {
    /// The text's vector.
    pub vector: Vec<f32>,
    /// The best files, best first.
    pub scored: Vec<Scored>,
    /// Every file of the saved vectors is in `scored`.
    pub complete: bool,
}

impl Pending {
    /// The server's answer to [`Resident::ask`]: the text's vector,
    /// checked.
    pub fn answer(self) -> Result<Vec<f32>, AskError> {
        match receive(&self.stream).map_err(AskError::Io)? {
            Reply::Vector(bits) => self.vector(bits),
            Reply::Error(why) => Err(AskError::Failed(why)),
            _ => Err(AskError::Mismatch),
        }
    }

    /// The server's answer to [`Resident::ask_ranked`], checked: the
    /// vector's length, every number finite, the ranking best first.
    pub fn ranked(self) -> Result<Ranked, AskError> {
        match receive(&self.stream).map_err(AskError::Io)? {
            Reply::Ranked {
                vector,
                ranked,
                complete,
            } => {
                let vector = self.vector(vector)?;
                let scored: Vec<Scored> = ranked
                    .into_iter()
                    .map(|(key, bits)| Scored {
                        key,
                        score: f32::from_bits(bits),
                    })
                    .collect();
                let ordered = scored.windows(2).all(|w| w[0].score >= w[1].score);
                if !ordered || !scored.iter().all(|s| s.score.is_finite()) {
                    return Err(AskError::Mismatch);
                }
                Ok(Ranked {
                    vector,
                    scored,
                    complete,
                })
            }
            Reply::Error(why) => Err(AskError::Failed(why)),
            _ => Err(AskError::Mismatch),
        }
    }

    fn vector(&self, bits: Vec<u32>) -> Result<Vec<f32>, AskError> {
        let vector: Vec<f32> = bits.into_iter().map(f32::from_bits).collect();
        if vector.len() != self.dims || !vector.iter().all(|x| x.is_finite()) {
            return Err(AskError::Mismatch);
        }
        Ok(vector)
    }
}

pub fn ask(resident: &Resident, key: &ModelKey, text: &str) -> Result<Pending, AskError> {
    send_request(resident, key, &Request::Embed(text.to_owned()))
}

pub fn ask_ranked(
    resident: &Resident,
    key: &ModelKey,
    text: &str,
    vectors: &Path,
    file: &std::fs::Metadata,
    top: usize,
) -> Result<Pending, AskError> {
    let request = Request::Rank {
        text: text.to_owned(),
        vectors: vectors.to_owned(),
        file: super::file_identity(file),
        top,
    };
    send_request(resident, key, &request)
}

/// Connects to `key`'s server, checks its greeting, sends `request`.
fn send_request(
    resident: &Resident,
    key: &ModelKey,
    request: &Request,
) -> Result<Pending, AskError> {
    let dims = key.dims.ok_or(AskError::Mismatch)?;
    let socket = resident.socket(key)?;
    let stream = UnixStream::connect(&socket).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused => AskError::NotUp,
        _ => AskError::Io(e),
    })?;
    stream
        .set_read_timeout(Some(ANSWER_TIMEOUT))
        .map_err(AskError::Io)?;
    stream
        .set_write_timeout(Some(ANSWER_TIMEOUT))
        .map_err(AskError::Io)?;
    let hello: Hello = receive(&stream).map_err(AskError::Io)?;
    let expected = Hello {
        server: SERVER.to_owned(),
        version: VERSION,
        model: key.dir.clone(),
        stamp: key.stamp_hex(),
        dims,
    };
    if hello != expected {
        return Err(AskError::Mismatch);
    }
    send(&stream, request).map_err(AskError::Io)?;
    Ok(Pending { stream, dims })
}

/// A running server, as it says.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerStatus {
    /// Its socket.
    pub socket: PathBuf,
    /// The model directory it serves (canonical).
    pub model: PathBuf,
    /// Texts it embedded for searches.
    pub served: u64,
    /// Seconds since its last request (before this one).
    pub idle_secs: u64,
}

/// The sockets of the servers in the directory.
fn sockets(resident: &Resident) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(resident.dir()) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("model-") && name.ends_with(".sock")
        })
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

/// Sends `request` to the server at `socket`; its greeting and reply.
fn exchange(socket: &Path, request: &Request) -> Option<(Hello, Reply)> {
    let stream = UnixStream::connect(socket).ok()?;
    stream.set_read_timeout(Some(ANSWER_TIMEOUT)).ok()?;
    stream.set_write_timeout(Some(ANSWER_TIMEOUT)).ok()?;
    let hello: Hello = receive(&stream).ok()?;
    if hello.server != SERVER {
        return None;
    }
    send(&stream, request).ok()?;
    Some((hello, receive(&stream).ok()?))
}

pub fn status_all(resident: &Resident) -> Vec<ServerStatus> {
    sockets(resident)
        .into_iter()
        .filter_map(|socket| match exchange(&socket, &Request::Status)? {
            (hello, Reply::Status { served, idle_secs }) => Some(ServerStatus {
                socket,
                model: hello.model,
                served,
                idle_secs,
            }),
            _ => None,
        })
        .collect()
}

pub fn stop_all(resident: &Resident) -> usize {
    sockets(resident)
        .iter()
        .filter(|socket| matches!(exchange(socket, &Request::Stop), Some((_, Reply::Stopping))))
        .count()
}
