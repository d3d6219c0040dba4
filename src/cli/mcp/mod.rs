//! `jp-kb mcp`: serves the workspace's knowledge base over MCP on stdio.
//! stdout carries only protocol messages; everything else goes to stderr.
//! The one write: at start, the workspace's generated client files that
//! are out of date are rewritten (contract §8, "Fresh"; never a file the
//! person owns).

mod server;
mod usage;

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use clap::builder::TypedValueParser as _;
use jp_kb_core::internal::config::ConfigWatch;
use jp_kb_core::mcp::{InstructionsMode, Workspace};
use rmcp::service::{Peer, RoleServer, ServiceExt};

use super::output::{CliError, print_config_warnings};
pub use server::KbServer;

/// How often the configuration files are checked for changes.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

#[derive(Debug, Args)]
pub struct McpArgs {
    /// What the server instructions carry: the whole <knowledge> section
    /// (`full`), only its topic menu (`menu`), or nothing (`none`).
    #[arg(long, value_name = "MODE", default_value_t = InstructionsMode::Full,
          value_parser = clap::builder::PossibleValuesParser::new(InstructionsMode::NAMES)
              .map(|s| s.parse::<InstructionsMode>().unwrap_or_default()))]
    pub instructions: InstructionsMode,
    /// Also offer a `search` tool: ranked search over the subjects the
    /// assistant may learn (hidden and disabled ones never appear).
    #[arg(long)]
    pub search: bool,
    /// Record nothing in the usage ledger (also: `kb.usage = false` in
    /// any configuration layer). See `jp-kb usage`.
    #[arg(long)]
    pub no_usage: bool,
    /// The client that starts this server, as `connect` sets it up: the
    /// usage ledger names it. For jp, the server
    /// also says in `learn` answers when the section JP read is older than
    /// the knowledge base, and keeps `learn` listed while JP declares it.
    #[arg(long, value_name = "NAME", value_parser = super::connect::client_names())]
    pub client: Option<String>,
    /// Started by JP for its workspace with this id (`.jp/.id`; what
    /// `connect jp` writes in JP's user-workspace layer): serve the
    /// checkout JP runs for, also when JP runs from elsewhere (`jp -w DIR`).
    #[arg(long, value_name = "ID")]
    pub jp_workspace_id: Option<String>,
}

/// Runs the server until the client disconnects. It starts even when there
/// is no workspace or the configuration does not load: a client shows
/// nothing of a server that exits at start-up, so the reason goes into the
/// instructions and every `learn` answer instead, and the server recovers
/// by itself once the configuration is fixed.
pub fn run(workspace: Workspace, args: &McpArgs) -> Result<ExitCode, CliError> {
    let profile = args
        .client
        .as_deref()
        .map(jp_kb_core::clients::profile)
        .transpose()
        .map_err(CliError::usage)?;
    let workspace = match &args.jp_workspace_id {
        Some(id) => workspace.for_jp(id),
        None => workspace,
    };
    let for_jp = profile
        .as_ref()
        .filter(|p| p.id == jp_kb_core::clients::Client::JP.name());
    // What JP read, before the refresh below rewrites a stale copy.
    let mut jp_copy = None;
    match workspace.load() {
        Ok(kb) => {
            print_config_warnings(&kb);
            if let Some(jp) = for_jp {
                jp_copy = jp_kb_core::internal::clients::jp::copy::read(&kb, jp);
            }
            // Only without --cfg/-k: generated files hold the workspace's
            // own configuration.
            if workspace.options.cfg.is_empty() && workspace.options.knowledge.is_empty() {
                for line in jp_kb_core::clients::refresh_generated(&kb) {
                    eprintln!("jp-kb mcp: {}", jp_kb_core::display::escape_lines(&line));
                }
            }
            eprintln!(
                "jp-kb mcp: serving the knowledge base of {} on stdio",
                kb.root().display()
            );
        }
        Err(e) => eprintln!(
            "jp-kb mcp: serving on stdio, but the knowledge base is unavailable until this is fixed: {}",
            jp_kb::hints::config_error(&e)
        ),
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::runtime(format!("cannot start the async runtime: {e}")))?;
    let usage = if args.no_usage {
        None
    } else {
        usage::UsageLog::start(
            workspace.env.user_data_dir.clone(),
            profile.as_ref().map(|p| p.name.clone()),
        )
    };
    let server = KbServer::new(workspace.clone(), args.instructions).with_usage(usage.clone());
    let server = if args.search {
        server.with_search()
    } else {
        server
    };
    let server = if for_jp.is_some() {
        server.for_jp(jp_copy)
    } else {
        server
    };
    let code = runtime.block_on(serve(workspace, server));
    // Whatever is queued is written before the process ends.
    if let Some(usage) = usage {
        usage.finish();
    }
    // Do not wait for a blocked stdin read once the service is over.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(code)
}

async fn serve(workspace: Workspace, server: KbServer) -> ExitCode {
    let watch = ConfigWatch::new(workspace.env.clone(), workspace.options.clone());
    let running = match server.serve(rmcp::transport::stdio_pipes()).await {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("jp-kb mcp: the client did not complete the handshake: {e}");
            return ExitCode::from(1);
        }
    };
    let watcher = tokio::spawn(announce_changes(watch, workspace, running.peer().clone()));
    let quit = running.waiting().await;
    watcher.abort();
    if let Err(e) = quit {
        eprintln!("jp-kb mcp: the server stopped: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Polls the configuration and tells the client its tool, prompt and
/// resource lists may have changed whenever a configuration file changes
/// or the knowledge base becomes loadable or unloadable. While it cannot
/// be loaded, loading is retried every tick: a workspace that does not
/// exist yet has no files to watch.
async fn announce_changes(mut watch: ConfigWatch, workspace: Workspace, peer: Peer<RoleServer>) {
    let mut ticker = tokio::time::interval(POLL_INTERVAL);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut broken = workspace.config_loads().is_err();
    loop {
        ticker.tick().await;
        let mut changed = watch.changed();
        if changed || broken {
            let now_broken = workspace.config_loads().is_err();
            if now_broken != broken {
                eprintln!(
                    "jp-kb mcp: the knowledge base is {}",
                    if now_broken {
                        "unavailable"
                    } else {
                        "available again"
                    }
                );
                broken = now_broken;
                changed = true;
            }
        }
        if !changed {
            continue;
        }
        let sent = peer.notify_tool_list_changed().await.is_ok()
            && peer.notify_resource_list_changed().await.is_ok()
            && peer.notify_prompt_list_changed().await.is_ok();
        if !sent {
            return;
        }
    }
}
