//! `check --client NAME`: a finding (KB122) for each channel through which
//! part of jp-kb's text is lost on its way to that client's model.

use std::fmt::Write as _;

use crate::KnowledgeBase;
use crate::check::findings::{Code, Finding, Severity};
use crate::check::locate::Locator;
use crate::check::remedy::Remedy;

use super::arrival::{Arrival, losses};
use super::profile::{Channel, Profile};
use super::setup::Setup;

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

/// The findings about a client's setup (`check --client NAME`): each of
/// its generated files that differs from what `jp-kb sync` writes (an
/// error here, where the person asked about this client), and for JP
/// what else in its layers keeps it from getting jp-kb exactly
/// ([`super::jp_setup`]).
pub fn setup_findings(kb: &KnowledgeBase, profile: &Profile) -> Vec<Finding> {
    let mut locator = Locator::new(Some(kb.root().to_path_buf()), &kb.loaded.user_dirs);
    let mut out = Vec::new();
    let (stale, _) = super::sync::stale(kb);
    for write in stale
        .iter()
        .filter(|w| w.client.name() == profile.id && w.part == super::connect::Part::Generated)
    {
        let mut finding = Finding::new(
            Code::GeneratedStale,
            format!(
                "{} receives an out-of-date copy: this generated file differs from what \
                 jp-kb generates now (the knowledge base changed outside jp-kb, or it was \
                 edited by hand)",
                profile.display_name()
            ),
        )
        .at(locator.file(&write.path))
        .remedy(Remedy::Regenerate, |regenerate| {
            format!(
                "{regenerate}; a JP conversation already started keeps its copy: start a new one"
            )
        });
        finding.severity = Severity::Error;
        out.push(finding);
    }
    if profile.id == "jp" {
        for problem in super::jp_setup::jp_problems(kb) {
            let code = if problem.error {
                Code::ClientSetup
            } else {
                Code::ClientCannotStart
            };
            let mut finding = Finding::new(code, problem.message).hint(problem.fix);
            finding.remedy = problem.remedy;
            if let Some(file) = &problem.file {
                finding = finding.at(match problem.line {
                    Some(line) => locator.line_column(file, line, 1),
                    None => locator.file(file),
                });
            }
            out.push(finding);
        }
    }
    out
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
