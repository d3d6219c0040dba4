//! What a model server and its client say: one JSON object a line. The
//! server greets, the client asks once, the server answers. Vectors go as
//! the bits of each f32, so the client gets exactly what was computed.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// What a server is, said when a client connects.
pub const SERVER: &str = "jp-kb model server";

/// The wire's version; a client ignores a server of another.
pub const VERSION: u32 = 2;

/// The longest line either side reads: a query of a few kilobytes, or a
/// vector of a few thousand floats.
const MAX_LINE: u64 = 1 << 20;

/// The server's greeting: which model it serves.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Hello {
    pub server: String,
    pub version: u32,
    /// The model directory's canonical path.
    pub model: PathBuf,
    /// The stamp of the model's files as the server read them
    /// ([`crate::files_stamp`]), in hexadecimal.
    pub stamp: String,
    pub dims: usize,
}

/// A client's request.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// The vector of this text.
    Embed(String),
    /// The vector of this text, and the files of a saved vectors file
    /// ranked by it (the `top` best), when the file at `vectors` is still
    /// the one whose identity is `file` ([`super::file_identity`]).
    Rank {
        text: String,
        vectors: PathBuf,
        file: [u64; 5],
        top: usize,
    },
    /// Stop serving.
    Stop,
    /// What the server has done.
    Status,
}

/// The server's answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The text's vector, each f32 as its bits.
    Vector(Vec<u32>),
    /// The text's vector and the file's ranking: (key, score bits), best
    /// first; `complete` when every file is in it.
    Ranked {
        vector: Vec<u32>,
        ranked: Vec<(String, u32)>,
        complete: bool,
    },
    /// The model failed on the text, or the vectors file cannot be used.
    Error(String),
    /// The server stops.
    Stopping,
    /// Texts embedded for clients, and seconds since the last request.
    Status { served: u64, idle_secs: u64 },
}

/// Writes `message` as one line.
pub fn send<T: Serialize>(mut to: impl Write, message: &T) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    to.write_all(&line)?;
    to.flush()
}

/// Reads one line of at most [`MAX_LINE`] bytes as a `T`.
pub fn receive<T: for<'de> Deserialize<'de>>(from: impl Read) -> std::io::Result<T> {
    let mut line = Vec::new();
    BufReader::new(from.take(MAX_LINE)).read_until(b'\n', &mut line)?;
    if line.last() != Some(&b'\n') {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the line is cut or too long",
        ));
    }
    serde_json::from_slice(&line)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}
