//! `jp-kb usage --stale [TOPIC] [--since DURATION] [--json] [--disable]`:
//! the subjects worth pruning (expired by their front matter, never
//! loaded by any assistant, or, with `--since`, not loaded for that long),
//! with their tokens and what disabling them all does to the
//! `<knowledge>` section, counted exactly before anything is written;
//! `--disable` disables them as one plan and says how to undo it.

use std::fmt::Write as _;
use std::process::ExitCode;

use jp_kb_core::display::escape_name;
use jp_kb_core::edit::plan::{Answer, Counting, Intent, Plan, Workspace};
use jp_kb_core::internal::edit::plan;
use jp_kb_core::internal::plural::{count, thousands};
use jp_kb_core::usage::stale;
use jp_kb_core::usage::stale::{Candidate, Criteria};
use jp_kb_core::usage::{State, Tally, ledger_path, time};

use super::edits::{EditContext, EditOpts};
use super::output::{CliError, print_human};
use super::usage::{UsageArgs, print_json};

/// One subject of `usage --stale --json`.
#[derive(serde::Serialize)]
struct CandidateJson<'a> {
    topic: &'a str,
    slug: &'a str,
    state: &'static str,
    /// `expired`, `never-loaded`, `not-loaded-since`.
    reasons: Vec<&'static str>,
    /// The `expires` day, when expired.
    expired: Option<String>,
    /// The last load (RFC 3339), when loaded once.
    last: Option<String>,
    loads: u64,
    tokens: Option<usize>,
    /// Its tokens in the `<knowledge>` section (pre-loaded ones only).
    prompt_tokens: usize,
}

pub fn run(ctx: &EditContext<'_>, args: &UsageArgs) -> Result<ExitCode, CliError> {
    let kb = &ctx.kb;
    let idle = match &args.since {
        Some(text) => time::parse_duration(text).map_err(CliError::usage)?,
        None => None,
    };
    let only = match &args.topic {
        Some(name) => Some(
            kb.resolve_topic(name)
                .map_err(|e| CliError::runtime(e.to_string()))?,
        ),
        None => None,
    };
    let path = ctx
        .env
        .user_data_dir
        .as_ref()
        .map(|data| ledger_path(data, kb.root()));
    let tally = match &path {
        Some(path) => Tally::read(path, None).map_err(|e| {
            CliError::runtime(format!(
                "cannot read the usage ledger {}: {e}",
                path.display()
            ))
        })?,
        None => Tally::default(),
    };
    let now = time::now();
    let criteria = Criteria {
        today: jp_kb::today::today(),
        now,
        idle,
    };
    let mut list = stale::candidates(kb, &tally, only, &criteria, &mut |s| {
        stale::read_age(kb, s, criteria.today).expired()
    });
    stale::count_tokens(kb, &mut list);
    let subjects: Vec<(String, String)> = list
        .iter()
        .map(|c| (c.topic.clone(), c.slug.clone()))
        .collect();
    let counting = Counting::new(kb);
    let answer = (!list.is_empty()).then(|| {
        plan::plan(
            &Workspace::new(kb).tokens(&counting),
            &Intent::DisableSubjects {
                subjects: subjects.clone(),
            },
        )
    });
    if args.json {
        let items: Vec<CandidateJson<'_>> = list.iter().map(candidate_json).collect();
        print_json(&items);
    } else {
        print_human(&text(&list, &tally, now, answer.as_ref(), args));
    }
    if !args.disable || list.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    match answer {
        Some(Answer::Do(plan)) => {
            ctx.carry_out(
                &plan,
                &EditOpts {
                    file: None,
                    diff: false,
                },
            )?;
            print_human(&after_line(ctx, &plan));
            print_human(&undo_lines(&list));
            Ok(ExitCode::SUCCESS)
        }
        Some(Answer::Refuse(why)) => Err(CliError::runtime(why.to_string())),
        Some(Answer::Nothing(why)) => {
            print_human(&format!("nothing changed: {}", escape_name(&why)));
            Ok(ExitCode::SUCCESS)
        }
        other => Err(CliError::runtime(format!(
            "the planner gave an answer this command cannot carry out: {other:?}"
        ))),
    }
}

fn candidate_json(c: &Candidate) -> CandidateJson<'_> {
    let mut expired = None;
    let mut last = None;
    let reasons = c
        .reasons
        .iter()
        .map(|r| match *r {
            stale::Reason::Expired(day) => {
                expired = Some(day.to_string());
                "expired"
            }
            stale::Reason::NeverLoaded => "never-loaded",
            stale::Reason::NotLoadedSince(t) => {
                last = Some(time::rfc3339(t));
                "not-loaded-since"
            }
        })
        .collect();
    CandidateJson {
        topic: &c.topic,
        slug: &c.slug,
        state: c.state.as_str(),
        reasons,
        expired,
        last,
        loads: c.loads,
        tokens: c.tokens,
        prompt_tokens: c.prompt_tokens(),
    }
}

/// The table, the totals, and what disabling them all would do.
fn text(
    list: &[Candidate],
    tally: &Tally,
    now: u64,
    answer: Option<&Answer>,
    args: &UsageArgs,
) -> String {
    let mut out = String::new();
    if tally.is_empty() {
        out.push_str(
            "Nothing recorded in the usage ledger yet: only expired subjects are listed (`jp-kb mcp` records what assistants load).\n",
        );
    }
    if list.is_empty() {
        out.push_str("No subject to prune: none expired, none never loaded");
        if let Some(since) = &args.since {
            let _ = write!(out, ", none idle for {since}");
        }
        out.push('.');
        return out;
    }
    let names: Vec<String> = list
        .iter()
        .map(|c| format!("{}/{}", escape_name(&c.topic), escape_name(&c.slug)))
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    let why: Vec<String> = list
        .iter()
        .map(|c| {
            c.reasons
                .iter()
                .map(|r| r.text(now))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let why_width = why
        .iter()
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let _ = writeln!(
        out,
        "{:<width$}  {:<9}  {:<why_width$}  {:>5}  {:>7}",
        "SUBJECT", "STATE", "WHY", "LOADS", "TOKENS"
    );
    for ((c, name), why) in list.iter().zip(&names).zip(&why) {
        let tokens = c.tokens.map_or_else(|| "·".to_owned(), |n| n.to_string());
        let loads = if c.loads == 0 {
            "·".to_owned()
        } else {
            c.loads.to_string()
        };
        let _ = writeln!(
            out,
            "{name:<width$}  {:<9}  {why:<why_width$}  {loads:>5}  {tokens:>7}",
            c.state.as_str()
        );
    }
    let preloaded: Vec<&Candidate> = list.iter().filter(|c| c.state == State::Learned).collect();
    let _ = write!(
        out,
        "\n{} worth pruning",
        count(list.len(), "subject", "subjects")
    );
    if !preloaded.is_empty() {
        let _ = write!(
            out,
            "; {} pre-loaded: {} tokens in every request",
            preloaded.len(),
            thousands(preloaded.iter().map(|c| c.prompt_tokens()).sum())
        );
    }
    out.push('.');
    if let Some(Answer::Do(plan)) = answer {
        let _ = write!(out, "\n{}", cost_line(plan));
        if !args.disable {
            out.push_str(" `--disable` disables them all (one step).");
        }
    }
    out
}

/// What disabling them all does to the section, counted.
fn cost_line(plan: &Plan) -> String {
    match (plan.effect.tokens.before, plan.effect.tokens.after) {
        (Some(before), Some(after)) => format!(
            "Disabling them all takes the <knowledge> section from {} to {} tokens ({}{}).",
            thousands(before),
            thousands(after),
            if after > before { "+" } else { "-" },
            thousands(after.abs_diff(before))
        ),
        _ => "Disabling them all: the section's tokens could not be counted.".to_owned(),
    }
}

/// The section as it is now, reloaded and counted: the proof the change
/// took effect, beside the figure shown before it.
fn after_line(ctx: &EditContext<'_>, plan: &Plan) -> String {
    let before = plan
        .effect
        .tokens
        .before
        .map_or_else(|| "?".to_owned(), thousands);
    match jp_kb_core::KnowledgeBase::load(ctx.env, ctx.options) {
        Ok(kb) => {
            let section = kb.knowledge_section().unwrap_or_default();
            let now = jp_kb_core::internal::tokens::count_tokens(&section)
                .map_or_else(|| "?".to_owned(), thousands);
            format!("now: the <knowledge> section is {now} tokens (was {before})")
        }
        Err(e) => format!(
            "now: the configuration no longer loads: {}",
            jp_kb::hints::config_error(&e)
        ),
    }
}

/// How to undo `--disable`: one `disabled rm` per topic.
fn undo_lines(list: &[Candidate]) -> String {
    let mut by_topic: Vec<(&str, Vec<&str>)> = Vec::new();
    for c in list {
        match by_topic.iter_mut().find(|(t, _)| *t == c.topic) {
            Some((_, slugs)) => slugs.push(&c.slug),
            None => by_topic.push((&c.topic, vec![&c.slug])),
        }
    }
    let mut out = "To undo:".to_owned();
    for (topic, slugs) in by_topic {
        let quoted: Vec<String> = slugs.iter().map(|s| shell_word(s)).collect();
        let _ = write!(
            out,
            "\n    jp-kb disabled rm {} {}",
            shell_word(topic),
            quoted.join(" ")
        );
    }
    out
}

/// `word` as one shell word: bare when it is plain, else single-quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", escape_name(word).replace('\'', "'\\''"))
    }
}
