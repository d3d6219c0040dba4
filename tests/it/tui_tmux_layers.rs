#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Issue 14 items 1, 2 and 6 in a real terminal, on a workspace built from
//! JP's real configuration (its `extends` chains, persona and knowledge
//! files) plus a jp-kb topic in `.jp/kb.toml`: `f` is a layer picker that
//! writes only where the person chose (declaring the topic there, as the
//! CLI's `--file` does), and every change shows its cost before it is
//! made, asking first when it crosses the token budget.
//!
//! Needs tmux (`.ci/run` installs it): ignored without it, failed under `CI`.

use super::tmux_support;

use std::path::Path;

use tmux_support::Tmux;
use tmux_support::jp_tree::{KB, jp_workspace, kb_toml, select_directory, start, write};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The picker's rows, one string per row, spaces collapsed.
fn picker_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|l| {
            let start = l.find("│  ").or_else(|| l.find("│› "))?;
            let row = l[start..].trim_matches(|c| c == '│' || c == ' ');
            Some(row.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .filter(|r| r.contains(".toml"))
        .collect()
}

/// Items 1 and 2: the picker lists every layer with its role, normalised
/// paths, whether it declares the topic, the layers still to create and
/// which files JP loads; choosing the user-workspace file sends the next
/// edit there (declaring the topic) and nowhere else; choosing a file JP
/// loads asks before the first `kb` table goes in.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn the_layer_picker_writes_only_where_the_person_chose_in_a_real_jp_workspace() {
    let tmux = Tmux::start("layers-pick");
    let root = jp_workspace(&tmux);
    // A JP workspace id: the user-workspace layer exists (contract §2).
    write(&root, ".jp/.id", "abc12\n");
    let config = read(&root.join(".jp/config.toml"));
    let voice_path = root.join(".jp/config/knowledge/voice.toml");
    let voice = read(&voice_path);
    start(&tmux, &root);

    tmux.literal("f");
    let screen = tmux.wait_for("the layer picker", |s| s.contains("Enter: edits go there"));
    let rows = picker_rows(&screen);
    assert_eq!(
        rows,
        [
            "extends .jp/config/knowledge/voice.toml JP loads it: a `kb` table stops today's JP",
            "extends .jp/config/personas/default.toml JP loads it: a `kb` table stops today's JP",
            "team .jp/config.toml JP loads it: a `kb` table stops today's JP",
            "› team .jp/kb.toml declares `docs`",
            "user-workspace .user-data/workspace/jp-abc12/kb.toml new: created on the first edit",
            ".jp.toml .jp.toml new · JP loads it: a `kb` table stops today's JP",
        ],
        "{screen}"
    );
    assert!(!screen.contains(".."), "paths are normalised: {screen}");

    // The user-workspace file, right below the current target.
    tmux.literal("j");
    tmux.send(&["Enter"]);
    let user_file = ".user-data/workspace/jp-abc12/kb.toml";
    let screen = tmux.wait_for("the new target on the status line", |s| {
        s.contains(&format!("edits→ {user_file}"))
    });
    assert!(
        screen.contains(&format!("edits now go to {user_file} (user-workspace)")),
        "{screen}"
    );
    tmux.literal("5");
    tmux.wait_for("the Config tab on the real target", |s| {
        s.contains(&format!("{user_file}  (the file edits go to"))
            && s.contains("does not exist yet")
    });

    tmux.send(&["Tab"]);
    tmux.literal("/guide");
    tmux.send(&["Enter"]);
    tmux.literal("l");
    tmux.wait_for("the edit", |s| s.contains("added `guide`"));
    assert_eq!(
        read(&root.join(user_file)),
        "[kb.topic.docs]\nlearned = [\"guide\"]\n",
        "the topic is declared in the chosen file"
    );
    assert_eq!(kb_toml(&root), KB, "the team's kb.toml is untouched");
    assert_eq!(read(&root.join(".jp/config.toml")), config);
    assert!(!root.join(".jp.toml").exists());
    tmux.literal("2");
    tmux.wait_for("the pre-load in the prompt", |s| {
        s.contains("<subject \"guide\">")
    });

    // Back to the picker: it opens on the real target; choose JP's
    // `voice.toml` (four rows up), which JP loads.
    tmux.literal("f");
    tmux.wait_for("the picker again, on the real target", |s| {
        s.contains("Enter: edits go there")
            && picker_rows(s)
                .iter()
                .any(|r| r.starts_with(&format!("› user-workspace {user_file}")))
    });
    for _ in 0..4 {
        tmux.literal("k");
    }
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("voice.toml as the target", |s| {
        s.contains("edits→ .jp/config/knowledge/voice.toml")
    });
    assert!(
        screen.contains("edits now go to .jp/config/knowledge/voice.toml (extends)"),
        "{screen}"
    );
    // Esc clears the `guide` filter; then filter for `style`.
    tmux.send(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| !s.contains("/ guide"));
    tmux.literal("/style");
    tmux.send(&["Enter"]);
    tmux.literal("l");
    // The dialog wraps its reason: checked line by line, once drawn whole.
    tmux.wait_for("the confirmation naming JP", |s| {
        s.contains("This change puts a `kb` table into .jp/config/knowledge/voice.toml,")
            && s.contains("which JP loads: today's JP refuses to start")
            && s.contains("Esc  cancel")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the cancel", |s| s.contains("cancelled"));
    assert_eq!(
        read(&voice_path),
        voice,
        "nothing written before the answer"
    );
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}

/// Item 6: the cost is on screen before the change — the subject
/// preview's header, every option of the directory dialog, the pattern
/// tester before Enter — and crossing the token budget asks first.
#[test]
#[cfg_attr(
    lacks = "tmux",
    ignore = "needs tmux (install it, then touch build.rs; or run .ci/run)"
)]
fn every_change_shows_its_cost_first_in_a_real_jp_workspace() {
    let tmux = Tmux::start("layers-cost");
    let root = jp_workspace(&tmux);
    // 7,000 numbered words: 20,000 tokens, the whole default budget.
    let words: Vec<String> = (0..7000).map(|i| format!("w{i}")).collect();
    write(&root, "docs/big.md", &format!("{}\n", words.join(" ")));
    start(&tmux, &root);
    tmux.send(&["Tab"]);

    // The subject preview's header.
    tmux.literal("/big");
    tmux.send(&["Enter"]);
    // Counted off the UI thread: wait for the figures, not a placeholder.
    let screen = tmux.wait_for("the preview's cost line", |s| {
        s.contains("l (learn): +2") && s.contains("tok, budget 20,000")
    });
    let cost = screen
        .lines()
        .find_map(|l| {
            let at = l.find("l (learn): +")?;
            Some(l[at..].trim_end_matches([' ', '│']).to_owned())
        })
        .unwrap();
    assert!(cost.ends_with("tok, budget 20,000"), "{cost}");
    let after: usize = cost
        .split("→ ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .map(|n| n.replace(',', "").parse().expect(&cost))
        .unwrap();
    assert!(after > 20_000, "{cost}");

    // Learning it crosses the budget: asked first, nothing written on Esc.
    tmux.literal("l");
    let thousands = format!("{},{:03}", after / 1000, after % 1000);
    let change = &cost[11..cost.find(" →").unwrap()];
    let parts = [
        format!("This change takes the prompt to {thousands} tokens, over the budget of"),
        format!("{change} → {thousands} tok, budget 20,000"),
        "enters <knowledge>: docs/big".to_owned(),
        "Esc  cancel".to_owned(),
    ];
    tmux.wait_for("the budget confirmation", |s| {
        parts.iter().all(|p| s.contains(p.as_str()))
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the cancel", |s| s.contains("cancelled"));
    assert_eq!(kb_toml(&root), KB);

    // The directory dialog: each option with its own cost and names. Esc
    // then a key at once reads as Alt-key: wait for Esc to land first.
    tmux.send(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| !s.contains("/ big"));
    select_directory(&tmux, "rules");
    tmux.literal("l");
    let screen = tmux.wait_for("the directory dialog", |s| {
        s.contains("learned: directory `rules/`") && s.contains("Esc  cancel")
    });
    let joined: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "1 add `rules/**` to learned",
        "enters <knowledge>: docs/rules/style",
        "3 remove 1 learned entry naming `rules/`",
        "leaves <knowledge>: docs/rules/core",
    ] {
        assert!(joined.contains(part), "{part}: {screen}");
    }
    assert!(
        joined.matches("tok, budget 20,000").count() >= 3,
        "{screen}"
    );
    tmux.send(&["Escape"]);
    tmux.wait_for("the dialog closed", |s| {
        !s.contains("learned: directory") && s.contains("cancelled")
    });

    // The pattern tester, before Enter: each step waits for the screen it
    // needs (Esc followed at once by `g` reads as Alt-g).
    tmux.send(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| !s.contains("/ rules"));
    tmux.literal("g");
    tmux.wait_for("the pattern tester", |s| s.contains("Pattern tester"));
    tmux.literal("rules/*");
    let screen = tmux.wait_for("the tester's cost", |s| {
        s.contains("glob: rules/*") && s.contains("tok → ") && s.contains("budget 20,000")
    });
    assert!(screen.contains("Pattern tester"), "{screen}");
    assert_eq!(kb_toml(&root), KB, "nothing written before Enter");
    tmux.send(&["Escape"]);
    // Wait for the Escape to land: a `q` right behind it reads as Alt-q.
    tmux.wait_for("the tester closed", |s| !s.contains("Pattern tester"));
    tmux.literal("q");
    tmux.wait_for("the exit", |s| s.contains("EXIT-0"));
}
