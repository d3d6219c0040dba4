//! The model server a one-off search uses when one is up
//! (`jp_kb_embed::resident`): `jp-kb model serve` runs one, `jp-kb model
//! stop` stops them, and a search that found none starts one for the
//! next search. `JP_KB_MODEL_SERVER=off` turns all of that off: every
//! search then loads the model itself. The decision and its guards are in
//! docs/decisions.md ("A model server for one-off searches").

use std::path::{Path, PathBuf};
use std::process::{Command as Process, ExitCode, Stdio};
use std::time::Duration;

use clap::Args;
use jp_kb_core::internal::search::semantic::Resident;
use jp_kb_embed::Model;
use jp_kb_embed::resident::{DEFAULT_IDLE, Served};

use super::output::CliError;

/// Set to `off` (or `0`, `false`, `no`): no search asks or starts a
/// model server.
pub const SERVER_VAR: &str = "JP_KB_MODEL_SERVER";

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The model directory (as `jp-kb search --model`).
    #[arg(long, value_name = "DIR")]
    pub model: PathBuf,
    /// Seconds without a request after which the server exits.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_IDLE.as_secs())]
    pub idle: u64,
}

/// This user's model servers, unless turned off.
pub fn resident() -> Option<Resident> {
    if std::env::var(SERVER_VAR).is_ok_and(|v| is_off(&v)) {
        return None;
    }
    Resident::of_user().ok()
}

fn is_off(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "off" | "0" | "false" | "no"
    )
}

/// Starts a server for the model in `dir` for the next searches: a
/// process of its own (its own process group: a Ctrl-C meant for the
/// search does not reach it), with nothing of this one's terminal or
/// pipes, in `/`. It exits by itself when idle. Failing to start it
/// changes nothing for this search.
pub fn start(dir: &Path) {
    use std::os::unix::process::CommandExt;
    let (Ok(exe), Ok(dir)) = (std::env::current_exe(), std::fs::canonicalize(dir)) else {
        return;
    };
    let _ = Process::new(exe)
        .args(["model", "serve", "--model"])
        .arg(dir)
        // The server embeds queries with the query encoder, which shares
        // each product with one helper thread of its own (the asking
        // search waits meanwhile); candle's thread pool, which it does not
        // use for queries, is kept to one thread.
        .env("RAYON_NUM_THREADS", "1")
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
}

/// `jp-kb model serve`: serves the model until idle, stopped, or its
/// socket is removed.
pub fn serve(args: &ServeArgs) -> Result<ExitCode, CliError> {
    let resident = Resident::of_user().map_err(|e| CliError::runtime(e.to_string()))?;
    let model = Model::load(&args.model).map_err(|e| CliError::runtime(e.to_string()))?;
    let socket = resident
        .socket(
            &jp_kb_embed::resident::ModelKey::of(&model)
                .map_err(|e| CliError::runtime(e.to_string()))?,
        )
        .map_err(|e| CliError::runtime(e.to_string()))?;
    eprintln!(
        "serving {} on {} (exits after {} s without a request, or at `jp-kb model stop`)",
        args.model.display(),
        socket.display(),
        args.idle
    );
    let served = resident
        .serve(&model, Duration::from_secs(args.idle))
        .map_err(|e| CliError::runtime(e.to_string()))?;
    eprintln!(
        "{}",
        match served {
            Served::AlreadyServed => "another server already serves this model",
            Served::Idle => "no request for the idle time: stopped",
            Served::SocketGone => "its socket was removed or replaced: stopped",
            _ => "asked to stop: stopped",
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// `jp-kb model status`: the model servers of this user, what each
/// serves and has done.
pub fn status() -> Result<ExitCode, CliError> {
    let resident = Resident::of_user().map_err(|e| CliError::runtime(e.to_string()))?;
    let servers = resident.status_all();
    if servers.is_empty() {
        println!("no model server is running ({})", resident.dir().display());
    }
    for server in servers {
        println!(
            "{}: {} quer{} served, idle {} s ({})",
            server.model.display(),
            server.served,
            if server.served == 1 { "y" } else { "ies" },
            server.idle_secs,
            server.socket.display()
        );
    }
    if std::env::var(SERVER_VAR).is_ok_and(|v| is_off(&v)) {
        println!("{SERVER_VAR} is off: searches neither ask nor start one");
    }
    Ok(ExitCode::SUCCESS)
}

/// `jp-kb model stop`: stops every model server of this user.
pub fn stop() -> Result<ExitCode, CliError> {
    let resident = Resident::of_user().map_err(|e| CliError::runtime(e.to_string()))?;
    let stopped = resident.stop_all();
    println!(
        "stopped {stopped} model server{} ({})",
        if stopped == 1 { "" } else { "s" },
        resident.dir().display()
    );
    Ok(ExitCode::SUCCESS)
}
