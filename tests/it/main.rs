//! jp-kb's integration tests, as one test binary (one link instead of
//! sixty): each module is one suite. Tests that need something from outside
//! the repository (tmux, the MCP SDK venv, the real clients, the corpora)
//! are ignored with their reason without it and fail under `CI`
//! (`tests/needs/`). `edit_crash` stays its own binary: it has its own
//! `main`, and re-runs itself as the crashing writer.
#![allow(clippy::expect_used, clippy::unwrap_used)]
// `search_quality_support` brings its own copy of `needs`: it is shared
// with `benches/search.rs`, a crate that has no other.
#![allow(clippy::duplicate_mod)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../jp_support/mod.rs"]
mod jp_support;
#[path = "../needs/mod.rs"]
mod needs;
#[path = "../mcp/raw_client.rs"]
mod raw_client;
#[path = "../tmux_support/mod.rs"]
mod tmux_support;
#[path = "../tui_support/mod.rs"]
mod tui_support;

mod adopt;
mod check;
mod check_demo;
mod check_long_lines;
mod cli_edit;
mod cli_generate;
mod cli_planner;
mod client_containment;
mod client_merges;
mod client_setups;
mod clients_prompt;
mod clients_real;
mod clients_utf16_cut;
mod closed_stdout;
mod config_hardening;
mod config_layers;
mod config_special_files;
mod connect;
mod core_dependencies;
mod edit_concurrent;
mod facts_check;
mod facts_stale;
mod golden;
mod guarded_read;
mod huge_subjects;
mod jp_inside;
mod jp_inside_found;
mod jp_real_checkouts;
mod jp_real_stale;
mod jp_real_tui;
mod jp_words;
mod kb_toml;
mod list_output;
mod lock_other_user;
mod mcp_e2e;
mod mcp_handlers;
mod mcp_protocol;
mod mcp_startup;
mod mcp_usage;
mod readme_install;
mod search;
mod search_frontmatter;
mod search_jp_docs;
mod search_mcp;
mod search_names;
mod search_open_index;
mod search_places;
mod search_quality;
mod search_walks;
#[cfg(feature = "semantic")]
mod semantic_build;
#[cfg(feature = "semantic")]
mod semantic_cache_files;
#[cfg(feature = "semantic")]
mod semantic_crafted;
#[cfg(feature = "semantic")]
mod semantic_model;
mod semantic_processes;
#[cfg(feature = "semantic")]
mod semantic_search;
#[cfg(all(feature = "semantic", unix))]
mod subject_rules;
mod terminal_injection;
mod terminal_injection_output;
mod tokens_oracle;
mod tui_behaviour;
mod tui_client_prompt;
mod tui_connect;
mod tui_copy_size;
mod tui_cursor;
mod tui_exact_cost;
mod tui_findings;
mod tui_fluency;
mod tui_hangup;
mod tui_listing;
mod tui_names_and_words;
mod tui_no_terminal;
mod tui_planner;
mod tui_preview_search;
mod tui_preview_window;
mod tui_prune;
mod tui_reading;
mod tui_rough_edges;
mod tui_search;
mod tui_selection;
mod tui_signals;
mod tui_small_truths;
mod tui_snapshots;
mod tui_tester_words;
mod tui_tmux;
mod tui_tmux_actions;
mod tui_tmux_adopt;
mod tui_tmux_capture;
mod tui_tmux_cursor;
mod tui_tmux_layers;
mod tui_tmux_picker;
mod tui_tmux_search;
mod tui_tmux_selection;
mod tui_tmux_truths;
mod tui_usage;
mod usage_cli;
mod usage_ledger_files;
mod workspace_trust;
