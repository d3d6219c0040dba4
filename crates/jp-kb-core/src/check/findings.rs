//! What `jp-kb check` reports: a [`Finding`] with a stable [`Code`], its
//! [`Severity`], and the place it is about. `docs/check.md` documents every
//! code; a test keeps the two in step.

use std::ops::Range;
use std::path::PathBuf;

use crate::remedy::Remedy;

/// How bad a finding is. Errors make `jp-kb check` exit 1; warnings only
/// with `--deny-warnings`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// Something that keeps the assistant from getting what was meant.
    Error,
    /// Something that is probably not what was meant.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $severity:ident, $label:literal;)*) => {
        /// The stable code of a finding. Codes are never renumbered or
        /// reused; `KB0xx` are errors, `KB1xx` warnings.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $(
                #[doc = concat!("`", $code, "` (", stringify!($severity), "): ", $label, ".")]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// `KB001`…
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// Error or warning: fixed for each code.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// A few words for the caret under the source: what is wrong
            /// with the thing pointed at.
            pub fn label(self) -> &'static str {
                match self {
                    $(Code::$variant => $label,)*
                }
            }
        }
    };
}

codes! {
    ConfigParse = "KB001", Error, "does not parse";
    WrongType = "KB002", Error, "wrong type or value";
    SubjectsMissing = "KB003", Error, "topic without `subjects`";
    SubjectsAbsolute = "KB004", Error, "absolute path";
    SubjectsEscape = "KB005", Error, "leaves the workspace";
    SubjectsNotFound = "KB006", Error, "no such directory";
    SubjectsNotDirectory = "KB007", Error, "not a directory";
    ExtendsCycle = "KB008", Error, "closes an `extends` cycle";
    ExtendsMissing = "KB009", Error, "no such file";
    UnknownTopic = "KB010", Error, "unknown topic";
    BadArgument = "KB011", Error, "invalid argument";
    LoadFailed = "KB012", Error, "cannot be read";
    ClientSetup = "KB013", Error, "the client does not get what `connect` set up";
    Untrusted = "KB014", Error, "another user could have written it";
    FactsMalformed = "KB015", Error, "not a Facts entry as the format has it";
    FactIdMalformed = "KB016", Error, "not `{domain}:{category}:{sequence}`";
    FactIdDuplicate = "KB017", Error, "id used twice";
    FactIdMismatch = "KB018", Error, "id disagrees with the fact";
    FactCategoryUnknown = "KB019", Error, "unknown category";
    FactConfidenceRange = "KB020", Error, "confidence outside 0–1";
    FactDateInvalid = "KB021", Error, "not an ISO-8601 date";
    FactRelatedMissing = "KB022", Error, "names no fact";
    FactsTotalMismatch = "KB023", Error, "not the number of facts";
    UnknownKey = "KB101", Warning, "unknown key";
    LearnedSelectsNothing = "KB102", Warning, "selects nothing";
    DisabledSelectsNothing = "KB103", Warning, "selects nothing";
    DisabledNotASlug = "KB104", Warning, "not a slug of this topic";
    LearnedAndDisabled = "KB105", Warning, "also disabled: disabled wins";
    SlugCollision = "KB106", Warning, "slug collision";
    BinarySubject = "KB107", Warning, "binary";
    NotUtf8Subject = "KB108", Warning, "not UTF-8";
    UnreadableSubject = "KB109", Warning, "unreadable";
    SymlinkOutside = "KB110", Warning, "symlink leaves the workspace";
    SubjectTooLarge = "KB111", Warning, "too many tokens";
    PromptTooLarge = "KB112", Warning, "knowledge section over budget";
    TopicUndescribed = "KB113", Warning, "no title and no introduction";
    TopicEmpty = "KB114", Warning, "contributes nothing to the prompt";
    HiddenUnreachable = "KB115", Warning, "never mentioned";
    SubjectOverSizeLimit = "KB116", Warning, "too large to read";
    WorkspaceIdInvalid = "KB117", Warning, "not a workspace id";
    JpConnectedTwice = "KB118", Warning, "sent twice";
    KbInJpFile = "KB120", Warning, "JP refuses this `kb` table";
    GeneratedStale = "KB121", Warning, "out of date";
    KbUnreadByJp = "KB123", Warning, "JP with the knowledge base inside does not read this file";
    ClientLoss = "KB122", Warning, "does not reach the client's model";
    ClientCannotStart = "KB124", Warning, "the client cannot start jp-kb";
    ConversationKeepsOlder = "KB125", Warning, "a JP conversation keeps an older section";
    FactsIndexDisagrees = "KB126", Warning, "index and YAML files disagree";
    FactExpired = "KB127", Warning, "expired";
    SubjectExpired = "KB128", Warning, "expired";
    AgingUnreadable = "KB129", Warning, "cannot be read as a date or confidence";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem `jp-kb check` found.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Finding {
    /// Its stable code (`KB001`…).
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One sentence: what is wrong.
    pub message: String,
    /// The file it is about: relative to the workspace root when inside it,
    /// else absolute. `None` when it comes from the command line or is
    /// about the whole workspace.
    pub file: Option<PathBuf>,
    /// 1-based line in `file`, when known.
    pub line: Option<u32>,
    /// 1-based column (in characters) in `file`, when known.
    pub column: Option<u32>,
    /// The topic it is about, if any.
    pub topic: Option<String>,
    /// The subject's slug.
    pub subject: Option<String>,
    /// How to fix it, in plain words.
    pub hint: Option<String>,
    /// The action the hint names, when a front end may word it as one of
    /// its commands (the hint holds its [`Remedy::phrase`]).
    pub remedy: Option<Remedy>,
    /// The byte range of `file` the finding points at (for rendering).
    pub span: Option<Range<usize>>,
}

impl Finding {
    /// A finding of `code` with its severity and message; add the rest
    /// with the builder methods.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: code.severity(),
            message: message.into(),
            file: None,
            line: None,
            column: None,
            topic: None,
            subject: None,
            hint: None,
            remedy: None,
            span: None,
        }
    }

    /// About the topic `topic`.
    #[must_use]
    pub fn topic(mut self, topic: &str) -> Self {
        self.topic = Some(topic.to_owned());
        self
    }

    /// About the subject `slug` (of its topic).
    #[must_use]
    pub fn subject(mut self, slug: &str) -> Self {
        self.subject = Some(slug.to_owned());
        self
    }

    /// With a hint on how to fix it.
    #[must_use]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// With `remedy` as (part of) its hint: `hint` is given the remedy's
    /// phrase and returns the whole hint.
    #[must_use]
    pub fn remedy(mut self, remedy: Remedy, hint: impl FnOnce(&str) -> String) -> Self {
        self.hint = Some(hint(&remedy.phrase()));
        self.remedy = Some(remedy);
        self
    }

    #[must_use]
    #[doc(hidden)]
    pub fn at(mut self, location: super::locate::Location) -> Self {
        self.file = location.file;
        self.line = location.line;
        self.column = location.column;
        self.span = location.span;
        self
    }
}

/// Thresholds of the size findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Thresholds {
    /// A subject above this many tokens is reported (KB111).
    pub max_subject_tokens: usize,
    /// A `<knowledge>` section above this many tokens is reported (KB112).
    pub max_prompt_tokens: usize,
    /// Read subject contents (binary, UTF-8, size, hidden-mention checks)
    /// only in topics of at most this many subjects; `None`: always. The
    /// TUI sets it so a 100k-subject topic does not cost a gigabyte read
    /// after every edit; the topics skipped are listed in the report.
    pub content_scan_limit: Option<usize>,
    /// The day expiry is judged on (KB127, KB128); `None`: today, by the
    /// system clock. The front ends set it from `JP_KB_TODAY` when given.
    pub today: Option<crate::facts::Day>,
}

impl Thresholds {
    /// The default of [`Thresholds::max_subject_tokens`].
    pub const DEFAULT_MAX_SUBJECT_TOKENS: usize = 10_000;
    /// The default of [`Thresholds::max_prompt_tokens`]: the planner's
    /// budget.
    pub const DEFAULT_MAX_PROMPT_TOKENS: usize = crate::edit::plan::DEFAULT_BUDGET;

    /// Reports a subject above `tokens` tokens (KB111).
    #[must_use]
    pub fn max_subject_tokens(mut self, tokens: usize) -> Self {
        self.max_subject_tokens = tokens;
        self
    }

    /// Reports a `<knowledge>` section above `tokens` tokens (KB112).
    #[must_use]
    pub fn max_prompt_tokens(mut self, tokens: usize) -> Self {
        self.max_prompt_tokens = tokens;
        self
    }

    /// Judges expiry as of `today` (else the system clock's day).
    #[must_use]
    pub fn today(mut self, today: Option<crate::facts::Day>) -> Self {
        self.today = today;
        self
    }

    /// Reads subject contents only in topics of at most `limit` subjects
    /// (`None`: always).
    #[must_use]
    pub fn content_scan_limit(mut self, limit: Option<usize>) -> Self {
        self.content_scan_limit = limit;
        self
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            max_subject_tokens: Self::DEFAULT_MAX_SUBJECT_TOKENS,
            max_prompt_tokens: Self::DEFAULT_MAX_PROMPT_TOKENS,
            content_scan_limit: None,
            today: None,
        }
    }
}

/// Everything one check found, with the texts of the files the findings
/// point into (so a report can quote them without reading files again).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckReport {
    /// The workspace root, when one was found.
    pub root: Option<PathBuf>,
    /// Every finding, in the order `check` reports them.
    pub findings: Vec<Finding>,
    /// Source texts by the findings' `file` values.
    pub sources: std::collections::BTreeMap<PathBuf, String>,
    /// Topics whose subject contents were not read (over
    /// [`Thresholds::content_scan_limit`]). Checks that need no subject
    /// contents (configuration, patterns, the `<knowledge>` budget) still ran.
    pub content_skipped: Vec<String>,
}

impl CheckReport {
    /// How many findings are errors.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// How many findings are warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Whether the check fails: any error, or any warning when warnings
    /// are denied.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.errors() > 0 || (deny_warnings && self.warnings() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_follow_severity() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            let prefix = match code.severity() {
                Severity::Error => "KB0",
                Severity::Warning => "KB1",
            };
            assert!(code.as_str().starts_with(prefix), "{code}");
        }
    }

    #[test]
    fn every_code_is_documented_with_its_severity() {
        let docs = include_str!("../../../../docs/check.md");
        let errors = docs.split("### Warnings").next().unwrap_or_default();
        for code in Code::ALL {
            let row = format!("| {code} |");
            assert!(docs.contains(&row), "{code} is missing from docs/check.md");
            let in_errors = errors.contains(&row);
            assert_eq!(in_errors, code.severity() == Severity::Error, "{code}");
        }
    }

    #[test]
    fn fails_on_errors_or_denied_warnings() {
        let mut report = CheckReport::default();
        assert!(!report.fails(true));
        report
            .findings
            .push(Finding::new(Code::UnknownKey, "unknown key"));
        assert!(!report.fails(false));
        assert!(report.fails(true));
        report
            .findings
            .push(Finding::new(Code::ConfigParse, "bad toml"));
        assert!(report.fails(false));
        assert_eq!((report.errors(), report.warnings()), (1, 1));
    }
}
