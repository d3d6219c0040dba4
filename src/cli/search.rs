//! `jp-kb search QUERY... [--topic T] [--limit N] [--json]`: ranked search
//! over the subjects of enabled topics (see `jp_kb_core::internal::search`). Notes about
//! the index (rebuilt, kept in memory) go to stderr.

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use std::sync::Arc;

use jp_kb_core::KnowledgeBase;
use jp_kb_core::display::{escape_json, escape_lines, escape_name};
use jp_kb_core::internal::search;
use jp_kb_core::search::{DEFAULT_LIMIT, Hit, SearchRequest};
use jp_kb_core::subjects::WalkCache;
use jp_kb_core::{Environment, LoadOptions};

use super::output::{self, CliError, print_text};

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Words to search for (several arguments are one query).
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    pub query: Vec<String>,
    /// Search only this topic (id, or title case-insensitively).
    #[arg(long, value_name = "TOPIC")]
    pub topic: Option<String>,
    /// Most hits shown.
    #[arg(long, default_value_t = DEFAULT_LIMIT, value_name = "N")]
    pub limit: usize,
    /// Machine-readable output: an array of hits, best first.
    #[arg(long)]
    pub json: bool,
    /// Which rankings run: words, meaning, or both fused. Default: hybrid
    /// when an embedding model is available, else lexical.
    #[cfg(feature = "semantic")]
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: Option<super::search_mode::ModeArg>,
    /// The embedding model's directory (Hugging Face layout); default:
    /// `kb.search.model`, else the model `jp-kb model fetch` installed.
    #[cfg(feature = "semantic")]
    #[arg(long, value_name = "DIR")]
    pub model: Option<std::path::PathBuf>,
}

/// One hit of `--json`.
#[derive(serde::Serialize)]
struct HitJson<'a> {
    topic: &'a str,
    slug: &'a str,
    hidden: bool,
    learned: bool,
    score: f64,
    tokens: Option<usize>,
    snippet: String,
    /// The rankings that found it: `lexical`, `semantic` or `hybrid`.
    mode: &'static str,
    /// What its file says of its age (`expires`, `confidence`, …;
    /// `docs/facts.md`): absent keys when it says nothing.
    #[serde(flatten)]
    age: serde_json::Map<String, serde_json::Value>,
}

pub fn run(
    env: &Environment,
    options: &LoadOptions,
    args: &SearchArgs,
) -> Result<ExitCode, CliError> {
    let query = args.query.join(" ");
    let request = SearchRequest {
        query: &query,
        topic: args.topic.as_deref(),
        limit: args.limit,
        hidden: true,
    };
    // A bad query fails before any configuration, walk or index is read.
    search::check_query(&query).map_err(|e| CliError::usage(e.to_string()))?;
    // Topics are walked lazily: the walks saved by the last search are put
    // into `walks` before any topic is resolved.
    let walks = Arc::new(WalkCache::new());
    let kb = KnowledgeBase::load_with(env, options, &walks).map_err(|e| super::config_error(&e))?;
    output::print_config_warnings(&kb);
    #[cfg(feature = "semantic")]
    let outcome =
        super::search_mode::search(&kb, &walks, &request, args.mode, args.model.as_deref())?;
    #[cfg(not(feature = "semantic"))]
    let outcome = search::search_with_walks(&kb, &walks, &request).map_err(|e| match e {
        search::SearchError::Topic(message) => CliError::runtime(message),
        other => CliError::usage(other.to_string()),
    })?;
    #[cfg(feature = "semantic")]
    let mode = outcome.mode.name();
    #[cfg(not(feature = "semantic"))]
    let mode = "lexical";
    for note in &outcome.notes {
        eprintln!("note: {}", escape_lines(note));
    }
    if args.json {
        let today = jp_kb::today::today();
        let items: Vec<HitJson<'_>> = outcome
            .hits
            .iter()
            .map(|h| hit_json(h, mode, hit_age(&kb, h, today)))
            .collect();
        let text = serde_json::to_string_pretty(&items)
            .map_err(|e| CliError::runtime(format!("cannot write JSON: {e}")))?;
        // Bidi and invisible characters in ids and slugs as `\u` escapes:
        // still JSON, with the same values.
        print_text(&escape_json(&text));
    } else {
        print_text(&table(&query, &outcome.hits, mode));
    }
    Ok(ExitCode::SUCCESS)
}

/// The ageing keys of a hit's file (one bounded read per hit shown).
fn hit_age(
    kb: &KnowledgeBase,
    hit: &Hit,
    today: jp_kb_core::internal::facts::Day,
) -> serde_json::Map<String, serde_json::Value> {
    let Some(resolution) = kb.topic(&hit.topic).and_then(|t| t.resolution()) else {
        return serde_json::Map::new();
    };
    let subjects = resolution.subjects();
    let Some(i) = jp_kb_core::subjects::find_exact(subjects, &hit.slug) else {
        return serde_json::Map::new();
    };
    let root = jp_kb_core::internal::content::Root::new(kb.root());
    jp_kb_core::internal::facts::SubjectAge::read(&root, &subjects[i], today).json_fields()
}

fn hit_json<'a>(
    hit: &'a Hit,
    mode: &'static str,
    age: serde_json::Map<String, serde_json::Value>,
) -> HitJson<'a> {
    HitJson {
        topic: &hit.topic,
        slug: &hit.slug,
        hidden: hit.hidden,
        learned: hit.learned,
        // Three decimals: enough to rank by, stable to read.
        score: (f64::from(hit.score) * 1000.0).round() / 1000.0,
        tokens: hit.tokens,
        snippet: hit.snippet.marked(),
        mode,
        age,
    }
}

/// The human table. Ids, slugs, snippets and the query come from files
/// and arguments anyone may write: each is escaped on one line, and the
/// columns are as wide as the escaped text.
fn table(query: &str, hits: &[Hit], mode: &str) -> String {
    if hits.is_empty() {
        return format!(
            "No subject matches \"{}\" ({mode} search).",
            escape_name(query)
        );
    }
    // Fused and cosine scores are small: three decimals tell them apart.
    let decimals = if mode == "lexical" { 2 } else { 3 };
    let topic_w = hits
        .iter()
        .map(|h| escape_name(&h.topic).chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let slug_w = hits
        .iter()
        .map(|h| escape_name(&h.slug).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "MRK  {:<topic_w$}  {:<slug_w$}  {:>6}  {:>6}\n",
        "TOPIC", "SLUG", "SCORE", "TOKENS"
    );
    for h in hits {
        let marks = format!(
            "{}{}",
            if h.learned { 'L' } else { '-' },
            if h.hidden { 'H' } else { '-' }
        );
        let tokens = h.tokens.map_or_else(|| "-".to_owned(), |t| t.to_string());
        let _ = writeln!(
            out,
            "{marks}   {:<topic_w$}  {:<slug_w$}  {:>6.decimals$}  {tokens:>6}",
            escape_name(&h.topic),
            escape_name(&h.slug),
            h.score
        );
        let _ = writeln!(out, "     {}", escape_name(&h.snippet.marked()));
    }
    let _ = write!(
        out,
        "\n{} hit(s), best first ({}); matched words in **bold**.\nL learned (in the system prompt)  H hidden (exact slug only)  `jp-kb learn TOPIC SLUG` shows one.",
        hits.len(),
        match mode {
            "hybrid" => "hybrid search: words and meaning",
            "semantic" => "semantic search: meaning",
            _ => "lexical search: words",
        }
    );
    out
}
