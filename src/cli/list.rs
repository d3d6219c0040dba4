//! `jp-kb list [TOPIC] [--all] [--json] [--tokens]` (contract §6).
//!
//! Without `--tokens` or `--frontmatter` no file content is read: listing
//! costs a directory walk and one `stat` per file. `--frontmatter` reads
//! each Markdown file's head, and the whole of each YAML or `index.json`
//! file (for the Facts format's counts: `docs/facts.md`).

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::Origin;
use jp_kb_core::display::{escape_json, escape_name};
use jp_kb_core::edit::plan::TopicField;
use jp_kb_core::internal::config::Valued;
use jp_kb_core::internal::content::{Content, Root, SkipReason, read_content, read_content_prefix};
use jp_kb_core::internal::facts::SubjectAge;
use jp_kb_core::subjects::{Resolution, TopicState};
use serde_json::{Value, json};

use super::output::{CliError, human_bytes, print_human, print_text, print_topic_warnings};

#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools)] // command-line flags
pub struct ListArgs {
    /// A topic id (or title): list its subjects instead of the topics.
    pub topic: Option<String>,
    /// Include hidden and disabled subjects.
    #[arg(long)]
    pub all: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Read each listed file: add token counts (`o200k_base`) and binary detection.
    #[arg(long)]
    pub tokens: bool,
    /// Read the head of each listed Markdown file: add its parsed YAML
    /// front-matter (`frontmatter`) to the JSON, and its age (`expires`,
    /// `expired`, `confidence`, `last_confirmed`; a Facts file's `facts`
    /// counts) (implied by `--tokens`).
    #[arg(long)]
    pub frontmatter: bool,
}

pub fn run(kb: &KnowledgeBase, args: &ListArgs) -> Result<ExitCode, CliError> {
    match &args.topic {
        None => {
            if args.json {
                let topics: Vec<Value> = kb.topics.iter().map(|t| topic_json(kb, t)).collect();
                print_text(&escape_json(&pretty(&Value::Array(topics))));
            } else {
                print_human(&topics_table(kb));
            }
        }
        Some(name) => {
            let state = find_topic(kb, name)?;
            print_topic_warnings(kb, state);
            let Some(resolution) = state.resolution() else {
                let why = state
                    .dir
                    .as_ref()
                    .err()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                return Err(CliError::runtime(format!(
                    "topic `{}`: {why}",
                    escape_name(state.id())
                )));
            };
            let rows = rows(kb, resolution, args);
            if args.json {
                let items: Vec<SubjectJson> =
                    rows.iter().map(|r| subject_json(resolution, r)).collect();
                print_json(&items);
            } else {
                print_human(&subjects_table(kb, state, resolution, &rows, args));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `list` looks among all topics, disabled ones too: by id, then by
/// case-insensitive title.
fn find_topic<'a>(kb: &'a KnowledgeBase, name: &str) -> Result<&'a TopicState, CliError> {
    jp_kb_core::internal::kb::topic_named(&kb.topics, name).ok_or_else(|| {
        let valid: Vec<String> = kb
            .topics
            .iter()
            .map(|t| escape_name(t.id()).into_owned())
            .collect();
        CliError::runtime(format!(
            "unknown topic `{}`; valid topics: {}",
            escape_name(name),
            if valid.is_empty() {
                "(none configured)".to_owned()
            } else {
                valid.join(", ")
            }
        ))
    })
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// One listed subject, with what `--tokens` measured.
struct Row {
    index: usize,
    measured: Option<(Option<usize>, bool)>,
    /// Why the content is not shown, when `--tokens` read it and skipped it.
    skipped: Option<SkipReason>,
    /// With `--frontmatter` or `--tokens`: the parsed front-matter (`Err`
    /// when it is not valid YAML); `None` inside when there is none.
    #[allow(clippy::option_option)]
    frontmatter: Option<Option<Result<Value, String>>>,
    /// With `--frontmatter` or `--tokens`: what its file says of its age.
    age: serde_json::Map<String, Value>,
}

/// With `--tokens`, each file is read through the guarded, bounded read:
/// one above the size limit is not counted (its row says why), so memory
/// stays bounded whatever the files hold.
fn rows(kb: &KnowledgeBase, resolution: &Resolution, args: &ListArgs) -> Vec<Row> {
    let root = Root::new(kb.root());
    let today = jp_kb::today::today();
    resolution
        .subjects()
        .iter()
        .enumerate()
        .filter(|(i, s)| args.all || (!s.hidden && !resolution.is_disabled(*i)))
        .map(|(index, s)| {
            let mut skipped = None;
            let markdown = jp_kb_core::internal::frontmatter::is_markdown(s.extension());
            let mut frontmatter = (args.frontmatter && !args.tokens).then(|| {
                if !markdown {
                    return None;
                }
                // The head is enough: a longer block is not front-matter.
                let limit = jp_kb_core::internal::frontmatter::MAX_FRONTMATTER_BYTES + 8;
                match read_content_prefix(&root, s.path(), limit).0 {
                    Content::Text(text) => jp_kb_core::internal::frontmatter::parse(&text),
                    Content::Skipped(_) => None,
                }
            });
            let mut age = serde_json::Map::new();
            if args.frontmatter && !args.tokens {
                age = SubjectAge::read(&root, s, today).json_fields();
            }
            let measured = args.tokens.then(|| {
                let content = read_content(&root, s.path());
                if let Content::Text(text) = &content {
                    age =
                        SubjectAge::of_text(s.rel_path(), s.extension(), text, today).json_fields();
                }
                frontmatter = Some(match &content {
                    Content::Text(text) if markdown => {
                        jp_kb_core::internal::frontmatter::parse(text)
                    }
                    _ => None,
                });
                let binary = content == Content::Skipped(SkipReason::Binary);
                let tokens = match content {
                    Content::Text(_) => jp_kb_core::internal::tokens::count_tokens(
                        &jp_kb_core::internal::content::format_subject_owned(
                            s.slug(),
                            s.extension(),
                            content,
                        ),
                    ),
                    Content::Skipped(reason) => {
                        skipped = Some(reason);
                        None
                    }
                };
                (tokens, binary)
            });
            Row {
                index,
                measured,
                skipped,
                frontmatter,
                age,
            }
        })
        .collect()
}

/// One subject of `list TOPIC --json` (contract §6). Serialized straight
/// to stdout: a 100k-subject listing must not build a JSON tree first.
#[derive(serde::Serialize)]
struct SubjectJson<'a> {
    slug: &'a str,
    path: &'a str,
    hidden: bool,
    disabled: bool,
    learned: bool,
    bytes: u64,
    /// Absent without `--tokens`; `null` when the file has no text.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[allow(clippy::option_option)]
    tokens: Option<Option<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    binary: Option<bool>,
    /// Absent without `--frontmatter`/`--tokens`; `null` when the file has
    /// none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[allow(clippy::option_option)]
    frontmatter: Option<Option<Value>>,
    /// Why the front-matter could not be parsed (file line and reason).
    #[serde(skip_serializing_if = "Option::is_none")]
    frontmatter_error: Option<String>,
    /// Its age (`docs/facts.md`): keys only when its file states them.
    #[serde(flatten)]
    age: serde_json::Map<String, Value>,
}

fn subject_json<'a>(resolution: &'a Resolution, row: &'a Row) -> SubjectJson<'a> {
    let s = &resolution.subjects()[row.index];
    SubjectJson {
        slug: s.slug(),
        path: s.rel_path(),
        hidden: s.hidden,
        disabled: resolution.is_disabled(row.index),
        learned: resolution.is_learned(row.index),
        bytes: s.bytes,
        tokens: row.measured.map(|(tokens, _)| tokens),
        binary: row.measured.map(|(_, binary)| binary),
        frontmatter: row
            .frontmatter
            .as_ref()
            .map(|f| f.as_ref().and_then(|r| r.as_ref().ok().cloned())),
        frontmatter_error: row
            .frontmatter
            .as_ref()
            .and_then(|f| f.as_ref().and_then(|r| r.as_ref().err().cloned())),
        age: row.age.clone(),
    }
}

/// Writes pretty JSON and a newline to stdout through a buffer; bidi and
/// invisible characters in strings as `\u` escapes (see `escape_json`).
fn print_json<T: serde::Serialize>(value: &T) {
    use std::io::Write as _;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut out,
        jp_kb_core::display::SafeJsonFormatter::pretty(),
    );
    let _ = value.serialize(&mut serializer);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

fn origin_text(kb: &KnowledgeBase, origin: &Origin) -> Value {
    Value::String(origin.display_relative(kb.root()))
}

fn items_json(kb: &KnowledgeBase, items: &[Valued<String>]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|v| json!({ "value": v.value, "origin": origin_text(kb, &v.origin) }))
            .collect(),
    )
}

fn topic_json(kb: &KnowledgeBase, state: &TopicState) -> Value {
    let c = &state.config;
    let counts = state
        .resolution()
        .map(Resolution::counts)
        .unwrap_or_default();
    let mut origin = serde_json::Map::new();
    origin.insert("topic".into(), origin_text(kb, &c.origin));
    for field in TopicField::SCALARS {
        if let Some(o) = c.scalar_origin(field) {
            origin.insert(field.key().into(), origin_text(kb, o));
        }
    }
    for field in TopicField::LISTS {
        origin.insert(field.key().into(), items_json(kb, c.list(field)));
    }
    json!({
        "id": c.id,
        "title": c.title(),
        "introduction": c.introduction(),
        "description": c.description(),
        "enabled": c.enabled(),
        "subjects_dir": c.subjects.as_ref().map(|s| s.value.clone()),
        "error": state.dir.as_ref().err().map(ToString::to_string),
        "counts": counts,
        "origin": Value::Object(origin),
    })
}

fn topics_table(kb: &KnowledgeBase) -> String {
    if kb.topics.is_empty() {
        return format!(
            "No topics configured in {}. Add a [kb.topic.<id>] table to .jp/kb.toml (or run `jp-kb init`).",
            escape_name(&kb.root().display().to_string())
        );
    }
    let ids: Vec<_> = kb.topics.iter().map(|t| escape_name(t.id())).collect();
    let width = ids
        .iter()
        .map(|id| id.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "{:<width$}  {:<8}  {:>5}  {:>5}  {:>7}  {:>6}  {:>8}  TITLE\n",
        "TOPIC", "STATE", "TOTAL", "AVAIL", "LEARNED", "HIDDEN", "DISABLED"
    );
    for (t, id) in kb.topics.iter().zip(&ids) {
        let title = escape_name(t.config.title().unwrap_or(""));
        match (t.resolution(), &t.dir) {
            (Some(r), _) => {
                let c = r.counts();
                let state = if t.enabled() { "enabled" } else { "disabled" };
                let _ = writeln!(
                    out,
                    "{id:<width$}  {state:<8}  {:>5}  {:>5}  {:>7}  {:>6}  {:>8}  {title}",
                    c.total, c.available, c.learned, c.hidden, c.disabled
                );
            }
            (None, Err(e)) => {
                let _ = writeln!(out, "{id:<width$}  {:<8}  error: {e}", "ERROR");
            }
            (None, Ok(_)) => {}
        }
    }
    out.push_str("\nEnabled topics with an available subject appear in `jp-kb prompt`; `jp-kb list TOPIC` shows the subjects.");
    out
}

fn subjects_table(
    kb: &KnowledgeBase,
    state: &TopicState,
    resolution: &Resolution,
    rows: &[Row],
    args: &ListArgs,
) -> String {
    let subjects = resolution.subjects();
    let slugs: Vec<_> = rows
        .iter()
        .map(|r| escape_name(subjects[r.index].slug()))
        .collect();
    let width = slugs
        .iter()
        .map(|slug| slug.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = String::new();
    let _ = write!(out, "MRK  {:<width$}  {:>9}", "SLUG", "SIZE");
    if args.tokens {
        out.push_str("  TOKENS");
    }
    out.push_str("  WHY\n");
    let mut total_bytes = 0;
    for (row, slug) in rows.iter().zip(&slugs) {
        let i = row.index;
        let s = &subjects[i];
        total_bytes += s.bytes;
        let marks: String = [
            if resolution.is_learned(i) { 'L' } else { '-' },
            if s.hidden { 'H' } else { '-' },
            if resolution.is_disabled(i) { 'D' } else { '-' },
        ]
        .iter()
        .collect();
        let _ = write!(out, "{marks}  {slug:<width$}  {:>9}", human_bytes(s.bytes));
        if let Some((tokens, binary)) = row.measured {
            let t = match (tokens, binary) {
                (Some(n), _) => n.to_string(),
                (None, true) => "binary".to_owned(),
                (None, false) => "skipped".to_owned(),
            };
            let _ = write!(out, "  {t:>6}");
        }
        let mut reason = why(kb, state, resolution, i);
        if let Some(skip) = &row.skipped {
            let _ = write!(reason, "; content never shown: {skip}");
        }
        let _ = writeln!(out, "  {reason}");
    }
    let c = resolution.counts();
    let _ = write!(
        out,
        "\n{} of {} subjects shown ({}); topic: {} available, {} learned, {} hidden, {} disabled.{}\nL learned (in the system prompt)  H hidden (exact slug only)  D disabled (never shown)",
        rows.len(),
        c.total,
        human_bytes(total_bytes),
        c.available,
        c.learned,
        c.hidden,
        c.disabled,
        if args.all || c.hidden + c.disabled == 0 {
            ""
        } else {
            " --all shows hidden and disabled ones."
        }
    );
    if !state.enabled() {
        out.push_str("\nThis topic is disabled (enable = false): the assistant sees none of it.");
    }
    out
}

/// Why a subject is in its state, with the pattern and where it was set.
fn why(kb: &KnowledgeBase, state: &TopicState, r: &Resolution, i: usize) -> String {
    let s = &r.subjects()[i];
    let origin_of = |items: &[Valued<String>], value: &str| {
        items
            .iter()
            .find(|v| v.value == value)
            .map(|v| format!(" ({})", escape_name(&v.origin.display_relative(kb.root()))))
            .unwrap_or_default()
    };
    if let Some(d) = r.disabled_by.get(i) {
        let entry = &r.disabled_entries[d];
        return format!(
            "disabled by \"{}\"{}",
            escape_name(entry),
            origin_of(&state.config.disabled, entry)
        );
    }
    if let Some(l) = r.learned_by.get(i) {
        let pattern = &r.learned_patterns[l.pattern];
        let kind = if l.glob { "glob" } else { "exact slug" };
        return format!(
            "learned by {kind} \"{}\"{}",
            escape_name(pattern),
            origin_of(&state.config.learned, pattern)
        );
    }
    if s.hidden {
        return "hidden: loadable by exact slug only".to_owned();
    }
    "available".to_owned()
}
