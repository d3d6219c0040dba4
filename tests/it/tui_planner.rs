#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The TUI asks the curation planner (issue 14 items 1, 2, 6): `f` is a
//! layer picker whose layer declares the topic on the first edit, and the
//! cost of a change is shown before it.

use super::tui_support;

use jp_kb::tui::app::Mode;
use tui_support::Demo;

/// Issue 14 items 1 and 2: `f` is a picker; a layer that does not exist
/// yet (`.jp.toml` here) is offered, the status line names it, and the
/// first `l` creates it declaring the topic, as `learned add --file`
/// does.
#[test]
fn a_picked_layer_that_does_not_declare_the_topic_declares_it() {
    let mut d = Demo::new(120, 40);
    let team = d.config_text();
    let jp_toml = d.root().join(".jp.toml");
    assert!(!jp_toml.exists());
    d.keys("f");
    let Mode::Picker(p) = d.h.mode() else {
        panic!("f opens the layer picker");
    };
    let offered: Vec<(&str, &str, bool, bool)> = p
        .layers
        .iter()
        .map(|l| (l.shown.as_str(), l.role, l.exists, l.declares))
        .collect();
    assert_eq!(
        offered,
        [
            (".jp/kb.toml", "team", true, true),
            (".jp.toml", ".jp.toml", false, false)
        ]
    );
    // Esc keeps the target.
    d.keys("\u{1b}");
    assert!(matches!(d.h.mode(), Mode::Normal));
    d.pick_layer(".jp.toml");
    let status = d.h.status_line().to_owned();
    assert!(
        status.contains("edits now go to .jp.toml (.jp.toml); created on the first edit"),
        "{status}"
    );
    assert!(
        status.contains("JP loads it: a `kb` table there stops today's JP"),
        "{status}"
    );
    assert!(d.screen().contains("edits→ .jp.toml"), "{}", d.screen());
    d.keys("\t");
    d.select("release");
    d.keys("l");
    // JP loads `.jp.toml` and refuses a `kb` table there today: the first
    // one asks first, and nothing is written before the answer.
    let screen = d.screen();
    let joined: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("puts a `kb` table into .jp.toml, which JP loads"),
        "{screen}"
    );
    assert!(!jp_toml.exists());
    d.keys("\n");
    assert_eq!(
        std::fs::read_to_string(&jp_toml).unwrap(),
        "[kb.topic.project]\nlearned = [\"release\"]\n"
    );
    assert_eq!(d.config_text(), team, "the team's file is untouched");
    let prompt = d.h.section().unwrap();
    assert!(prompt.contains("<subject \"release\">"), "{prompt}");
}

/// Issue 14 item 6: the cost is visible before the change — in the
/// subject preview's header, in the pattern tester before Enter, and per
/// option of a dialog — and crossing the budget asks first.
#[test]
fn the_cost_is_shown_before_the_change() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("code-q");
    let tokens = d.h.model().unwrap().prompt_tokens.unwrap();
    // The section's change, framing included (issue 26 item 1): the
    // subject's own 140 tokens and its `<subject>` wrapper and separator.
    let screen = d.screen();
    let expected = format!("l (learn): +149 tok → {} tok, budget 20,000", tokens + 149);
    assert!(screen.contains(&expected), "{expected}\n{screen}");
    d.keys("\u{1b}");
    d.keys("gcode-quality");
    let Mode::Pattern(t) = d.h.mode() else {
        panic!("tester")
    };
    assert_eq!(
        t.cost[0],
        format!("+149 tok → {} tok, budget 20,000", tokens + 149)
    );
    assert_eq!(t.cost[1], "enters <knowledge>: project/code-quality");
}
