//! `jp-kb check`: what is wrong with a knowledge base before the assistant
//! finds out. [`check`] loads the workspace the way every command does and
//! returns [`Finding`]s, each with a stable [`Code`] (`docs/check.md`), a
//! severity, the file, line and column it is about, and a hint. A fatal
//! configuration error becomes an error finding instead of stopping the
//! check. [`report`] renders findings; it formats strings and knows nothing
//! of terminals.

#[cfg(feature = "clients")]
pub mod client_findings;
#[cfg(feature = "clients")]
mod clients;
mod contents;
mod fact_rules;
mod facts;
pub mod findings;
mod load;
pub mod locate;
pub mod report;
mod snippet;
mod topics;

pub use crate::remedy::Remedy;
pub use findings::{CheckReport, Code, Finding, Severity, Thresholds};
pub use load::error_finding;

use crate::KnowledgeBase;
use crate::config::workspace::resolve_root;
use crate::config::{Environment, LoadOptions, load};
use locate::Locator;

/// Checks the workspace `options` select. `-k` arguments are checked one by
/// one (an unknown topic is a finding, the valid ones still apply); any
/// other configuration error stops the check with that one finding.
pub fn check(env: &Environment, options: &LoadOptions, thresholds: &Thresholds) -> CheckReport {
    let without_k = LoadOptions {
        knowledge: Vec::new(),
        ..options.clone()
    };
    match load(env, &without_k) {
        Err(err) => {
            let root = resolve_root(env, options.workspace.as_deref()).ok();
            let mut locator = Locator::new(root.clone(), &env.user_dirs());
            let finding = error_finding(&err, &mut locator);
            CheckReport {
                root,
                findings: vec![finding],
                sources: locator.sources,
                content_skipped: Vec::new(),
            }
        }
        Ok(mut loaded) => {
            let mut argument_findings = Vec::new();
            load::apply_knowledge_args(&mut loaded.kb, &options.knowledge, &mut argument_findings);
            let kb = KnowledgeBase::from_config(loaded);
            check_with(&kb, thresholds, argument_findings)
        }
    }
}

/// Checks an already loaded knowledge base (the TUI's).
pub fn check_knowledge_base(kb: &KnowledgeBase, thresholds: &Thresholds) -> CheckReport {
    check_with(kb, thresholds, Vec::new())
}

fn check_with(
    kb: &KnowledgeBase,
    thresholds: &Thresholds,
    argument_findings: Vec<Finding>,
) -> CheckReport {
    let mut locator = Locator::new(Some(kb.root().to_path_buf()), &kb.loaded.user_dirs);
    let mut out = load::warning_findings(kb.warnings(), &kb.loaded.kb, &mut locator);
    let mut content_skipped = Vec::new();
    let mut facts =
        facts::FactsCheck::new(thresholds.today.unwrap_or_else(crate::facts::Day::today));
    out.extend(argument_findings);
    let valid: Vec<&str> = kb
        .topics
        .iter()
        .filter(|t| !matches!(t.config.origin, crate::config::Origin::Cfg(_)))
        .map(crate::topic::TopicState::id)
        .collect();
    for state in &kb.topics {
        let dir = match &state.dir {
            Ok(dir) => Some(dir),
            Err(error) => {
                out.extend(topics::dir_finding(state, error, &valid, &mut locator));
                None
            }
        };
        // A topic in error gets only its error: the rest would be noise.
        let (true, Some(dir), Some(resolution)) = (state.enabled(), dir, state.resolution()) else {
            continue;
        };
        out.extend(topics::description_finding(&state.config, &mut locator));
        topics::learned_findings(&state.config, resolution, &mut locator, &mut out);
        topics::disabled_findings(&state.config, resolution, &mut locator, &mut out);
        out.extend(topics::empty_finding(state, resolution, &mut locator));
        contents::walk_findings(state, dir, resolution, &locator, &mut out);
        let over = thresholds
            .content_scan_limit
            .is_some_and(|limit| resolution.subjects().len() > limit);
        if over {
            content_skipped.push(state.id().to_owned());
        } else {
            contents::subject_findings(
                state,
                resolution,
                thresholds,
                &mut locator,
                &mut facts,
                &mut out,
            );
            facts.end_topic(&mut locator, &mut out);
        }
    }
    facts.finish(content_skipped.is_empty(), &mut out);
    // The prompt budget needs no scan of the skipped topics' files (their
    // lists are in memory, only learned subjects are read), so it always
    // runs: a partial check must not hide an 800k-token prompt.
    out.extend(contents::prompt_finding(kb, thresholds));
    #[cfg(feature = "clients")]
    clients::findings(kb, &mut locator, &mut out);
    // Drop repeated findings, keeping the first: hashed, so 100k findings
    // cost 100k lookups rather than 10^10 comparisons.
    let keep: Vec<bool> = {
        let mut seen = std::collections::HashSet::with_capacity(out.len());
        out.iter().map(|f| seen.insert(f)).collect()
    };
    let findings: Vec<Finding> = out
        .into_iter()
        .zip(keep)
        .filter_map(|(f, keep)| keep.then_some(f))
        .collect();
    CheckReport {
        root: Some(kb.root().to_path_buf()),
        findings,
        sources: locator.sources,
        content_skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(cwd: &std::path::Path) -> Environment {
        Environment::workspace_only(cwd)
    }

    #[test]
    fn library_check_reports_instead_of_failing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ws = dir.path();
        std::fs::create_dir_all(ws.join(".jp/kb/p")).expect("mkdir");
        std::fs::write(ws.join(".jp/kb/p/a.md"), "a").expect("write");
        std::fs::write(
            ws.join(".jp/kb.toml"),
            "[kb.topic.p]\ntitle = \"P\"\nsubjects = \".jp/kb/p\"\nlearnd = []\n",
        )
        .expect("write");
        let options = LoadOptions {
            knowledge: vec!["nope/**".into(), "p/a".into()],
            ..LoadOptions::default()
        };
        let report = check(&env(ws), &options, &Thresholds::default());
        let codes: Vec<Code> = report.findings.iter().map(|f| f.code).collect();
        // The valid `-k p/a` applied: `a` is learned, so `p` is not empty.
        assert_eq!(codes, [Code::UnknownKey, Code::UnknownTopic]);
        assert!(report.fails(false));
        assert!(
            report
                .sources
                .contains_key(std::path::Path::new(".jp/kb.toml"))
        );

        std::fs::write(ws.join(".jp/kb.toml"), "[kb.topic.p\n").expect("write");
        let report = check(&env(ws), &LoadOptions::default(), &Thresholds::default());
        let codes: Vec<Code> = report.findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, [Code::ConfigParse]);
        assert_eq!(report.findings[0].line, Some(1));
    }

    #[test]
    fn content_scan_limit_skips_reading_large_topics_and_says_so() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ws = dir.path();
        std::fs::create_dir_all(ws.join(".jp/kb/p")).expect("mkdir");
        std::fs::write(ws.join(".jp/kb/p/a.md"), "a").expect("write");
        std::fs::write(ws.join(".jp/kb/p/logo.png"), b"\x89PNG\0\0").expect("write");
        std::fs::write(
            ws.join(".jp/kb.toml"),
            "[kb.topic.p]\ntitle = \"P\"\nsubjects = \".jp/kb/p\"\n",
        )
        .expect("write");
        let full = check(&env(ws), &LoadOptions::default(), &Thresholds::default());
        let codes: Vec<Code> = full.findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, [Code::BinarySubject]);
        assert!(full.content_skipped.is_empty());
        let limited = Thresholds {
            content_scan_limit: Some(1),
            ..Thresholds::default()
        };
        let report = check(&env(ws), &LoadOptions::default(), &limited);
        assert!(report.findings.is_empty(), "{:?}", report.findings);
        assert_eq!(report.content_skipped, ["p"]);
        let roomy = Thresholds {
            content_scan_limit: Some(2),
            ..Thresholds::default()
        };
        let report = check(&env(ws), &LoadOptions::default(), &roomy);
        assert_eq!(report.findings.len(), 1);
        assert!(report.content_skipped.is_empty());
    }
}
