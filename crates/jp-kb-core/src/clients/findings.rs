//! `check --client NAME`: a finding (KB122) for each channel through which
//! part of jp-kb's text is lost on its way to that client's model.

use std::fmt::Write as _;

use crate::KnowledgeBase;
use crate::check::findings::{Code, Finding};

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
        out.push(Finding::new(Code::ClientLoss, message).hint(format!(
            "`jp-kb connect {}` sets up the routes that carry it whole (docs/check.md, KB122)",
            profile.id
        )));
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
