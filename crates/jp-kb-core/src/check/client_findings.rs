//! `check --client NAME`: a finding (KB122) for each channel through which
//! part of jp-kb's text is lost on its way to that client's model.

use std::fmt::Write as _;

use crate::KnowledgeBase;
use crate::clients::arrival::{Arrival, losses};
use crate::clients::connect::{Client, FileWrite, Part, is_connected};
use crate::clients::profile::{Channel, Profile};
use crate::clients::setup::Setup;
use crate::remedy::Remedy;

use super::findings::{Code, Finding, Severity};
use super::locate::Locator;

/// How many lost parts a message names before "and N more".
const NAMED: usize = 8;

/// The findings for one client.
pub fn client_findings(
    kb: &KnowledgeBase,
    profile: &Profile,
    setup: &Setup,
    arrivals: &[Arrival],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for loss in losses(kb, arrivals) {
        let how = arrivals
            .iter()
            .find(|a| a.channel == loss.channel)
            .map_or_else(
                || format!("no channel carries it to {}", profile.name),
                |a| format!("{}: {}", a.channel.label(), a.note),
            );
        let what = if loss.channel == Channel::ToolDescription {
            "the `learn` tool description"
        } else {
            "the <knowledge> section"
        };
        let mut message = format!(
            "{what} does not reach the model of {} whole ({how}); lost: {}",
            profile.display_name(),
            named(&loss.lost)
        );
        if let Some(why) = &setup.not_loaded {
            let _ = write!(message, " ({why})");
        }
        let connect = Remedy::Connect {
            client: profile.id.clone(),
        };
        out.push(
            Finding::new(Code::ClientLoss, message).remedy(connect, |connect| {
                format!("{connect} sets up the routes that carry it whole (docs/check.md, KB122)")
            }),
        );
    }
    out
}

/// KB121 for each client file `sync` would change (`changed`, from
/// [`crate::clients::sync::stale`]), in words that say what is wrong with
/// it; only `client`'s files, as errors, when the person asked about that
/// client. JP's machine part (`.jp/.id`, the entry in JP's user-workspace
/// layer) is said by [`machine_findings`] instead.
pub fn stale_findings(
    kb: &KnowledgeBase,
    changed: &[FileWrite],
    client: Option<&Profile>,
    locator: &mut Locator,
) -> Vec<Finding> {
    let machine = jp_machine_paths(kb);
    let mut out = Vec::new();
    for write in changed {
        if client.is_some_and(|p| p.id != write.client.name()) || machine.contains(&write.path) {
            continue;
        }
        let name = write
            .client
            .profile()
            .map_or_else(|_| write.client.name().to_owned(), |p| p.display_name());
        let message = match (write.part, write.before.is_some()) {
            (Part::Generated, false) => {
                format!("{name} does not get this file's copy: it is missing (jp-kb generates it)")
            }
            (Part::Generated, true) => format!(
                "{name} receives an out-of-date copy: this generated file differs from what \
                 jp-kb generates now (the knowledge base changed outside jp-kb, or it was \
                 edited by hand)"
            ),
            (_, false) => format!("jp-kb's entry for {name} is missing: this file does not exist"),
            (_, true) => {
                format!("jp-kb's entry for {name} in this file differs from what `connect` writes")
            }
        };
        let keeps = write.part == Part::Generated && write.client == Client::JP;
        let mut finding = Finding::new(Code::GeneratedStale, message)
            .at(locator.file(&write.path))
            .remedy(Remedy::Regenerate, |regenerate| {
                if keeps {
                    format!(
                        "{regenerate}; a JP conversation already started keeps its copy: start \
                         a new one"
                    )
                } else {
                    regenerate.to_owned()
                }
            });
        if client.is_some() {
            finding.severity = Severity::Error;
        }
        out.push(finding);
    }
    out
}

/// `.jp/.id` and JP's user-workspace config file: the machine part.
fn jp_machine_paths(kb: &KnowledgeBase) -> Vec<std::path::PathBuf> {
    let mut paths = vec![crate::config::workspace::jp_dir(kb.root()).join(".id")];
    paths.extend(crate::clients::jp::machine::machine_file(kb));
    if let Some(id) = crate::config::workspace::workspace_id(kb.root()) {
        paths.extend(crate::clients::jp::machine::machine_file_for(kb, &id));
    }
    paths
}

/// JP's machine part, when JP is connected: as a KB121 warning in a plain
/// check, as a KB013 error (`as_error`) with `--client jp`.
pub fn machine_findings(kb: &KnowledgeBase, as_error: bool, locator: &mut Locator) -> Vec<Finding> {
    crate::clients::jp::setup::machine_problems(kb)
        .into_iter()
        .map(|problem| {
            let code = if as_error {
                Code::ClientSetup
            } else {
                Code::GeneratedStale
            };
            problem_finding(problem, code, locator)
        })
        .collect()
}

fn problem_finding(
    problem: crate::clients::jp::setup::SetupProblem,
    code: Code,
    locator: &mut Locator,
) -> Finding {
    let mut finding = Finding::new(code, problem.message).hint(problem.fix);
    finding.remedy = problem.remedy;
    if let Some(file) = &problem.file {
        finding = finding.at(match problem.line {
            Some(line) => locator.line_column(file, line, 1),
            None => locator.file(file),
        });
    }
    finding
}

/// The findings about a client's setup (`check --client NAME`): each of
/// its files that differs from what `jp-kb sync` writes (an error here,
/// where the person asked about this client), and for JP what else in its
/// layers keeps it from getting jp-kb exactly
/// ([`crate::clients::jp::setup`]) and the conversations that keep an
/// older section ([`crate::clients::jp::conversations`]).
pub fn setup_findings(kb: &KnowledgeBase, profile: &Profile) -> Vec<Finding> {
    let mut locator = Locator::new(Some(kb.root().to_path_buf()), &kb.loaded.user_dirs);
    let (stale, _) = crate::clients::sync::stale(kb);
    let mut out = stale_findings(kb, &stale, Some(profile), &mut locator);
    // A JP with the knowledge base inside has no setup to get wrong: it
    // builds the section at each query from its own `kb` tables.
    if profile.id != Client::JP.name() || kb.loaded.jp.reads_kb() {
        return out;
    }
    for problem in crate::clients::jp::setup::jp_problems(kb) {
        let code = if problem.error {
            Code::ClientSetup
        } else {
            Code::ClientCannotStart
        };
        out.push(problem_finding(problem, code, &mut locator));
    }
    if is_connected(Client::JP, kb.root()) {
        let older = crate::clients::jp::conversations::older_than_current(kb);
        if let Some(line) = crate::clients::jp::conversations::older_line(&older) {
            out.push(
                Finding::new(Code::ConversationKeepsOlder, line)
                    .hint("start a new JP conversation after a change (`jp query --new`)"),
            );
        }
    }
    out
}

/// `report` with the findings of `check --client NAME` (`client`) added:
/// a plain check's KB121 warning about a file a client finding is about
/// too is dropped, so that one file is said once, as the client's error.
pub fn add_client_findings(report: &mut super::CheckReport, client: Vec<Finding>) {
    let about: Vec<&std::path::Path> = client
        .iter()
        .filter(|f| matches!(f.code, Code::GeneratedStale | Code::ClientSetup))
        .filter_map(|f| f.file.as_deref())
        .collect();
    report.findings.retain(|f| {
        f.code != Code::GeneratedStale
            || f.severity == Severity::Error
            || !f.file.as_deref().is_some_and(|file| about.contains(&file))
    });
    report.findings.extend(client);
}

fn named(lost: &[String]) -> String {
    let mut text = lost
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if lost.len() > NAMED {
        let _ = write!(text, " and {} more", lost.len() - NAMED);
    }
    text
}
