//! `jp-kb check` on knowledge in the Facts format (`tests/facts/valid`: an
//! `index.json` and YAML files as the format's spec shows them, and notes
//! whose front matter says when they expire): the valid tree has no
//! finding; each defect, made in a copy, is reported with its code at its
//! file, line and column, and nothing else is. Judged as of
//! `JP_KB_TODAY=2026-05-01`.

use super::common;

use common::Sandbox;
use serde_json::Value;

const TODAY: &str = "2026-05-01";

fn valid() -> Sandbox {
    Sandbox::with_fixture(&common::fixtures().join("facts").join("valid"))
}

/// Runs `check --json` as of [`TODAY`]: the findings and the exit status.
fn check(sb: &Sandbox) -> (Vec<Value>, i32) {
    let out = sb
        .cmd()
        .env("JP_KB_TODAY", TODAY)
        .args(["check", "--json"])
        .output()
        .unwrap();
    let findings = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (findings, out.status.code().unwrap_or(-1))
}

/// Replaces the one occurrence of `from` in the workspace file `file`.
fn edit(sb: &Sandbox, file: &str, from: &str, to: &str) {
    let path = sb.ws().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches(from).count(), 1, "`{from}` in {file}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// `(code, file, line, column)` of the `nth` (0-based) occurrence of
/// `needle` in the workspace file `file`, counted independently of jp-kb.
fn at(
    sb: &Sandbox,
    code: &str,
    file: &str,
    needle: &str,
    nth: usize,
) -> (String, String, u64, u64) {
    let text = std::fs::read_to_string(sb.ws().join(file)).unwrap();
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("no `{needle}` #{nth} in {file}"))
        .0;
    let before = &text[..offset];
    let line = before.matches('\n').count() as u64 + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count() as u64
        + 1;
    (code.to_owned(), file.to_owned(), line, column)
}

fn places(findings: &[Value]) -> Vec<(String, String, u64, u64)> {
    findings
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_owned(),
                f["file"].as_str().unwrap_or("").to_owned(),
                f["line"].as_u64().unwrap_or(0),
                f["column"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

const INDEX: &str = "knowledge/index.json";
const PITFALLS: &str = "knowledge/global/pitfalls.yaml";
const PATTERNS: &str = "knowledge/global/patterns.yaml";
const QUIRKS: &str = "knowledge/global/tool-quirks.yaml";
const REPO: &str = "knowledge/repos/jp-kb.yaml";
const REVIEWER: &str = "knowledge/agents/reviewer.yaml";

#[test]
fn facts_the_valid_twin_has_no_finding() {
    let sb = valid();
    let (findings, status) = check(&sb);
    assert_eq!(findings, Vec::<Value>::new());
    assert_eq!(status, 0);
}

/// Each defect: the edits that make it, then where it must be reported
/// (`(code, file, needle, nth)`), exactly and nothing else.
struct Defect {
    name: &'static str,
    edits: &'static [(&'static str, &'static str, &'static str)],
    expected: &'static [(&'static str, &'static str, &'static str, usize)],
    status: i32,
}

const DEFECTS: &[Defect] = &[
    Defect {
        name: "an id that is not domain:category:sequence",
        edits: &[
            (
                QUIRKS,
                "id: global:tool-quirk:001",
                "id: global-tool-quirk-001",
            ),
            (
                INDEX,
                "\"global:tool-quirk:001\"",
                "\"global-tool-quirk-001\"",
            ),
        ],
        expected: &[
            ("KB016", QUIRKS, "global-tool-quirk-001", 0),
            ("KB016", INDEX, "\"global-tool-quirk-001\"", 0),
        ],
        status: 1,
    },
    Defect {
        name: "an id used twice, in the YAML files and in the index",
        edits: &[
            (PITFALLS, "id: global:pitfall:002", "id: global:pitfall:001"),
            (
                INDEX,
                "\"id\": \"global:pitfall:002\"",
                "\"id\": \"global:pitfall:001\"",
            ),
        ],
        expected: &[
            ("KB017", INDEX, "\"global:pitfall:001\"", 1),
            ("KB017", PITFALLS, "global:pitfall:001", 1),
        ],
        status: 1,
    },
    Defect {
        name: "the same id in two YAML files",
        edits: &[
            (
                REVIEWER,
                "id: reviewer:pattern:001",
                "id: global:pattern:001\n  domain: global",
            ),
            (
                INDEX,
                "\"id\": \"reviewer:pattern:001\"",
                "\"id\": \"global:pattern:001\"",
            ),
            (INDEX, "\"domain\": \"reviewer\"", "\"domain\": \"global\""),
        ],
        // Walked in slug order: `agents/` before `global/`.
        expected: &[
            ("KB017", INDEX, "\"global:pattern:001\"", 2),
            ("KB017", PATTERNS, "global:pattern:001", 0),
        ],
        status: 1,
    },
    Defect {
        name: "an id whose domain is not the fact's",
        edits: &[
            (
                REVIEWER,
                "id: reviewer:pattern:001",
                "id: review:pattern:001",
            ),
            (INDEX, "\"reviewer:pattern:001\"", "\"review:pattern:001\""),
        ],
        expected: &[
            ("KB018", INDEX, "\"review:pattern:001\"", 0),
            ("KB018", REVIEWER, "review:pattern:001", 0),
        ],
        status: 1,
    },
    Defect {
        name: "an id whose category is not the fact's (inherited from the file)",
        edits: &[
            (
                QUIRKS,
                "id: global:tool-quirk:001",
                "id: global:pitfall:009",
            ),
            (INDEX, "\"global:tool-quirk:001\"", "\"global:pitfall:009\""),
        ],
        expected: &[
            ("KB018", QUIRKS, "global:pitfall:009", 0),
            ("KB018", INDEX, "\"global:pitfall:009\"", 0),
        ],
        status: 1,
    },
    Defect {
        name: "a category outside the enum",
        edits: &[
            (REPO, "category: question", "category: quesion"),
            (
                INDEX,
                "\"category\": \"question\"",
                "\"category\": \"quesion\"",
            ),
        ],
        expected: &[
            ("KB019", INDEX, "\"quesion\"", 0),
            ("KB019", REPO, "quesion", 0),
        ],
        status: 1,
    },
    Defect {
        name: "a front matter category outside the enum (the index disagrees)",
        edits: &[(REVIEWER, "category: pattern", "category: patterns")],
        expected: &[
            ("KB126", INDEX, "\"pattern\",", 1),
            ("KB019", REVIEWER, "patterns", 0),
        ],
        status: 1,
    },
    Defect {
        name: "a confidence above 1",
        edits: &[
            (PATTERNS, "confidence: 0.9\n", "confidence: 1.9\n"),
            (INDEX, "\"confidence\": 0.9,", "\"confidence\": 1.9,"),
        ],
        expected: &[("KB020", INDEX, "1.9", 0), ("KB020", PATTERNS, "1.9", 0)],
        status: 1,
    },
    Defect {
        name: "a date that is no calendar day",
        edits: &[
            (QUIRKS, "\"2026-04-02\"", "\"2026-04-31\""),
            (INDEX, "\"2026-04-02\"", "\"2026-04-31\""),
        ],
        expected: &[
            ("KB021", INDEX, "\"2026-04-31\"", 0),
            ("KB021", QUIRKS, "\"2026-04-31\"", 0),
        ],
        status: 1,
    },
    Defect {
        name: "an expired fact of a pre-loaded file",
        edits: &[
            (PITFALLS, "\"2026-12-31\"", "\"2026-04-30\""),
            (INDEX, "\"2026-12-31\"", "\"2026-04-30\""),
        ],
        expected: &[
            ("KB127", INDEX, "\"2026-04-30\"", 0),
            ("KB127", PITFALLS, "\"2026-04-30\"", 0),
        ],
        status: 0,
    },
    Defect {
        name: "a related id that names nothing",
        edits: &[
            (
                PATTERNS,
                "related: [global:pitfall:001]",
                "related: [global:pitfall:011]",
            ),
            (
                INDEX,
                "\"global:pitfall:001\"\n",
                "\"global:pitfall:011\"\n",
            ),
        ],
        expected: &[
            ("KB022", INDEX, "\"global:pitfall:011\"", 0),
            ("KB022", PATTERNS, "global:pitfall:011", 0),
        ],
        status: 1,
    },
    Defect {
        name: "total_facts that is not the count",
        edits: &[(INDEX, "\"total_facts\": 7", "\"total_facts\": 8")],
        expected: &[("KB023", INDEX, "8", 0)],
        status: 1,
    },
    Defect {
        name: "the index and a YAML file disagreeing on a field",
        edits: &[(INDEX, "\"confidence\": 0.7", "\"confidence\": 0.75")],
        expected: &[("KB126", INDEX, "0.75", 0)],
        status: 0,
    },
    Defect {
        name: "a fact of the index in no YAML file",
        edits: &[(
            QUIRKS,
            "- id: global:tool-quirk:001\n  fact: \"tmux capture-pane drops trailing spaces unless -N is given.\"\n  confidence: 0.7\n  tags: [tmux, tests]\n  source_count: 1\n  first_seen: \"2026-04-02\"\n",
            "",
        )],
        expected: &[("KB126", INDEX, "\"global:tool-quirk:001\"", 0)],
        status: 0,
    },
    Defect {
        name: "a fact of a YAML file not in the index",
        edits: &[(
            QUIRKS,
            "  first_seen: \"2026-04-02\"\n",
            "  first_seen: \"2026-04-02\"\n\n- id: global:tool-quirk:002\n  fact: \"less needs -R for colours.\"\n  confidence: 0.9\n",
        )],
        expected: &[("KB126", QUIRKS, "global:tool-quirk:002", 0)],
        status: 0,
    },
    Defect {
        name: "a fact without confidence",
        edits: &[
            (QUIRKS, "  confidence: 0.7\n", ""),
            (INDEX, "\"confidence\": 0.7,", ""),
        ],
        expected: &[
            ("KB015", INDEX, "{", 4),
            ("KB015", QUIRKS, "- id: global:tool-quirk:001", 0),
        ],
        status: 1,
    },
    Defect {
        name: "tags that are not a list",
        edits: &[(QUIRKS, "tags: [tmux, tests]", "tags: tmux")],
        expected: &[
            ("KB126", INDEX, "[\n        \"tmux\"", 0),
            ("KB015", QUIRKS, "tmux", 1),
        ],
        status: 1,
    },
    Defect {
        name: "a YAML entry that does not parse",
        edits: &[(QUIRKS, "tags: [tmux, tests]", "tags: [tmux, tests")],
        expected: &[
            ("KB126", INDEX, "\"global:tool-quirk:001\"", 0),
            // Where libyaml (and PyYAML) find the list unclosed: the `:`
            // after `source_count`, a key a flow sequence cannot hold.
            ("KB015", QUIRKS, ": 1\n", 1),
        ],
        status: 1,
    },
    Defect {
        name: "an index that does not parse",
        edits: &[(INDEX, "\"total_facts\": 7,", "\"total_facts\": 7")],
        expected: &[("KB015", INDEX, "\"facts\"", 0)],
        status: 1,
    },
    Defect {
        name: "an expired pre-loaded note",
        edits: &[(
            "notes/release-freeze.md",
            "\"2026-06-30\"",
            "\"2026-04-30\"",
        )],
        expected: &[("KB128", "notes/release-freeze.md", "\"2026-04-30\"", 0)],
        status: 0,
    },
    Defect {
        name: "a note whose confidence is a word",
        edits: &[(
            "notes/conventions.md",
            "confidence: 0.95",
            "confidence: high",
        )],
        expected: &[("KB129", "notes/conventions.md", "high", 0)],
        status: 0,
    },
];

#[test]
fn facts_each_defect_is_reported_with_its_code_at_its_place() {
    let mut failures = Vec::new();
    for defect in DEFECTS {
        let sb = valid();
        for (file, from, to) in defect.edits {
            edit(&sb, file, from, to);
        }
        let (findings, status) = check(&sb);
        let mut expected: Vec<_> = defect
            .expected
            .iter()
            .map(|(code, file, needle, nth)| at(&sb, code, file, needle, *nth))
            .collect();
        let mut got = places(&findings);
        expected.sort();
        got.sort();
        if got != expected || status != defect.status {
            failures.push(format!(
                "{}: expected {expected:?} (exit {}), got {got:?} (exit {status})\n{findings:#?}",
                defect.name, defect.status
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn facts_an_expired_preloaded_fact_says_so_with_its_date() {
    let sb = valid();
    edit(&sb, PITFALLS, "\"2026-12-31\"", "\"2026-04-30\"");
    edit(&sb, INDEX, "\"2026-12-31\"", "\"2026-04-30\"");
    let (findings, _) = check(&sb);
    let yaml = findings.iter().find(|f| f["file"] == PITFALLS).unwrap();
    assert_eq!(
        yaml["message"],
        "fact `global:pitfall:002` expired on 2026-04-30 (1 day ago), and its file is pre-loaded into the system prompt"
    );
    assert_eq!(yaml["subject"], "global/pitfalls");
    assert_eq!(yaml["severity"], "warning");
    // The next day is not yet expiry for a fact that expires on it.
    let out = sb
        .cmd()
        .env("JP_KB_TODAY", "2026-04-30")
        .args(["check", "--json"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
}

#[test]
fn facts_human_output_quotes_the_line_with_a_caret() {
    let sb = valid();
    edit(&sb, PATTERNS, "confidence: 0.9\n", "confidence: 1.9\n");
    let out = sb
        .cmd()
        .env("JP_KB_TODAY", TODAY)
        .arg("check")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("KB020"), "{text}");
    assert!(
        text.contains("knowledge/global/patterns.yaml:12:15"),
        "{text}"
    );
    assert!(text.contains("12 │   confidence: 1.9"), "{text}");
    assert!(text.contains("confidence outside 0–1"), "{text}");
}
