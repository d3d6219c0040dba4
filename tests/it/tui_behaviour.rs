#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The TUI's behaviour end to end without a terminal: keys go through the
//! key map, `update`, the driver and the edit bridge to the real files of
//! a demo copy, and back through the engine to the previews.

use super::tui_support;

use jp_kb::tui::app::Mode;
use jp_kb::tui::command::Command;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::Tab;
use tui_support::Demo;

const ORIGINAL_LEARNED: &str =
    "learned = [\"maintainers/*\"] # a glob: pre-loads every maintainer\n";

#[test]
fn toggling_learned_writes_the_config_updates_the_prompt_and_undo_restores() {
    let mut d = Demo::new(120, 40);
    let original = std::fs::read(d.config()).unwrap();
    let prompt_before = d.h.section().unwrap();
    assert!(!prompt_before.contains("<subject \"code-quality\">"));

    d.keys("\t");
    d.select("code-q");
    d.keys("l");

    // Exactly one line changed: the slug appended to the learned array.
    let expected = String::from_utf8(original.clone()).unwrap().replace(
        ORIGINAL_LEARNED,
        "learned = [\"maintainers/*\", \"code-quality\"] # a glob: pre-loads every maintainer\n",
    );
    assert_eq!(d.config_text(), expected);
    assert!(
        d.h.status_line()
            .contains("added `code-quality` to kb.topic.project.learned"),
        "{}",
        d.h.status_line()
    );
    assert!(d.h.status_line().ends_with("in .jp/kb.toml"));

    // The Prompt tab shows the subject's content, in the same frame.
    d.keys("2");
    let prompt = d.h.section().unwrap();
    assert!(prompt.contains("<subject \"code-quality\">\n# Code quality\n"));
    let screen = d.screen();
    assert!(screen.contains("<subject \"code-quality\">"), "{screen}");
    assert!(screen.contains("# Code quality"), "{screen}");

    // Undo restores the original bytes; redo re-applies.
    d.keys("u");
    assert_eq!(std::fs::read(d.config()).unwrap(), original);
    assert!(!d.screen().contains("<subject \"code-quality\">"));
    d.ctrl('r');
    assert_eq!(d.config_text(), expected);
}

#[test]
fn unlearning_a_glob_selected_subject_offers_both_fixes() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("jean");
    d.keys("l");
    let Mode::Choice(choice) = d.h.mode() else {
        panic!("expected a choice, got {:?}", d.h.mode());
    };
    assert_eq!(choice.options.len(), 2);
    assert!(
        choice.lines[0].contains("`maintainers/*`"),
        "{:?}",
        choice.lines
    );
    assert!(
        choice.lines[0].contains(".jp/kb.toml:9"),
        "{:?}",
        choice.lines
    );
    // Replace the glob by the other slug it selects.
    d.keys("2");
    let text = d.config_text();
    assert!(text.contains("learned = [\"maintainers/ryan\"]"), "{text}");
    let prompt = d.h.section().unwrap();
    assert!(prompt.contains("<subject \"maintainers/ryan\">"));
    assert!(!prompt.contains("<subject \"maintainers/jean\">"));
}

#[test]
fn removing_the_glob_is_the_other_fix() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("ryan");
    d.keys("l");
    // Removing the glob removes pre-loaded subjects: the option says so
    // under it, and choosing it is the confirmation.
    let screen = d.screen();
    assert!(
        screen.contains("⚠ removes 2 pre-loaded subjects from the prompt"),
        "{screen}"
    );
    d.keys("1");
    assert!(matches!(d.h.mode(), Mode::Normal));
    // The edit core drops the emptied array's line (and its comment).
    let text = d.config_text();
    assert!(!text.contains("maintainers/*"), "{text}");
    let prompt = d.h.section().unwrap();
    assert!(!prompt.contains("<subject \"maintainers/ryan\">"));
}

#[test]
fn a_directory_is_learned_as_a_glob_or_slug_by_slug() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("onboarding");
    // The filter keeps the directory row first.
    d.h.press(
        ratatui::crossterm::event::KeyCode::Home,
        ratatui::crossterm::event::KeyModifiers::NONE,
    );
    d.keys("l");
    let Mode::Choice(choice) = d.h.mode() else {
        panic!("expected a choice");
    };
    assert!(choice.options[0].0.contains("`onboarding/**`"));
    assert!(
        choice.options[1].0.contains("add the 2 slugs one by one"),
        "{}",
        choice.options[1].0
    );
    d.keys("1");
    assert!(d.config_text().contains("\"onboarding/**\""));
    d.keys("u");
    d.keys("l2");
    let text = d.config_text();
    assert!(
        text.contains("\"onboarding/first-week\", \"onboarding/tools/editors\""),
        "{text}"
    );
}

#[test]
fn disabled_toggles_by_exact_slug_and_enable_toggles_a_topic() {
    let mut d = Demo::new(120, 40);
    d.topic(1);
    d.keys("\t");
    d.select("obsolete");
    d.keys("d");
    assert!(!d.config_text().contains("\"obsolete\""));
    d.keys("d");
    assert!(d.config_text().contains("disabled = [\"obsolete\"]"));

    d.topic(3);
    assert_eq!(d.h.topic_state().unwrap().id(), "archive");
    let disabled = d.config_text();
    d.keys("e");
    // Enabling is the default: the `enable = false` line goes, and no
    // `enable = true` is written in its place.
    assert!(
        !d.config_text().contains("enable = "),
        "{}",
        d.config_text()
    );
    assert!(d.h.topic_state().unwrap().enabled());
    // Disabling again writes the line back (at the end of the table),
    // once confirmed: a whole topic goes.
    d.keys("e\n");
    assert!(d.config_text().contains("enable = false\n"));
    assert_eq!(d.config_text().len(), disabled.len());
    assert!(!d.h.topic_state().unwrap().enabled());
}

#[test]
fn toggling_enable_off_and_on_leaves_the_file_as_it_was() {
    let mut d = Demo::new(120, 40);
    d.topic(1);
    let original = d.config_text();
    assert!(d.h.topic_state().unwrap().enabled());
    d.keys("e");
    // Turning a whole topic off asks first; Esc keeps it.
    assert!(matches!(d.h.mode(), Mode::Choice(_)));
    d.keys("\u{1b}");
    assert_eq!(d.config_text(), original);
    d.keys("e\n");
    assert!(!d.h.topic_state().unwrap().enabled());
    assert_ne!(d.config_text(), original);
    d.keys("e");
    assert!(d.h.topic_state().unwrap().enabled());
    assert_eq!(d.config_text(), original);
}

#[test]
fn learning_a_disabled_subject_is_refused_with_the_reason() {
    let mut d = Demo::new(120, 40);
    let before = d.config_text();
    d.keys("\t");
    d.select("roadmap");
    d.keys("l");
    assert!(d.h.status_is_error());
    assert!(d.h.status_line().contains("disabled by `drafts/**`"));
    assert_eq!(d.config_text(), before);
}

#[test]
fn pattern_tester_shows_learn_output_live_and_adds_the_pattern() {
    let mut d = Demo::new(120, 40);
    d.keys("gonboarding/**");
    assert_eq!(d.h.preview_tab(), Tab::Learn);
    let screen = d.screen();
    assert!(screen.contains("selects 2 subjects "), "{screen}");
    assert!(
        screen.contains("<subject \"onboarding/first-week\">"),
        "{screen}"
    );
    // Tab switches the destination to `disabled`, and back.
    d.keys("\t\t\n");
    assert!(d.config_text().contains("\"onboarding/**\"]"));
    assert!(matches!(d.h.mode(), Mode::Normal));
}

#[test]
fn pattern_tester_selects_hidden_subjects_only_by_exact_slug() {
    let mut d = Demo::new(120, 40);
    d.keys("g*");
    assert!(!d.screen().contains("internal-notes"));
    d.h.keys("\u{1b}");
    d.keys("ginternal-notes");
    let screen = d.screen();
    assert!(screen.contains("selects 1 subject "), "{screen}");
}

#[test]
fn new_topic_form_validates_and_creates() {
    let mut d = Demo::new(120, 40);
    d.keys("nskills\n");
    let Mode::Form(form) = d.h.mode() else {
        panic!("form expected");
    };
    assert!(
        form.error
            .as_deref()
            .is_some_and(|e| e.starts_with("topic `skills` already exists")),
        "{:?}",
        form.error
    );
    // Fix the id, give a directory that does not exist.
    for _ in 0..6 {
        d.h.press(
            ratatui::crossterm::event::KeyCode::Backspace,
            ratatui::crossterm::event::KeyModifiers::NONE,
        );
    }
    // A directory that leaves the workspace is refused.
    d.keys("notes\t../nowhere\n");
    let Mode::Form(form) = d.h.mode() else {
        panic!("form expected");
    };
    assert!(
        form.error
            .as_deref()
            .is_some_and(|e| e.contains("leaves the workspace root")),
        "{:?}",
        form.error
    );
    for _ in 0..10 {
        d.h.press(
            ratatui::crossterm::event::KeyCode::Backspace,
            ratatui::crossterm::event::KeyModifiers::NONE,
        );
    }
    d.keys(".jp/kb/archive\tNotes\n");
    assert!(matches!(d.h.mode(), Mode::Normal));
    let text = d.config_text();
    assert!(
        text.ends_with("[kb.topic.notes]\ntitle = \"Notes\"\nsubjects = \".jp/kb/archive\"\n"),
        "{text}"
    );
    assert_eq!(d.h.topic_state().unwrap().id(), "notes");
}

#[test]
fn edit_topic_form_sets_and_unsets_fields() {
    let mut d = Demo::new(120, 40);
    d.keys("i");
    // Clear the title (Ctrl-u? no: select the field's text by deleting).
    for _ in 0..40 {
        d.h.press(
            ratatui::crossterm::event::KeyCode::Backspace,
            ratatui::crossterm::event::KeyModifiers::NONE,
        );
    }
    d.keys("Project\t\t");
    d.keys("Second line\n");
    d.ctrl('s');
    let text = d.config_text();
    assert!(text.contains("title = \"Project\"\n"), "{text}");
    assert!(
        d.h.status_line()
            .contains("set kb.topic.project.title to \"Project\""),
        "{}",
        d.h.status_line()
    );
}

#[test]
fn a_broken_config_is_read_only_until_fixed() {
    let mut d = Demo::new(120, 40);
    let good = d.config_text();
    std::fs::write(d.config(), format!("{good}\n[kb.topic.x\n")).unwrap();
    d.h.action(Event::FilesChanged(vec![
        d.config(),
        d.root().join(".jp/kb"),
    ]));
    let err = d.h.load_error().map(str::to_owned).expect("load error");
    assert!(err.contains(".jp/kb.toml:32:12: invalid TOML"), "{err}");
    assert!(!err.contains(&d.root().display().to_string()), "{err}");
    // The last good state stays on screen; edits are refused.
    assert!(d.h.is_loaded());
    let screen = d.screen();
    assert!(screen.contains("READ-ONLY"), "{screen}");
    assert!(screen.contains("General Project"), "{screen}");
    d.keys("\t");
    d.select("release");
    d.keys("l");
    assert!(d.h.status_line().contains("read-only"));
    assert!(d.config_text().ends_with("[kb.topic.x\n"));
    // Fixed outside: editable again.
    std::fs::write(d.config(), &good).unwrap();
    d.h.action(Event::FilesChanged(vec![
        d.config(),
        d.root().join(".jp/kb"),
    ]));
    assert!(d.h.load_error().is_none());
    d.keys("l");
    assert!(d.config_text().contains("\"release\""));
}

#[test]
fn undo_after_an_outside_edit_elsewhere_in_the_file_is_re_applied() {
    let mut d = Demo::new(120, 40);
    let original = d.config_text();
    d.keys("\t");
    d.select("code-q");
    d.keys("l");
    let learned = d.config_text();
    assert_ne!(learned, original);
    // Someone adds a line far from the learned array.
    let outside = format!("{learned}\n# a note added by hand\n");
    std::fs::write(d.config(), &outside).unwrap();
    d.h.action(Command::Reload);

    d.keys("u");
    assert!(
        d.h.status_line().starts_with("undid:"),
        "{}",
        d.h.status_line()
    );
    assert_eq!(
        d.config_text(),
        format!("{original}\n# a note added by hand\n")
    );
    d.ctrl('r');
    assert_eq!(d.config_text(), outside);
}

#[test]
fn undo_after_an_outside_edit_of_the_value_drops_that_files_history_only() {
    let mut d = Demo::new(120, 40);
    let original = d.config_text();
    // One edit in .jp/kb.toml...
    d.keys("\t");
    d.select("code-q");
    d.keys("l");
    assert_ne!(d.config_text(), original);
    // ...and one in .jp.toml.
    let other = d.root().join(".jp.toml");
    std::fs::write(&other, "[kb.topic.project]\nlearned = []\n").unwrap();
    d.h.action(Command::Reload);
    d.pick_layer(".jp.toml");
    // Esc in the filter clears the last one.
    d.keys("/\u{1b}");
    d.select("release");
    d.keys("l");
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "[kb.topic.project]\nlearned = [\"release\"]\n"
    );
    // The same value edited by hand.
    let by_hand = "[kb.topic.project]\nlearned = [\"release\", \"first-week\"]\n";
    std::fs::write(&other, by_hand).unwrap();
    d.h.action(Command::Reload);

    d.keys("u");
    let message = d.h.status_line().to_owned();
    assert!(
        message.contains(".jp.toml") && message.contains("dropped the undo history of this file"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), by_hand);
    // Said once: the next undo is the other file's, and it still works.
    d.keys("u");
    assert!(
        d.h.status_line().starts_with("undid:"),
        "{}",
        d.h.status_line()
    );
    assert_eq!(d.config_text(), original);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), by_hand);
    d.keys("u");
    assert!(
        d.h.status_line().contains("nothing to undo"),
        "{}",
        d.h.status_line()
    );
}

/// Indices of the subjects of the selected topic whose slug contains `part`.
fn subjects_named(d: &Demo, part: &str) -> Vec<usize> {
    let res = d.h.resolution().unwrap();
    (0..res.subjects().len())
        .filter(|&i| res.subjects()[i].slug().contains(part))
        .collect()
}

#[test]
fn learning_a_hidden_directory_offers_the_exact_slugs_and_no_glob_that_selects_nothing() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("hidden-dir");
    d.h.press(
        ratatui::crossterm::event::KeyCode::Home,
        ratatui::crossterm::event::KeyModifiers::NONE,
    );
    let hidden = subjects_named(&d, "hidden-dir");
    assert!(!hidden.is_empty());
    d.keys("l");
    let Mode::Choice(choice) = d.h.mode() else {
        panic!("expected a choice, status: {:?}", d.screen());
    };
    let labels: Vec<&str> = choice.options.iter().map(|o| o.0.as_str()).collect();
    assert!(
        labels.iter().all(|l| !l.contains("hidden-dir/**")),
        "{labels:?}"
    );
    assert_eq!(labels[0], "add the 1 slug one by one", "{labels:?}");
    d.keys("1");
    // The offered choice pre-loads what it says: every subject under it.
    let res = d.h.resolution().unwrap();
    assert!(
        hidden.iter().all(|&i| res.is_learned(i)),
        "{}",
        d.config_text()
    );
}

#[test]
fn disabling_a_directory_counts_hidden_subjects_and_names_what_leaves_the_prompt() {
    let mut d = Demo::new(120, 40);
    d.topic(1);
    d.keys("\t");
    d.select("ast-grep");
    d.h.press(
        ratatui::crossterm::event::KeyCode::Home,
        ratatui::crossterm::event::KeyModifiers::NONE,
    );
    let under = subjects_named(&d, "ast-grep/");
    let before = d.h.resolution().unwrap().counts().disabled;
    d.keys("d");
    let Mode::Choice(choice) = d.h.mode() else {
        panic!("expected a choice");
    };
    let text = choice.lines.join("\n");
    assert!(!text.contains("skips hidden"), "{text}");
    let expected = format!(
        "disables {}; removes from the prompt: ast-grep/rules",
        match under.len() - 1 {
            0 => "1 hidden subject".to_owned(),
            n => format!(
                "{} and 1 hidden one",
                jp_kb_core::internal::plural::count(n, "subject", "subjects")
            ),
        }
    );
    assert!(text.contains(&expected), "{text}");
    // Its cost is shown with the option, and why it would ask (a
    // pre-loaded subject leaves): choosing it is the confirmation.
    assert!(
        choice.options[0].1.effect.leaving == ["skills/ast-grep/rules"],
        "{:?}",
        choice.options[0].1.effect
    );
    d.keys("1");
    assert!(matches!(d.h.mode(), Mode::Normal));
    // The count shown is the count the edit makes.
    let after = d.h.resolution().unwrap().counts().disabled;
    assert_eq!(after - before, under.len(), "{}", d.config_text());
}

#[test]
fn pattern_tester_in_disabled_mode_counts_what_enter_disables() {
    let mut d = Demo::new(120, 40);
    let counts = d.h.resolution().unwrap().counts();
    let newly = counts.total - counts.disabled;
    d.keys("g**\t");
    let screen = d.screen();
    let hidden = {
        let res = d.h.resolution().unwrap();
        (0..res.subjects().len())
            .filter(|&i| res.subjects()[i].hidden && !res.is_disabled(i))
            .count()
    };
    let expected = format!(
        "disables {} subjects and {hidden} hidden ones; {} already disabled",
        newly - hidden,
        counts.disabled
    );
    // The pane is narrow: the line wraps; compare without the frame.
    let shown: String = screen
        .lines()
        .filter_map(|l| l.strip_prefix('│')?.split('│').next())
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(shown.contains(&expected), "{expected}\n{screen}");
    // Every subject goes: the topic as a whole, confirmed first.
    d.keys("\n");
    assert!(matches!(d.h.mode(), Mode::Choice(_)));
    d.keys("\n");
    let after = d.h.resolution().unwrap().counts().disabled;
    assert_eq!(after - counts.disabled, newly);
}
