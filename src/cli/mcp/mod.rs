//! `jp-kb mcp`: serves the workspace's knowledge base over MCP on stdio.
//! stdout carries only protocol messages; everything else goes to stderr.
//! Nothing is ever written to disk.

mod server;

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use jp_kb::KnowledgeBase;
use jp_kb::config::ConfigWatch;
use jp_kb::mcp::Workspace;
use rmcp::service::{Peer, RoleServer, ServiceExt};

use super::output::CliError;
pub use server::KbServer;

/// How often the configuration files are checked for changes.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Also offer a `search` tool: ranked search over the subjects the
    /// assistant may learn (hidden and disabled ones never appear).
    #[arg(long)]
    pub search: bool,
}

/// Runs the server until the client disconnects. `kb` is the knowledge
/// base as loaded at start (its configuration warnings are already printed):
/// a missing workspace or a broken configuration fails here, visibly in the
/// client's server log; later errors are reported per request.
pub fn run(kb: &KnowledgeBase, workspace: Workspace, args: &McpArgs) -> Result<ExitCode, CliError> {
    eprintln!(
        "jp-kb mcp: serving the knowledge base of {} on stdio",
        kb.root().display()
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::runtime(format!("cannot start the async runtime: {e}")))?;
    let code = runtime.block_on(serve(workspace, args.search));
    // Do not wait for a blocked stdin read once the service is over.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(code)
}

async fn serve(workspace: Workspace, search: bool) -> ExitCode {
    let watch = ConfigWatch::new(workspace.env.clone(), workspace.options.clone());
    let server = KbServer::new(workspace);
    let server = if search { server.with_search() } else { server };
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
    let watcher = tokio::spawn(announce_config_changes(watch, running.peer().clone()));
    let quit = running.waiting().await;
    watcher.abort();
    if let Err(e) = quit {
        eprintln!("jp-kb mcp: the server stopped: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Polls the configuration files and tells the client its tool and
/// resource lists may have changed whenever one of them does.
async fn announce_config_changes(mut watch: ConfigWatch, peer: Peer<RoleServer>) {
    let mut ticker = tokio::time::interval(POLL_INTERVAL);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        ticker.tick().await;
        if !watch.changed() {
            continue;
        }
        let sent = peer.notify_tool_list_changed().await.is_ok()
            && peer.notify_resource_list_changed().await.is_ok();
        if !sent {
            return;
        }
    }
}
