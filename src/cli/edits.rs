//! What every editing command shares: `--file`/`--diff`, carrying out
//! planned edits through the edit core, and reporting what changed and
//! what the assistant sees now.

use std::path::{Path, PathBuf};

use clap::Args;
use jp_kb::KnowledgeBase;
use jp_kb::config::{Environment, LoadOptions};
use jp_kb::edit::plan::Planned;
use jp_kb::edit::{save, save_declaring, unified_diff};

use jp_kb::display::escape_name;

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
        if path.extension().is_none_or(|e| e != "toml") {
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

    /// Saves each planned edit and prints `file: summary` (and the diff).
    /// `declare`: an addition to a topic the file does not define declares
    /// it there.
    pub fn carry_out(
        &self,
        planned: &[Planned],
        opts: &EditOpts,
        declare: bool,
    ) -> Result<bool, CliError> {
        // Refused before anything is written: no partial change.
        for p in planned {
            jp_kb::edit::target::creatable(&p.path).map_err(CliError::runtime)?;
        }
        let mut changed_any = false;
        for p in planned {
            if let Some(parent) = p.path.parent()
                && !parent.exists()
            {
                std::fs::create_dir_all(parent).map_err(|e| {
                    CliError::runtime(format!("{}: cannot create: {e}", parent.display()))
                })?;
            }
            let result = if declare {
                save_declaring(&p.path, &p.edit)
            } else {
                save(&p.path, &p.edit)
            };
            let saved = result.map_err(|e| CliError::runtime(e.to_string()))?;
            let shown = self.shown(&p.path);
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
        if changed_any {
            self.sync_clients();
        }
        Ok(changed_any)
    }

    /// Keeps the connected clients' generated files current (contract §8).
    fn sync_clients(&self) {
        if jp_kb::clients::sync::connected(&self.kb).is_empty() {
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
                "warning: the generated client files were not updated: the configuration no longer loads: {e}"
            ),
        }
    }

    /// Reloads the configuration and prints what the assistant now gets
    /// from `topic`: the proof that the change took effect.
    pub fn report_topic(&self, topic: &str) {
        let kb = match KnowledgeBase::load(self.env, self.options) {
            Ok(kb) => kb,
            Err(e) => {
                warn(&format!("the configuration no longer loads: {e}"));
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
