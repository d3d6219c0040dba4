//! What every editing command shares: `--file`/`--diff`, carrying out
//! planned edits through the edit core, and reporting what changed and
//! what the assistant sees now.

use std::path::{Path, PathBuf};

use clap::Args;
use jp_kb_core::KnowledgeBase;
use jp_kb_core::edit::plan::{AlternativeKind, Answer, Chosen, Intent, Plan, Refusal, Workspace};
use jp_kb_core::edit::unified_diff;
use jp_kb_core::internal::config::origin::is_editable_toml;
use jp_kb_core::internal::edit::plan;
use jp_kb_core::{Environment, LoadOptions};

use jp_kb_core::display::escape_name;

use super::output::{CliError, print_human, warn, write_human};

/// Options of every editing command.
#[derive(Debug, Args, Clone)]
pub struct EditOpts {
    /// The TOML file to edit (e.g. the user-workspace config, for personal
    /// pre-loads the team's config should not get). Default: the file that
    /// sets the value, else the one that sets the topic's `subjects`, else
    /// `.jp/kb.toml`.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Also print a unified diff of each changed file.
    #[arg(long)]
    pub diff: bool,
}

/// What an editing command needs: the loaded knowledge base and how to
/// load it again after the write.
pub struct EditContext<'a> {
    pub env: &'a Environment,
    pub options: &'a LoadOptions,
    pub kb: KnowledgeBase,
}

impl EditContext<'_> {
    /// `--file` resolved against the current directory, checked to be TOML.
    pub fn explicit_file(&self, opts: &EditOpts) -> Result<Option<PathBuf>, CliError> {
        let Some(file) = &opts.file else {
            return Ok(None);
        };
        let path = self.env.cwd.join(file);
        if !is_editable_toml(&path) {
            return Err(CliError::usage(format!(
                "--file {}: jp-kb edits TOML files only (JSON and YAML layers are read-only)",
                file.display()
            )));
        }
        Ok(Some(path))
    }

    /// The path as messages show it: relative to the workspace, escaped.
    pub fn shown(&self, path: &Path) -> String {
        escape_name(&self.kb.display_path(path).display().to_string()).into_owned()
    }

    /// Asks the planner about `intent` (`--file` is the chosen file, for
    /// removals too) and carries out its answer. A question (a subject
    /// selected by a glob) takes its second option, replacing the glob by
    /// the other slugs, with `expand`; otherwise it is refused with both
    /// commands spelled out.
    pub fn run(&self, intent: &Intent, opts: &EditOpts, expand: bool) -> Result<bool, CliError> {
        let mut ws = Workspace::new(&self.kb);
        if let Some(path) = self.explicit_file(opts)? {
            ws = ws.chosen(Chosen::every_edit(path));
        }
        match plan::plan(&ws, intent) {
            Answer::Do(plan) => self.carry_out(&plan, opts),
            Answer::Nothing(why) => {
                print_human(&format!("nothing changed: {}", escape_name(&why)));
                Ok(false)
            }
            Answer::Refuse(why) => Err(CliError::runtime(refusal(&why))),
            Answer::Choose(question) => {
                let expanded = question
                    .options
                    .iter()
                    .find(|a| a.kind == AlternativeKind::ExpandGlob);
                match expanded {
                    Some(alternative) if expand => self.carry_out(&alternative.plan, opts),
                    _ => Err(CliError::runtime(glob_refusal(&question, intent))),
                }
            }
            // An answer newer than this CLI: named, never guessed at.
            other => Err(CliError::runtime(format!(
                "the planner gave an answer this command cannot carry out: {other:?}"
            ))),
        }
    }

    /// Carries `plan` out through the edit core's one `apply` (every step
    /// checked before anything is written; never half of it) and prints
    /// `file: summary` (and the diff), then the plan's notes as warnings.
    pub fn carry_out(&self, plan: &Plan, opts: &EditOpts) -> Result<bool, CliError> {
        let mut journal = jp_kb_core::edit::Journal::new(self.kb.boundaries());
        let written = jp_kb_core::internal::edit::apply(plan, &mut journal)
            .map_err(|e| CliError::runtime(e.to_string()))?;
        let mut changed_any = false;
        for saved in &written {
            let shown = self.shown(&saved.path);
            if saved.applied.changed {
                changed_any = true;
                print_human(&format!("{shown}: {}", escape_name(&saved.applied.summary)));
                if opts.diff {
                    let old = String::from_utf8_lossy(saved.before.as_deref().unwrap_or_default());
                    let new = String::from_utf8_lossy(&saved.after);
                    write_human(&unified_diff(&old, &new, &shown));
                }
            } else {
                // The edit core's summary already says "nothing changed".
                print_human(&format!("{shown}: {}", escape_name(&saved.applied.summary)));
            }
        }
        for note in plan
            .notes
            .iter()
            .chain(&jp_kb::hints::unasked(&plan.confirm))
        {
            warn(&escape_name(note));
        }
        if changed_any {
            self.sync_clients();
        }
        Ok(changed_any)
    }

    /// Keeps the connected clients' generated files current (contract §8).
    fn sync_clients(&self) {
        if jp_kb_core::clients::connected(&self.kb).is_empty() {
            return;
        }
        if !self.options.cfg.is_empty() || !self.options.knowledge.is_empty() {
            // Generated files hold the workspace's configuration, never
            // this command line's overrides.
            eprintln!(
                "note: the generated client files were not updated (--cfg/-k given); run `jp-kb sync`"
            );
            return;
        }
        match KnowledgeBase::load(self.env, self.options) {
            Ok(after) => super::connect::after_write(&self.kb, &after),
            Err(e) => eprintln!(
                "warning: the generated client files were not updated: the configuration no longer loads: {}",
                jp_kb::hints::config_error(&e)
            ),
        }
    }

    /// Reloads the configuration and prints what the assistant now gets
    /// from `topic`: the proof that the change took effect.
    pub fn report_topic(&self, topic: &str) {
        let kb = match KnowledgeBase::load(self.env, self.options) {
            Ok(kb) => kb,
            Err(e) => {
                warn(&format!(
                    "the configuration no longer loads: {}",
                    jp_kb::hints::config_error(&e)
                ));
                return;
            }
        };
        let Some(state) = kb.topic(topic) else {
            print_human(&format!(
                "topic `{}` is gone from the effective configuration",
                escape_name(topic)
            ));
            return;
        };
        let topic = escape_name(topic);
        let section = kb.knowledge_section().map_or(0, |s| s.len());
        match (state.resolution(), &state.dir) {
            (Some(r), _) => {
                let c = r.counts();
                print_human(&format!(
                    "now: topic `{topic}` ({}) has {} available, {} learned, {} hidden, {} disabled of {} subjects; the <knowledge> section is {section} bytes",
                    if state.enabled() {
                        "enabled"
                    } else {
                        "disabled"
                    },
                    c.available,
                    c.learned,
                    c.hidden,
                    c.disabled,
                    c.total
                ));
            }
            (None, Err(e)) => print_human(&format!("now: topic `{topic}`: {e}")),
            (None, Ok(_)) => {}
        }
    }
}

/// The refusal of a glob question: what selects the subject, and the two
/// commands that fix it.
/// A refusal in the CLI's words: the planner's sentence, and the command
/// that fixes it where there is one.
fn refusal(why: &Refusal) -> String {
    match why {
        Refusal::UnknownTopic { .. } => format!("{why} (create one with `jp-kb topic add`)"),
        Refusal::TopicExists { .. } => format!("{why}; use `jp-kb topic set` to change it"),
        other => other.to_string(),
    }
}

fn glob_refusal(question: &plan::Question, intent: &Intent) -> String {
    let (list, topic, entries) = match intent {
        Intent::Remove {
            list,
            topic,
            entries,
        } => (list.key(), topic.as_str(), entries.join(" ")),
        _ => return format!("{}\n{}", question.title, question.lines.join("\n")),
    };
    let globs: Vec<String> = question.globs.iter().map(|g| format!("'{g}'")).collect();
    let effect = if list == "learned" {
        "un-learns"
    } else {
        "enables"
    };
    let remove = format!("jp-kb {list} rm {topic} {}", globs.join(" "));
    let can_expand = question
        .options
        .iter()
        .any(|a| a.kind == AlternativeKind::ExpandGlob);
    if !can_expand {
        // The glob selects only these: there are no other slugs to keep.
        return format!(
            "{}\nThe pattern selects nothing else; remove it (it {effect} everything it \
             selects, and files added later):\n    {remove}",
            question.lines.join("\n"),
        );
    }
    format!(
        "{}\nEither:\n  remove the pattern (it {effect} everything it selects):\n    {remove}\n  or replace it by the slugs it selects, minus these:\n    jp-kb {list} rm {topic} {entries} --expand",
        question.lines.join("\n"),
    )
}
