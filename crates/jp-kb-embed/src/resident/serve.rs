//! The server side: one model, loaded once, answering one client at a
//! time (a query takes milliseconds; a client that stalls is cut off after
//! [`super::ANSWER_TIMEOUT`]).

use std::fs::File;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::wire::{Hello, Reply, Request, SERVER, VERSION, receive, send};
use super::{ANSWER_TIMEOUT, Resident, ResidentError, canonical_dir, user_id};
use crate::Model;

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
    let socket = resident.socket(model)?;
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
        model: canonical_dir(model)?,
        fingerprint: model.fingerprint(),
        dims: model.dims(),
    };
    // The whole encoder is read before the socket exists: whoever
    // connects gets an answer in milliseconds.
    model.embed(&["jp-kb"]).map_err(|e| ResidentError::Io {
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
    let mut served = 0u64;
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
        match answer(&stream, &hello, model, served, idle_secs) {
            Some(Request::Stop) => break Served::Stopped,
            Some(Request::Embed(_)) => served += 1,
            _ => {}
        }
    };
    if still_ours() {
        let _ = std::fs::remove_file(&socket);
    }
    drop(lock);
    Ok(ended)
}

/// Greets one client and answers its request; the request, when one came.
fn answer(
    stream: &UnixStream,
    hello: &Hello,
    model: &Model,
    served: u64,
    idle_secs: u64,
) -> Option<Request> {
    if !same_user(stream) {
        return None;
    }
    stream.set_read_timeout(Some(ANSWER_TIMEOUT)).ok()?;
    stream.set_write_timeout(Some(ANSWER_TIMEOUT)).ok()?;
    send(stream, hello).ok()?;
    let request: Request = receive(stream).ok()?;
    let reply = match &request {
        Request::Embed(text) => match model.embed(&[text.as_str()]) {
            Ok(mut vectors) => Reply::Vector(
                vectors
                    .pop()
                    .unwrap_or_default()
                    .iter()
                    .map(|x| x.to_bits())
                    .collect(),
            ),
            Err(e) => Reply::Error(e.to_string()),
        },
        Request::Stop => Reply::Stopping,
        Request::Status => Reply::Status { served, idle_secs },
    };
    let _ = send(stream, &reply);
    Some(request)
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
