//! Findings about the files of a topic: what the walk skipped, slug
//! collisions, subjects that cannot be shown or are too large, hidden
//! subjects nothing leads to, and the size of the whole `<knowledge>`
//! section. Contents are read only for subjects that can reach the
//! assistant (not disabled), and token counts only for files large enough
//! to exceed the threshold.

use std::path::{Path, PathBuf};

use aho_corasick::AhoCorasick;

use super::facts::FactsCheck;
use super::findings::{Code, Finding, Thresholds};
use super::locate::Locator;
use crate::KnowledgeBase;
use crate::content::{Content, Root, SkipReason, format_subject, read_content};
use crate::subjects::slug::{dotted_slug, slug_of};
use crate::subjects::{Resolution, WalkWarning};
use crate::tokens::count_tokens;
use crate::topic::TopicState;

/// A token is at least one byte, so a file of at most this many bytes
/// cannot exceed a threshold of that many tokens; the margin covers the
/// fence added around non-Markdown subjects.
const FENCE_MARGIN: u64 = 64;

/// The slug a skipped path would have had, when it lies in `dir`.
fn slug_in(dir: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(dir).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    (!parts.is_empty()).then(|| slug_of(&parts))
}

/// KB106, KB108–KB110: what the walk skipped or dropped.
pub fn walk_findings(
    state: &TopicState,
    dir: &Path,
    resolution: &Resolution,
    locator: &Locator,
    out: &mut Vec<Finding>,
) {
    let id = state.id();
    for warning in &resolution.walk.warnings {
        let (code, path, message, hint): (Code, &PathBuf, String, &str) = match warning {
            WalkWarning::SymlinkOutside { path, target } => (
                Code::SymlinkOutside,
                path,
                format!(
                    "symlink in topic `{id}` leads to {}, outside the workspace: skipped",
                    target.display()
                ),
                "knowledge is sent to a model and must stay inside the workspace: copy the file in, or remove the link",
            ),
            WalkWarning::BrokenSymlink { path } => (
                Code::UnreadableSubject,
                path,
                format!("broken symlink in topic `{id}`: skipped"),
                "remove the link or fix its target",
            ),
            WalkWarning::NonUtf8Name { path } => (
                Code::NotUtf8Subject,
                path,
                format!("file name in topic `{id}` is not valid UTF-8: skipped"),
                "rename the file: a slug must be text",
            ),
            WalkWarning::SpecialFile { path, kind } => (
                Code::UnreadableSubject,
                path,
                format!(
                    "{} in topic `{id}` is {kind}, not a regular file: skipped, never opened",
                    locator.display(path).display()
                ),
                "move it out of the topic directory: only regular files are subjects",
            ),
            WalkWarning::Io { path, message } => (
                Code::UnreadableSubject,
                path,
                format!(
                    "cannot read {} in topic `{id}`: {message}",
                    locator.display(path).display()
                ),
                "check permissions and symlinks",
            ),
        };
        let mut finding = Finding::new(code, message)
            .at(locator.file(path))
            .topic(id)
            .hint(hint);
        if let Some(slug) = slug_in(dir, path) {
            finding = finding.subject(&slug);
        }
        out.push(finding);
    }
    for c in &resolution.walk.collisions {
        out.push(
            Finding::new(
                Code::SlugCollision,
                format!(
                    "`{}` and `{}` of topic `{id}` both have the slug `{}`: `{}` is used, `{}` is ignored",
                    c.kept, c.dropped, c.slug, c.kept, c.dropped
                ),
            )
            .at(locator.file(&dir.join(&c.dropped)))
            .topic(id)
            .subject(&c.slug)
            .hint("rename or remove one of the two files"),
        );
    }
}

/// KB107–KB109, KB111, KB115 and KB116: reads every subject that is not
/// disabled (through the guarded, bounded read), and hands each text to
/// `facts` (the Facts format, front-matter ageing).
pub fn subject_findings(
    state: &TopicState,
    resolution: &Resolution,
    thresholds: &Thresholds,
    locator: &mut Locator,
    facts: &mut FactsCheck,
    out: &mut Vec<Finding>,
) {
    let id = state.id();
    let subjects = resolution.subjects();
    let unreached: Vec<usize> = (0..subjects.len())
        .filter(|&i| subjects[i].hidden && !resolution.is_disabled(i) && !resolution.is_learned(i))
        .collect();
    // What the assistant can read before it knows a hidden slug: the topic's
    // introduction and description, and every visible subject.
    let mut mentions = Mentions::new(unreached.iter().map(|&i| {
        let s = &subjects[i];
        [s.slug(), dotted_slug(s.rel_path()), s.rel_path()]
    }));
    for text in [state.config.introduction(), state.config.description()]
        .into_iter()
        .flatten()
    {
        mentions.scan(text);
    }
    let root = Root::new(state.root());
    for (i, subject) in subjects.iter().enumerate() {
        if resolution.is_disabled(i) {
            continue;
        }
        let content = read_content(&root, subject.path());
        let skipped = |code, message: String, hint: &str| {
            Finding::new(code, message)
                .at(locator.file(subject.path()))
                .topic(id)
                .subject(subject.slug())
                .hint(hint)
        };
        match &content {
            Content::Skipped(SkipReason::Binary) => out.push(skipped(
                Code::BinarySubject,
                format!("subject `{}` of topic `{id}` is a binary file: the assistant is told it was skipped", subject.slug()),
                "remove it from the topic, or add its slug to `disabled`",
            )),
            Content::Skipped(SkipReason::NotUtf8) => out.push(skipped(
                Code::NotUtf8Subject,
                format!("subject `{}` of topic `{id}` is not valid UTF-8: the assistant is told it was skipped", subject.slug()),
                "convert it to UTF-8 (e.g. `iconv -f latin1 -t utf-8`)",
            )),
            Content::Skipped(SkipReason::Unreadable(why)) => out.push(skipped(
                Code::UnreadableSubject,
                format!("subject `{}` of topic `{id}` cannot be read: {why}", subject.slug()),
                "check the file's permissions",
            )),
            Content::Skipped(SkipReason::TooLarge { bytes, limit }) => out.push(skipped(
                Code::SubjectOverSizeLimit,
                format!(
                    "subject `{}` of topic `{id}` is {bytes} bytes, above the {limit}-byte limit: it is never read, the assistant is told it was skipped",
                    subject.slug()
                ),
                "split it into smaller subjects, or remove it from the topic (or add its slug to `disabled`)",
            )),
            Content::Text(text) => {
                let limit = thresholds.max_subject_tokens;
                if subject.bytes + FENCE_MARGIN > limit as u64 {
                    let formatted = format_subject(subject.slug(), subject.extension(), &content);
                    if let Some(tokens) = count_tokens(&formatted).filter(|&n| n > limit) {
                        out.push(skipped(
                            Code::SubjectTooLarge,
                            format!(
                                "subject `{}` of topic `{id}` is {tokens} tokens, above the limit of {limit}",
                                subject.slug()
                            ),
                            "split it into smaller subjects the assistant can load one by one (or raise --max-subject-tokens)",
                        ));
                    }
                }
                if !subject.hidden {
                    mentions.scan(text);
                }
                facts.subject(id, subject, resolution.is_learned(i), text, locator, out);
            }
        }
    }
    for (k, &i) in unreached.iter().enumerate() {
        let s = &subjects[i];
        let mentioned = mentions.found[k];
        if !mentioned {
            out.push(
                Finding::new(
                    Code::HiddenUnreachable,
                    format!(
                        "hidden subject `{}` of topic `{id}` is mentioned by no visible subject: the assistant can never discover it",
                        s.slug()
                    ),
                )
                .at(locator.file(s.path()))
                .topic(id)
                .subject(s.slug())
                .hint(format!(
                    "mention `{}` in a visible subject (an index or README), learn it, or make it visible",
                    s.slug()
                )),
            );
        }
    }
}

/// Which of a set of subjects some text mentions (by any of its names), in
/// one pass over each text whatever the number of subjects.
struct Mentions {
    matcher: Option<AhoCorasick>,
    /// For each pattern of `matcher`, the subject it names.
    owner: Vec<usize>,
    found: Vec<bool>,
    left: usize,
}

impl Mentions {
    fn new<'a>(names: impl Iterator<Item = [&'a str; 3]>) -> Self {
        let mut patterns = Vec::new();
        let mut owner = Vec::new();
        let mut count = 0;
        for (k, subject_names) in names.enumerate() {
            count += 1;
            for name in subject_names {
                patterns.push(name);
                owner.push(k);
            }
        }
        let matcher = (count > 0)
            .then(|| AhoCorasick::new(&patterns).ok())
            .flatten();
        // Should the matcher fail to build, say nothing rather than warn
        // about every hidden subject.
        let unknown = matcher.is_none();
        Self {
            matcher,
            owner,
            found: vec![unknown; count],
            left: if unknown { 0 } else { count },
        }
    }

    fn scan(&mut self, text: &str) {
        let Some(matcher) = &self.matcher else {
            return;
        };
        if self.left == 0 {
            return;
        }
        for m in matcher.find_overlapping_iter(text) {
            let k = self.owner[m.pattern().as_usize()];
            if !std::mem::replace(&mut self.found[k], true) {
                self.left -= 1;
                if self.left == 0 {
                    return;
                }
            }
        }
    }
}

/// KB112: the `<knowledge>` section is over its token budget.
pub fn prompt_finding(kb: &KnowledgeBase, thresholds: &Thresholds) -> Option<Finding> {
    let limit = thresholds.max_prompt_tokens;
    let section = kb.knowledge_section()?;
    if section.len() <= limit {
        return None;
    }
    let tokens = count_tokens(&section).filter(|&n| n > limit)?;
    // The largest pre-loaded subjects, by size first (cheap), then counted.
    let mut learned: Vec<(u64, String, &crate::subjects::Subject)> = Vec::new();
    for state in kb.enabled_topics() {
        let Some(resolution) = state.resolution() else {
            continue;
        };
        for &i in &resolution.learned_order {
            let s = &resolution.subjects()[i];
            learned.push((s.bytes, format!("{}/{}", state.id(), s.slug()), s));
        }
    }
    learned.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut largest: Vec<(usize, &str)> = learned
        .iter()
        .take(3)
        .map(|(_, name, s)| {
            let text = format_subject(
                s.slug(),
                s.extension(),
                &read_content(&Root::new(kb.root()), s.path()),
            );
            (count_tokens(&text).unwrap_or(0), name.as_str())
        })
        .collect();
    largest.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let hint = if learned.is_empty() {
        "the list of topics alone is this large: disable topics the assistant does not need (or raise --max-prompt-tokens)".to_owned()
    } else {
        let top: Vec<String> = largest
            .iter()
            .map(|(n, name)| format!("{name} ({n} tokens)"))
            .collect();
        format!(
            "the largest pre-loaded subjects are {}; un-learn some (they stay loadable with `learn`), or raise --max-prompt-tokens",
            top.join(", ")
        )
    };
    Some(
        Finding::new(
            Code::PromptTooLarge,
            format!("the <knowledge> section is {tokens} tokens, above the budget of {limit}"),
        )
        .hint(hint),
    )
}
