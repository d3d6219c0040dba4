//! The server side: one model, loaded once, answering one client at a
//! time (a query takes milliseconds; a client that stalls is cut off after
//! [`super::ANSWER_TIMEOUT`]).

use std::fs::File;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::wire::{Hello, Reply, Request, SERVER, VERSION, receive, send};
use super::{ANSWER_TIMEOUT, ModelKey, Resident, ResidentError, file_identity, user_id};
use crate::{Model, Vectors};

/// How often an idle server looks at the clock and its socket.
const TICK: Duration = Duration::from_secs(1);

/// How a server ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Served {
    /// Another server already serves this model.
    AlreadyServed,
    /// No request came for the idle time.
    Idle,
    /// Its socket was removed or replaced.
    SocketGone,
    /// A client asked it to stop.
    Stopped,
}

pub fn serve(resident: &Resident, model: &Model, idle: Duration) -> Result<Served, ResidentError> {
    let key = ModelKey::of(model)?;
    let socket = resident.socket(&key)?;
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| ResidentError::Io { path, source }
    };
    // Only one server a name: the lock is held for the process's life.
    let lock_path = socket.with_extension("lock");
    let lock = File::create(&lock_path).map_err(io(&lock_path))?;
    match rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => {}
        Err(rustix::io::Errno::WOULDBLOCK) => return Ok(Served::AlreadyServed),
        Err(e) => return Err(io(&lock_path)(e.into())),
    }
    let hello = Hello {
        server: SERVER.to_owned(),
        version: VERSION,
        stamp: key.stamp_hex(),
        model: key.dir,
        dims: model.dims(),
    };
    // The query encoder is read before the socket exists: whoever
    // connects gets an answer in milliseconds. The search that asks
    // waits meanwhile: the second core is free.
    model.query_on_two_cores();
    model.embed_query("jp-kb").map_err(|e| ResidentError::Io {
        path: model.dir().to_owned(),
        source: std::io::Error::other(e.to_string()),
    })?;
    // A socket left by a server that died (this one holds the lock).
    match std::fs::remove_file(&socket) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&socket)(e)),
        _ => {}
    }
    let listener = UnixListener::bind(&socket).map_err(io(&socket))?;
    let ours = std::fs::symlink_metadata(&socket)
        .map_err(io(&socket))?
        .ino();
    let still_ours = || std::fs::symlink_metadata(&socket).is_ok_and(|m| m.ino() == ours);
    let mut last = Instant::now();
    let mut server = Server {
        model,
        hello: &hello,
        served: 0,
        kept: Vec::new(),
    };
    let ended = loop {
        if !still_ours() {
            break Served::SocketGone;
        }
        if last.elapsed() >= idle {
            break Served::Idle;
        }
        let tick = Timespec {
            tv_sec: i64::try_from(TICK.as_secs()).unwrap_or(1),
            tv_nsec: 0,
        };
        let mut fds = [PollFd::new(&listener, PollFlags::IN)];
        match poll(&mut fds, Some(&tick)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => {}
            Err(e) => return Err(io(&socket)(e.into())),
        }
        let Ok((stream, _)) = listener.accept() else {
            continue;
        };
        let idle_secs = last.elapsed().as_secs();
        last = Instant::now();
        if let Some(Request::Stop) = server.answer(&stream, idle_secs) {
            break Served::Stopped;
        }
    };
    if still_ours() {
        let _ = std::fs::remove_file(&socket);
    }
    drop(lock);
    Ok(ended)
}

/// Saved vectors files a server keeps, the most recently used first.
const KEPT: usize = 4;

/// What a server holds between requests.
struct Server<'a> {
    model: &'a Model,
    hello: &'a Hello,
    /// Texts embedded for clients.
    served: u64,
    /// Saved vectors files read: (path, identity, vectors).
    kept: Vec<(PathBuf, [u64; 5], Vectors)>,
}

impl Server<'_> {
    /// Greets one client and answers its request; the request, when one
    /// came.
    fn answer(&mut self, stream: &UnixStream, idle_secs: u64) -> Option<Request> {
        if !same_user(stream) {
            return None;
        }
        stream.set_read_timeout(Some(ANSWER_TIMEOUT)).ok()?;
        stream.set_write_timeout(Some(ANSWER_TIMEOUT)).ok()?;
        send(stream, self.hello).ok()?;
        let request: Request = receive(stream).ok()?;
        let reply = match &request {
            Request::Embed(text) => match self.embed(text) {
                Ok(vector) => Reply::Vector(bits(&vector)),
                Err(why) => Reply::Error(why),
            },
            Request::Rank {
                text,
                vectors,
                file,
                top,
            } => self.rank(text, vectors, *file, *top),
            Request::Stop => Reply::Stopping,
            Request::Status => Reply::Status {
                served: self.served,
                idle_secs,
            },
        };
        let _ = send(stream, &reply);
        Some(request)
    }

    fn embed(&mut self, text: &str) -> Result<Vec<f32>, String> {
        self.served += 1;
        self.model.embed_query(text).map_err(|e| e.to_string())
    }

    /// `text`'s vector and the `top` files of the vectors file at `path`
    /// ranked by it, when that file is still the one `file` describes
    /// (read once, then kept while it is).
    fn rank(&mut self, text: &str, path: &Path, file: [u64; 5], top: usize) -> Reply {
        let vector = match self.embed(text) {
            Ok(vector) => vector,
            Err(why) => return Reply::Error(why),
        };
        let at = match self
            .kept
            .iter()
            .position(|(p, f, _)| p == path && *f == file)
        {
            Some(at) => at,
            None => match Vectors::load_with_metadata(path, self.model) {
                Ok((vectors, read)) if file_identity(&read) == file => {
                    self.kept.truncate(KEPT - 1);
                    self.kept.insert(0, (path.to_owned(), file, vectors));
                    0
                }
                Ok(_) => return Reply::Error("the vectors file changed".to_owned()),
                Err(e) => return Reply::Error(format!("the vectors file: {e}")),
            },
        };
        let kept = self.kept.remove(at);
        let (scored, complete) = kept.2.search_top(&vector, top);
        self.kept.insert(0, kept);
        Reply::Ranked {
            vector: bits(&vector),
            ranked: scored
                .into_iter()
                .map(|s| (s.key, s.score.to_bits()))
                .collect(),
            complete,
        }
    }
}

fn bits(vector: &[f32]) -> Vec<u32> {
    vector.iter().map(|x| x.to_bits()).collect()
}

/// Whether the peer is this user (Linux; elsewhere the socket's private
/// directory is the guard).
fn same_user(stream: &UnixStream) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        rustix::net::sockopt::socket_peercred(stream.as_fd())
            .is_ok_and(|cred| cred.uid.as_raw() == user_id())
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = stream;
        true
    }
}
