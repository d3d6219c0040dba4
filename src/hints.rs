//! jp-kb's own words for what the core leaves to its front ends. The core
//! (`jp-kb-core`) names none of jp-kb's commands, since JP, which may use
//! it, has none of them; its findings carry a typed [`Remedy`], its errors
//! and planner answers the data. The CLI and the TUI say the same things
//! here, with the commands that do it.

use jp_kb_core::ConfigError;
use jp_kb_core::check::{CheckReport, Finding, Remedy};
use jp_kb_core::clients::{SetupNote, Synced};
use jp_kb_core::edit::plan::Confirm;

/// `err` as the CLI and the TUI say it: for a missing workspace, with the
/// ways to name one or create one.
pub fn config_error(err: &ConfigError) -> String {
    match err {
        ConfigError::NoWorkspace { .. } => {
            format!("{err}; pass --workspace DIR, or run `jp-kb init`")
        }
        ConfigError::Untrusted { path, .. } => format!(
            "{err}\n{}",
            trust_hint(&jp_kb_core::internal::config::trust::directory_to_trust(
                path
            ))
        ),
        other => other.to_string(),
    }
}

/// How a person trusts `dir`'s configuration whoever owns it (git's
/// `safe.directory`, jp-kb's `safe-directories`).
fn trust_hint(dir: &std::path::Path) -> String {
    use jp_kb_core::display::escape_name;
    use jp_kb_core::internal::config::trust::{SAFE_DIRECTORIES_ENV, list_file};
    let dir = escape_name(&dir.to_string_lossy()).into_owned();
    let file = list_file().map_or_else(
        || "jp-kb's safe-directories file".to_owned(),
        |f| escape_name(&f.to_string_lossy()).into_owned(),
    );
    format!(
        "if you trust every user who can write there, add the line {dir} to {file} \
         (or set {SAFE_DIRECTORIES_ENV}={dir} for one command)"
    )
}

/// jp-kb's words for `remedy`, or `None` for one this version does not
/// know (the core's plain phrase stays).
fn remedy(remedy: &Remedy) -> Option<String> {
    Some(match remedy {
        Remedy::CreateWorkspace => "run `jp-kb check` inside a JP workspace, pass --workspace \
                                    DIR, or create one with `jp-kb init`"
            .to_owned(),
        Remedy::OverrideForms => "see `jp-kb --help` for the forms --cfg and -k accept".to_owned(),
        Remedy::ListEverySlug { topic } => format!("`jp-kb list {topic} --all` shows every slug"),
        Remedy::MoveKbTable { to } => {
            format!(
                "run `jp-kb migrate`: it moves the table to {}",
                to.display()
            )
        }
        Remedy::Regenerate => "run `jp-kb sync`".to_owned(),
        Remedy::Connect { client } => format!("`jp-kb connect {client}`"),
        Remedy::ConnectHere { client } => format!("run `jp-kb connect {client}` in this workspace"),
        Remedy::TrustDirectory { dir } => trust_hint(dir),
        _ => return None,
    })
}

/// A finding's hint as jp-kb says it: its remedy's phrase replaced by the
/// command that does it.
pub fn finding_hint(finding: &Finding) -> Option<String> {
    let hint = finding.hint.as_deref()?;
    let ours = finding
        .remedy
        .as_ref()
        .and_then(|r| Some((r.phrase(), remedy(r)?)));
    Some(match ours {
        Some((phrase, ours)) if hint.contains(&phrase) => hint.replacen(&phrase, &ours, 1),
        _ => hint.to_owned(),
    })
}

/// Every finding of `report` with jp-kb's hint ([`finding_hint`]): what
/// `jp-kb check` prints and the TUI's Findings tab shows.
pub fn with_commands(report: &mut CheckReport) {
    for finding in &mut report.findings {
        finding.hint = finding_hint(finding);
    }
}

/// A reason a plan asks first, as jp-kb says it: a `kb` table in a file
/// JP loads comes with the command that moves it.
pub fn confirm(reason: &Confirm) -> String {
    match reason {
        Confirm::KbInJpFile(_) => format!("{reason} (`jp-kb migrate` moves it to a kb.toml)"),
        other => other.to_string(),
    }
}

/// A line of what an edit did to the generated client files, as jp-kb
/// says it: a file left alone comes with the command that regenerates it.
/// A note about a client's setup (the core's words, the same for `prompt
/// --client` and the TUI), prefixed `note:` or `warning:`, its remedy
/// said as jp-kb's command.
pub fn setup_note(note: &SetupNote) -> String {
    let text = match note
        .remedy
        .as_ref()
        .and_then(|r| Some((r.phrase(), remedy(r)?)))
    {
        Some((phrase, ours)) => note.text.replacen(&phrase, &ours, 1),
        None => note.text.clone(),
    };
    let level = if note.warning { "warning" } else { "note" };
    format!("{level}: {text}")
}

pub fn synced(line: &Synced) -> String {
    match line {
        Synced::LeftEdited { .. } => format!("{line}: run `jp-kb sync` to regenerate it"),
        other => other.to_string(),
    }
}

/// What a front end that carries a plan out without asking says of its
/// reasons to ask: those it must not pass over silently (a `kb` table in
/// a file JP loads), each a sentence (`this change puts …`).
pub fn unasked(reasons: &[Confirm]) -> Vec<String> {
    reasons
        .iter()
        .filter(|r| matches!(r, Confirm::KbInJpFile(_)))
        .map(|r| format!("this change {}", confirm(r)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_kb_core::check::Code;

    #[test]
    fn a_remedy_becomes_the_command_in_the_hint_and_the_rest_stays() {
        let finding = Finding::new(Code::GeneratedStale, "stale").remedy(Remedy::Regenerate, |r| {
            format!("{r} (it overwrites hand edits of generated files)")
        });
        assert_eq!(
            finding_hint(&finding).as_deref(),
            Some("run `jp-kb sync` (it overwrites hand edits of generated files)")
        );
        assert!(
            !finding
                .hint
                .as_deref()
                .unwrap_or_default()
                .contains("jp-kb"),
            "the core's own hint names no command: {:?}",
            finding.hint
        );
        let plain = Finding::new(Code::GeneratedStale, "x").hint("fix the file");
        assert_eq!(finding_hint(&plain).as_deref(), Some("fix the file"));
    }
}
