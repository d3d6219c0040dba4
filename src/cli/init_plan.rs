//! How `jp-kb init` shows an adoption plan: per topic, each file with its
//! state, slug, path, tokens and where it comes from (and what JP does
//! instead, when that differs); the files not adopted and why; what the
//! assistant would see. Names are escaped; `--json` gives the same.

use std::fmt::Write as _;

use serde_json::{Value, json};

use jp_kb_core::adopt::{Applied, Entry, Plan, Preview, State, words};
use jp_kb_core::display::{escape_json, escape_name};

use super::output::print_text;

fn marker(state: State) -> char {
    match state {
        State::Learned => 'L',
        State::Learnable => '-',
        State::Skipped => 'x',
    }
}

/// The human plan.
pub fn print_plan(plan: &Plan, seen: &Preview) {
    let mut out = String::new();
    let found = plan.entries.len();
    let _ = writeln!(
        out,
        "Found {found} file{} other assistants read; adopted in place, nothing copied \
         (each subject is a link in .jp/kb/ to the file itself):",
        if found == 1 { "" } else { "s" }
    );
    let slug_width = plan
        .entries
        .iter()
        .map(|e| escape_name(&e.slug).chars().count())
        .max()
        .unwrap_or(0);
    let _ = writeln!(
        out,
        "\n     {:slug_width$}  TOKENS  FILE\n        where it comes from -> what JP does instead",
        "SLUG"
    );
    for topic in &plan.topics {
        let _ = writeln!(
            out,
            "\ntopic {} ({}), {}/",
            topic.id, topic.title, topic.dir
        );
        for entry in plan.entries.iter().filter(|e| e.topic == topic.kind) {
            push_entry(&mut out, entry, slug_width);
        }
    }
    let skipped: Vec<&Entry> = plan
        .entries
        .iter()
        .filter(|e| !plan.topics.iter().any(|t| t.kind == e.topic))
        .collect();
    if !skipped.is_empty() {
        out.push_str("\nskipped\n");
        for entry in skipped {
            push_entry(&mut out, entry, slug_width);
        }
    }
    if !plan.not_adopted.is_empty() {
        out.push_str("\nnot adopted\n");
        for n in &plan.not_adopted {
            let _ = writeln!(
                out,
                "  {}  {}",
                escape_name(&n.rel),
                escape_name(&words::not_adopted(&n.why))
            );
        }
    }
    let _ = write!(out, "\nThe assistant would see: ");
    match &seen.section {
        Some(_) => {
            let _ = write!(
                out,
                "a <knowledge> section of {} tokens ({} pre-loaded subject{}: {} tokens)",
                seen.section_tokens,
                seen.preloaded,
                if seen.preloaded == 1 { "" } else { "s" },
                seen.preloaded_tokens
            );
        }
        None => out.push_str("no <knowledge> section"),
    }
    if seen.tool.is_some() {
        let topics: Vec<&str> = plan
            .topics
            .iter()
            .filter(|t| plan.entries_in(t.kind, State::Learnable).next().is_some())
            .map(|t| t.id)
            .collect();
        let _ = write!(
            out,
            ", and the `learn` tool ({} tokens) for {}",
            seen.tool_tokens,
            topics.join(", ")
        );
    }
    out.push_str(".\nL pre-loaded (learned)  - learnable (`jp-kb learn TOPIC SLUG`)  x skipped\n");
    print!("{out}");
}

fn push_entry(out: &mut String, entry: &Entry, slug_width: usize) {
    let slug = escape_name(&entry.slug);
    let pad = slug_width.saturating_sub(slug.chars().count());
    let _ = write!(
        out,
        "  {}  {slug}{:pad$}  {:>6}  {}\n        {}",
        marker(entry.state),
        "",
        entry.tokens,
        escape_name(&entry.rel),
        escape_name(&words::source(entry)),
    );
    if let Some(instead) = words::instead(entry) {
        let _ = write!(out, " -> {instead}");
    }
    if entry.trigger.is_gated() && !entry.chosen && entry.state != State::Skipped {
        let other = match entry.state {
            State::Learned => "--gated learnable",
            _ => "--gated learned",
        };
        let _ = write!(out, " ({other} to change)");
    }
    if entry.chosen {
        out.push_str(" (your choice)");
    }
    out.push('\n');
}

/// After `--dry-run`'s plan: what a run would write.
pub fn print_dry_run(plan: &Plan) {
    println!(
        "dry run: nothing written. `jp-kb init` writes .jp/kb.toml ({} topic{}) and {} link{} in \
         .jp/kb/; --gated, --learned, --learnable and --skip PATH change the plan.",
        plan.topics.len(),
        if plan.topics.len() == 1 { "" } else { "s" },
        plan.adopted().count(),
        if plan.adopted().count() == 1 { "" } else { "s" },
    );
}

/// After a run: what it did.
pub fn print_outcome(plan: &Plan, outcome: &Applied) {
    match outcome {
        Applied::Written { links, kept } => {
            let ids: Vec<&str> = plan.topics.iter().map(|t| t.id).collect();
            println!(
                "created .jp/kb.toml (topics {}) and {links} link{} in .jp/kb/{} (JP's own files \
                 untouched)",
                ids.join(", "),
                if *links == 1 { "" } else { "s" },
                if *kept > 0 {
                    format!(" ({kept} already there)")
                } else {
                    String::new()
                }
            );
            println!(
                "next: `jp-kb prompt` (what the assistant gets), `jp-kb connect jp`, or `jp-kb tui`"
            );
        }
        Applied::AlreadyAdopted => println!("already adopted: nothing changed"),
        Applied::Restored { links } => println!(
            ".jp/kb.toml already holds this plan: {links} missing link{} made again",
            if *links == 1 { "" } else { "s" }
        ),
    }
}

/// Nothing to adopt (`--dry-run` or `--json`).
pub fn print_nothing(plan: &Plan, as_json: bool) {
    if as_json {
        print_text(&escape_json(&pretty(&plan_json(plan, None, None))));
    } else {
        println!(
            "nothing another assistant reads was found: `jp-kb init` creates .jp/kb.toml with an \
             example topic"
        );
    }
}

/// The plan as JSON.
pub fn print_json(plan: &Plan, seen: &Preview, outcome: Option<&Applied>) {
    print_text(&escape_json(&pretty(&plan_json(plan, Some(seen), outcome))));
}

fn plan_json(plan: &Plan, seen: Option<&Preview>, outcome: Option<&Applied>) -> Value {
    let files: Vec<Value> = plan
        .entries
        .iter()
        .map(|e| {
            json!({
                "path": e.rel,
                "assistant": e.kind.assistant().name(),
                "topic": e.topic.id(),
                "slug": e.slug,
                "state": match e.state {
                    State::Learned => "learned",
                    State::Learnable => "learnable",
                    State::Skipped => "skipped",
                },
                "tokens": e.tokens,
                "source": words::source(e),
                "instead": words::instead(e),
                "gated": e.trigger.is_gated(),
                "imported_by": e.imported_by,
                "chosen": e.chosen,
            })
        })
        .collect();
    let not_adopted: Vec<Value> = plan
        .not_adopted
        .iter()
        .map(|n| json!({"path": n.rel, "why": words::not_adopted(&n.why)}))
        .collect();
    let topics: Vec<Value> = plan
        .topics
        .iter()
        .map(|t| json!({"id": t.id, "title": t.title, "subjects": t.dir}))
        .collect();
    json!({
        "files": files,
        "not_adopted": not_adopted,
        "topics": topics,
        "section_tokens": seen.map(|s| s.section_tokens),
        "tool_tokens": seen.map(|s| s.tool_tokens),
        "written": outcome.map(|o| match o {
            Applied::Written { .. } => "written",
            Applied::AlreadyAdopted => "already adopted",
            Applied::Restored { .. } => "restored",
        }),
    })
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}
