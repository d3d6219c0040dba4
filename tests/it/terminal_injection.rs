#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Hostile names never drive the terminal (issue 12, item 13): a topic
//! id and title, patterns and subject file names holding ESC sequences
//! (CSI 2J, OSC 8 and 52), BEL, newlines, a bidi override and a
//! zero-width space go through `list`, `list TOPIC --all`, `check`, an
//! edit and an error: no raw control, bidi or zero-width character
//! reaches stdout or stderr, tables stay aligned, JSON stays JSON with
//! the same values. The assistant-facing `prompt` keeps every byte, and
//! the TUI's cells hold none of them either.

use super::common;

use std::path::Path;

use jp_kb::tui::harness::Harness;
use tempfile::TempDir;

/// The topic id as TOML spells it, and as it is.
const ID_TOML: &str = "ev\\u001b[2Jil\\u202e\\u200bx";
const ID: &str = "ev\u{1b}[2Jil\u{202e}\u{200b}x";
const TITLE_TOML: &str = "T\\u001b]8;;http://x\\u0007link\\u001b]8;;\\u0007 \\u001b]52;c;aGk=\\u0007\\nline2 \\u202eRTL \\u200bzw\\u0007";
const TITLE: &str = "T\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7} \u{1b}]52;c;aGk=\u{7}\nline2 \u{202e}RTL \u{200b}zw\u{7}";
/// Subject files (slug = name without `.md`).
const FILES: [&str; 6] = [
    "a\u{1b}[2Jb",
    "x\ny",
    "r\u{202e}evil",
    "z\u{200b}w",
    "o\u{1b}]52;c;aGk=\u{7}",
    "plain",
];

/// What must never reach a terminal raw (an independent list: the
/// characters the issue names, and every control but the newline).
fn is_hostile(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{61c}'
                | '\u{200b}'..='\u{200d}'
                | '\u{2060}'
                | '\u{feff}'
        )
}

fn assert_clean(what: &str, text: &str) {
    let bad: Vec<String> = text
        .chars()
        .filter(|c| is_hostile(*c))
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    assert!(bad.is_empty(), "{what}: raw {bad:?} in:\n{text:?}");
}

fn workspace() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join(".jp/kb/ev")).unwrap();
    // A raw U+202E in patterns (TOML allows it in strings; the first one
    // shifts the second's caret once escaped) and in an unknown key:
    // `check` quotes those lines, warnings name the key.
    let config = format!(
        "[kb.topic.\"{ID_TOML}\"]\ntitle = \"{TITLE_TOML}\"\nsubjects = \".jp/kb/ev\"\n\
         learned = [\"a\\u001b[2Jb\", \"r\u{202e}evil\", \"nope\u{202e}*\"]\n\"learnd\u{202e}\" = 1\n"
    );
    std::fs::write(ws.join(".jp/config.toml"), config).unwrap();
    for name in FILES {
        std::fs::write(ws.join(format!(".jp/kb/ev/{name}.md")), "body\n").unwrap();
    }
    dir
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let out = common::jp_kb(dir, &dir.join("ws"))
        .args(args)
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    let what = args.join(" ");
    assert_clean(&format!("{what:?} stdout"), &run.stdout);
    assert_clean(&format!("{what:?} stderr"), &run.stderr);
    run
}

#[test]
fn list_escapes_names_and_keeps_rows_aligned() {
    let dir = workspace();
    let topics = run(dir.path(), &["list"]);
    assert_eq!(topics.code, Some(0), "{}", topics.stderr);
    assert!(
        topics.stdout.contains("ev^[[2Jil<U+202E><U+200B>x"),
        "{}",
        topics.stdout
    );
    assert!(
        topics.stdout.contains(
            "T^[]8;;http://x^Glink^[]8;;^G ^[]52;c;aGk=^G^Jline2 <U+202E>RTL <U+200B>zw^G"
        ),
        "{}",
        topics.stdout
    );
    // The unknown key's warning names it, escaped.
    assert!(
        topics.stderr.contains("learnd<U+202E>"),
        "{}",
        topics.stderr
    );

    let subjects = run(dir.path(), &["list", ID, "--all"]);
    assert_eq!(subjects.code, Some(0), "{}", subjects.stderr);
    let rows: Vec<&str> = subjects
        .stdout
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        rows.len(),
        FILES.len(),
        "one line per subject:\n{}",
        subjects.stdout
    );
    for slug in [
        "a^[[2Jb",
        "x^Jy",
        "r<U+202E>evil",
        "z<U+200B>w",
        "o^[]52;c;aGk=^G",
    ] {
        assert!(
            subjects.stdout.contains(slug),
            "{slug}: {}",
            subjects.stdout
        );
    }
    // Every size ends in the same column.
    let ends: Vec<usize> = rows.iter().map(|r| r.find(" B  ").unwrap()).collect();
    assert!(
        ends.windows(2).all(|w| w[0] == w[1]),
        "misaligned:\n{}",
        subjects.stdout
    );
    assert!(
        subjects
            .stdout
            .contains("learned by exact slug \"a^[[2Jb\""),
        "{}",
        subjects.stdout
    );
}

#[test]
fn json_stays_json_with_the_same_values() {
    let dir = workspace();
    let topics = run(dir.path(), &["list", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&topics.stdout).unwrap();
    assert_eq!(value[0]["id"], ID);
    assert_eq!(value[0]["title"], TITLE);
    let subjects = run(dir.path(), &["list", ID, "--all", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&subjects.stdout).unwrap();
    let mut slugs: Vec<&str> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["slug"].as_str().unwrap())
        .collect();
    slugs.sort_unstable();
    let mut files = FILES.to_vec();
    files.sort_unstable();
    assert_eq!(slugs, files);
    let check = run(dir.path(), &["check", "--json"]);
    for line in check.stdout.lines() {
        let _: serde_json::Value = serde_json::from_str(line).unwrap();
    }
    assert!(check.stdout.contains("nope\\u202e*"), "{}", check.stdout);
}

#[test]
fn check_escapes_messages_and_quoted_sources() {
    let dir = workspace();
    let check = run(dir.path(), &["check"]);
    // The pattern that selects nothing, quoted from the source with its
    // caret still under it.
    assert!(check.stdout.contains("nope<U+202E>*"), "{}", check.stdout);
    assert!(check.stdout.contains("learnd<U+202E>"), "{}", check.stdout);
    let lines: Vec<&str> = check.stdout.lines().collect();
    let [quoted, caret_line] = lines
        .windows(2)
        .find(|w| w[0].contains("nope<U+202E>*") && w[1].contains('┬'))
        .map_or_else(
            || panic!("no underlined pattern:\n{}", check.stdout),
            |w| [w[0], w[1]],
        );
    let column = |line: &str, byte: usize| line[..byte].chars().count();
    let pattern_col = column(quoted, quoted.find("\"nope").unwrap());
    let caret_col = column(caret_line, caret_line.find(['┬', '─']).unwrap());
    assert_eq!(
        pattern_col, caret_col,
        "caret moved:\n{quoted}\n{caret_line}"
    );
}

#[test]
fn edits_and_errors_escape_names() {
    let dir = workspace();
    let add = run(dir.path(), &["learned", "add", ID, "x\ny", "--diff"]);
    assert_eq!(add.code, Some(0), "{}", add.stderr);
    assert!(add.stdout.contains("`x^Jy`"), "{}", add.stdout);
    assert!(
        add.stdout
            .contains("now: topic `ev^[[2Jil<U+202E><U+200B>x`"),
        "{}",
        add.stdout
    );
    let again = run(dir.path(), &["learned", "rm", ID, "q\u{1b}[2Jq"]);
    assert!(
        again.stdout.contains("q^[[2Jq"),
        "{}{}",
        again.stdout,
        again.stderr
    );

    let unknown = run(dir.path(), &["list", "no\u{1b}]52;c;aGk=\u{7}\nsuch"]);
    assert_eq!(unknown.code, Some(1));
    assert!(
        unknown.stderr.contains(
            "unknown topic `no^[]52;c;aGk=^G^Jsuch`; valid topics: ev^[[2Jil<U+202E><U+200B>x"
        ),
        "{}",
        unknown.stderr
    );
}

#[test]
fn prompt_keeps_every_byte() {
    let dir = workspace();
    let out = common::jp_kb(dir.path(), &dir.path().join("ws"))
        .arg("prompt")
        .output()
        .unwrap();
    let prompt = String::from_utf8(out.stdout).unwrap();
    // The assistant gets the title and the slug as they are.
    assert!(
        prompt.contains(&format!("<topic \"{TITLE}\">")),
        "{prompt:?}"
    );
    assert!(prompt.contains("<subject \"a\u{1b}[2Jb\">"), "{prompt:?}");
}

#[test]
fn tui_cells_hold_no_hostile_character() {
    let dir = workspace();
    let h = Harness::open(&dir.path().join("ws"), 120, 30, false);
    let buffer = h.render();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            assert!(
                !symbol.chars().any(is_hostile),
                "cell ({x},{y}) holds {symbol:?}; screen:\n{}",
                h.screen()
            );
        }
    }
    let screen = h.screen();
    assert!(screen.contains("ev^[[2Jil<U+202E><U+200B>x"), "{screen}");
    assert!(screen.contains("r<U+202E>evil.md"), "{screen}");
    // Every row as wide as the screen: the right border in the last column.
    for line in screen.lines().filter(|l| l.starts_with('│')) {
        assert!(line.ends_with('│'), "row cut short:\n{screen}");
    }
}
