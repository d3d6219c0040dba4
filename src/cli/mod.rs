//! The command line: argument definitions and dispatch. Each command lives
//! in its own file and only parses, calls the library and prints.

mod check;
mod connect;
mod edits;
mod generate;
mod init;
mod init_plan;
mod learn;
mod learned;
mod list;
mod mcp;
mod migrate;
#[cfg(feature = "semantic")]
mod model;
mod output;
mod prompt;
mod schema;
mod search;
#[cfg(feature = "semantic")]
mod search_mode;
mod topic;
mod tui;
mod usage;
mod usage_stale;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jp_kb_core::KnowledgeBase;
use jp_kb_core::edit::plan::List;
use jp_kb_core::{ConfigError, Environment, LoadOptions};

pub use output::CliError;

const AFTER_HELP: &str = "\
Examples:
  jp-kb list                              topics, with subject counts
  jp-kb list project --all                every subject of `project`, hidden and disabled too
  jp-kb prompt                            the <knowledge> section the assistant gets
  jp-kb -k 'project/maintainers/*' prompt the same, with maintainers pre-loaded
  jp-kb learn project                     what `learn(topic: \"project\")` returns
  jp-kb learn project 'maintainers/*'     what loading those subjects returns
  jp-kb schema                            the `learn` tool definition
  jp-kb search extract archive           subjects ranked by those words (hits across topics)
  jp-kb check --deny-warnings             lint the knowledge base (for CI)
  jp-kb mcp                               serve all of the above to any assistant over MCP (stdio)

Configuration is read the way JP reads it: user-global config, .jp/config.toml
(with `extends`), .jp.toml files up to the current directory, the
user-workspace config, then --cfg values and -k flags. Each configuration
directory's kb.toml (a file JP does not load) is read right after its config.";

/// Curate the knowledge base of the JP assistant and see exactly what it is shown.
#[derive(Debug, Parser)]
#[command(name = "jp-kb", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    /// Workspace root (default: the nearest directory upwards holding `.jp/`).
    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    /// A config override: `key=value`, `key+=item`, `key:=JSON`, a config
    /// file, or a name searched in `config_load_paths`. Repeatable.
    #[arg(long = "cfg", global = true, value_name = "VALUE")]
    pub cfg: Vec<String>,

    /// Pre-load subjects: `TOPIC/GLOB`, appended to that topic's `learned`.
    /// Repeatable.
    #[arg(
        short = 'k',
        long = "knowledge",
        global = true,
        value_name = "TOPIC/GLOB"
    )]
    pub knowledge: Vec<String>,

    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// What the global options add to loading: `--workspace`, then every
    /// `--cfg` and `-k` in order.
    pub fn load_options(&self) -> LoadOptions {
        let options = self.workspace_options();
        let options = self.cfg.iter().fold(options, LoadOptions::cfg);
        self.knowledge.iter().fold(options, LoadOptions::knowledge)
    }

    /// `--workspace` alone, without this command line's overrides.
    pub fn workspace_options(&self) -> LoadOptions {
        match &self.workspace {
            Some(dir) => LoadOptions::default().workspace(dir),
            None => LoadOptions::default(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List topics, or the subjects of one topic with their states and sizes.
    #[command(after_help = "\
Markers: L learned (pre-loaded into the system prompt), H hidden (loadable only by
exact slug), D disabled (never shown). `list` reads no file contents; --tokens
reads every listed file to count tokens (o200k_base) and detect binary files;
--frontmatter reads front matter and age (expires, confidence, last_confirmed).")]
    List(list::ListArgs),
    /// Print the <knowledge> system-prompt section (nothing when it is absent).
    Prompt(prompt::PromptArgs),
    /// Print what the `learn` tool returns: the listing, or the loaded subjects.
    Learn(learn::LearnArgs),
    /// Search the subjects of enabled topics: ranked by words in slugs,
    /// headings, front-matter and bodies (hidden ones marked).
    #[command(after_help = "\
The index is a cache under the user's cache directory ($XDG_CACHE_HOME/jp-kb/search),
one per workspace, updated before each search from the files' sizes and times.
Markers: L learned, H hidden. Disabled subjects are never searched.")]
    Search(search::SearchArgs),
    /// Print the `learn` tool definition as JSON (nothing when no topic is learnable).
    Schema,
    /// Embedding models for semantic search (`fetch` downloads one).
    #[cfg(feature = "semantic")]
    #[command(subcommand)]
    Model(model::ModelCommand),
    /// What the assistant actually loaded: per subject, loads, sessions,
    /// last load, clients and tokens, from the ledger `jp-kb mcp` keeps.
    #[command(after_help = "\
The ledger is $JP_USER_DATA_DIR/jp-kb/usage/<workspace>-<hash>.jsonl (else
$XDG_DATA_HOME/jp/..., else the platform data directory): one per workspace,
never inside it. `jp-kb mcp --no-usage` or `kb.usage = false` records nothing.
Subjects never loaded in the window are listed too (loads `·`).
--stale lists what is worth pruning: subjects whose front matter `expires` is past
(today: $JP_KB_TODAY when set, YYYY-MM-DD), never loaded, or with --since not loaded
for that long; --disable disables them all as one change.")]
    Usage(usage::UsageArgs),
    /// Lint the knowledge base: configuration errors, patterns that match
    /// nothing, oversized subjects, topics the assistant cannot use.
    #[command(after_help = "\
Exit status: 1 when an error is found (or a warning, with --deny-warnings), else 0.
Every finding has a stable code (KB001…); docs/check.md explains each one.")]
    Check(check::CheckArgs),
    /// Edit a topic's `learned` patterns (what is pre-loaded into the system prompt).
    #[command(
        subcommand,
        after_help = "\
Examples:
  jp-kb learned add project 'maintainers/*'
  jp-kb learned add project style --file ~/.local/share/jp/workspace/<name>-<id>/kb.toml
  jp-kb learned rm project maintainers/jean --expand"
    )]
    Learned(learned::ListCommand),
    /// Edit a topic's `disabled` entries (subjects never shown).
    #[command(subcommand)]
    Disabled(learned::ListCommand),
    /// Create, change or remove topics.
    #[command(subcommand)]
    Topic(topic::TopicCommand),
    /// Adopt, in place, what other assistants read (CLAUDE.md, AGENTS.md,
    /// rules, skills) as topics in .jp/kb.toml; with none, create an example
    /// topic. Never overwrites; writes only in .jp/.
    Init(init::InitArgs),
    /// Connect an assistant: write the files it needs to get the `learn`
    /// tool and the whole <knowledge> section exactly.
    #[command(after_help = "\
jp:          .jp/config.d/jp-kb.toml (generated layer: MCP server, `learn` tool, the
             section as a system-prompt section) and `extends` in .jp/config.toml
claude-code: .mcp.json (server `kb`, `jp-kb mcp --instructions none`) and
             .claude/rules/jp-kb.md (the section, as project memory)
codex:       .codex/config.toml ([mcp_servers.kb] running `jp-kb mcp`)
Every jp-kb edit keeps the generated files current; `jp-kb sync` rewrites them.")]
    Connect(connect::ConnectArgs),
    /// Rewrite every generated client file (see `connect`) from the
    /// knowledge base as it is now, including ones edited by hand.
    Sync(connect::SyncArgs),
    /// Move the `kb` table out of every file JP loads (JP refuses to start
    /// with one) into the kb.toml beside it, byte for byte.
    Migrate(migrate::MigrateArgs),
    /// Serve the knowledge base over MCP on stdio: the `learn` tool, the
    /// `knowledge` prompt (also the server instructions) and `kb://` resources.
    #[command(after_help = "\
Every request reads the configuration and files as they are on disk, so edits
are seen without a restart; when a configuration file changes, the client is
told that the tool and resource lists changed. Without a workspace, or with a
configuration that does not load, the server still starts: its instructions, the
`learn` tool it still lists and every `learn` answer say what is wrong, and it
recovers once that is fixed.
Logs go to stderr. The one thing written is the usage ledger in the user's data
directory (`jp-kb usage` reads it; --no-usage turns it off). See the README, \"Use it from your
assistant\", for client setup.")]
    Mcp(mcp::McpArgs),
    /// The curator: browse topics and subjects, toggle learned/disabled, preview
    /// exactly what the assistant sees (opens the bundled demo when no workspace is found).
    Tui(tui::TuiArgs),
    /// Print the shell completion script for bash, zsh, fish, powershell or elvish.
    #[command(after_help = "\
Examples:
  jp-kb completions bash > ~/.local/share/bash-completion/completions/jp-kb
  jp-kb completions zsh > ~/.zfunc/_jp-kb     (with ~/.zfunc on $fpath)
  jp-kb completions fish > ~/.config/fish/completions/jp-kb.fish")]
    Completions(generate::CompletionsArgs),
    /// Print the man page (roff) on stdout.
    #[command(after_help = "\
Example:
  jp-kb man > ~/.local/share/man/man1/jp-kb.1 && man jp-kb")]
    Man,
}

/// Whether `command` acts on which JP the person runs
/// (`jp_kb::jp_found`): what `check` reports, what `init`, `connect`,
/// `sync`, `migrate` and the edits write, what `prompt --client jp` shows. The
/// others never start a `jp` (`learn`, `prompt` and the server are on an
/// assistant's path).
fn asks_which_jp(command: &Command) -> bool {
    match command {
        Command::Check(_)
        | Command::Init(_)
        | Command::Connect(_)
        | Command::Sync(_)
        | Command::Migrate(_)
        | Command::Learned(_)
        | Command::Disabled(_)
        | Command::Topic(_) => true,
        Command::Usage(args) => args.stale,
        Command::Prompt(args) => {
            args.client.as_deref() == Some(jp_kb_core::clients::Client::JP.name())
        }
        _ => false,
    }
}

/// Runs the parsed command line; returns the process exit code.
pub fn run(cli: &Cli) -> Result<ExitCode, CliError> {
    if let Command::Tui(args) = &cli.command {
        return tui::run(cli, args);
    }
    // Generated from the argument definitions alone: no workspace needed.
    match &cli.command {
        Command::Completions(args) => return generate::completions(args),
        Command::Man => return generate::man(),
        #[cfg(feature = "semantic")]
        Command::Model(command) => return model::run(command),
        _ => {}
    }
    let mut env = Environment::from_process()
        .map_err(|e| CliError::runtime(format!("cannot read the current directory: {e}")))?;
    if asks_which_jp(&cli.command) {
        env = env.with_jp(jp_kb::jp_found::jp_kind());
    }
    let options = cli.load_options();
    // `check` reports a configuration that does not load as a finding.
    if let Command::Check(args) = &cli.command {
        return check::run(&env, &options, args);
    }
    if let Command::Init(args) = &cli.command {
        return init::run(&env, cli.workspace.as_deref(), args);
    }
    if let Command::Connect(_) | Command::Sync(_) = &cli.command {
        // A broken configuration would generate a wrong section: refuse.
        // Generated files hold the workspace's configuration, never this
        // command line's --cfg/-k overrides.
        let plain = cli.workspace_options();
        if !options.cfg.is_empty() || !options.knowledge.is_empty() {
            eprintln!(
                "note: --cfg and -k are ignored: generated files hold the workspace's configuration"
            );
        }
        let kb = KnowledgeBase::load(&env, &plain).map_err(|e| {
            CliError::runtime(format!(
                "the configuration does not load, so nothing is written: {}\n(fix it first; `jp-kb check` shows where)",
                jp_kb::hints::config_error(&e)
            ))
        })?;
        output::print_config_warnings(&kb);
        return match &cli.command {
            Command::Connect(args) => connect::connect(&kb, args),
            _ => connect::sync(
                &kb,
                &connect::SyncArgs {
                    dry_run: matches!(&cli.command, Command::Sync(a) if a.dry_run),
                },
            ),
        };
    }
    // The server starts even when the configuration does not load, and
    // says why to the client.
    if let Command::Mcp(args) = &cli.command {
        return mcp::run(jp_kb_core::mcp::Workspace::new(env, options), args);
    }
    // Search walks the topics through the walks its last run saved.
    if let Command::Search(args) = &cli.command {
        return search::run(&env, &options, args);
    }
    let kb = KnowledgeBase::load(&env, &options).map_err(|e| config_error(&e))?;
    output::print_config_warnings(&kb);
    let editing = |kb| edits::EditContext {
        env: &env,
        options: &options,
        kb,
    };
    match &cli.command {
        Command::Learned(command) => learned::run(&editing(kb), List::Learned, command),
        Command::Disabled(command) => learned::run(&editing(kb), List::Disabled, command),
        Command::Topic(command) => topic::run(&editing(kb), command),
        // Handled above, before loading; kept here so the match is total.
        Command::Init(args) => init::run(&env, cli.workspace.as_deref(), args),
        Command::List(args) => list::run(&kb, args),
        Command::Prompt(args) => prompt::run(&kb, args),
        Command::Learn(args) => learn::run(&kb, args),
        Command::Schema => schema::run(&kb),
        Command::Usage(args) if args.stale => usage_stale::run(&editing(kb), args),
        Command::Usage(args) => usage::run(&env, &kb, args),
        // Handled above, before loading; kept here so the match is total.
        Command::Search(args) => search::run(&env, &options, args),
        Command::Check(args) => check::run(&env, &options, args),
        Command::Connect(args) => connect::connect(&kb, args),
        Command::Sync(args) => connect::sync(&kb, args),
        Command::Migrate(args) => migrate::run(&kb, args),
        Command::Mcp(args) => mcp::run(jp_kb_core::mcp::Workspace::new(env, options), args),
        Command::Tui(args) => tui::run(cli, args),
        Command::Completions(args) => generate::completions(args),
        Command::Man => generate::man(),
        #[cfg(feature = "semantic")]
        Command::Model(command) => model::run(command),
    }
}

fn config_error(err: &ConfigError) -> CliError {
    if err.is_usage() {
        CliError::usage(err.to_string())
    } else {
        CliError::runtime(jp_kb::hints::config_error(err))
    }
}
