#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The TUI's behaviour end to end without a terminal: keys go through the
//! key map, `update`, the driver and the edit bridge to the real files of
//! a demo copy, and back through the engine to the previews.

mod tui_support;

use jp_kb::tui::app::Mode;
use jp_kb::tui::command::Command;
use jp_kb::tui::effect::Effect;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::Tab;
use tui_support::Demo;

const ORIGINAL_LEARNED: &str =
    "learned = [\"maintainers/*\"] # a glob: pre-loads every maintainer\n";

#[test]
fn toggling_learned_writes_the_config_updates_the_prompt_and_undo_restores() {
    let mut d = Demo::new(120, 40);
    let original = std::fs::read(d.config()).unwrap();
    let prompt_before = d.h.app.model.as_ref().unwrap().full_prompt().unwrap();
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
        d.h.app
            .status
            .message
            .contains("added `code-quality` to kb.topic.project.learned"),
        "{}",
        d.h.app.status.message
    );
    assert!(d.h.app.status.message.ends_with("in .jp/kb.toml"));

    // The Prompt tab shows the subject's content, in the same frame.
    d.keys("2");
    let prompt = d.h.app.model.as_ref().unwrap().full_prompt().unwrap();
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
    let Mode::Choice(choice) = &d.h.app.mode else {
        panic!("expected a choice, got {:?}", d.h.app.mode);
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
    let prompt = d.h.app.model.as_ref().unwrap().full_prompt().unwrap();
    assert!(prompt.contains("<subject \"maintainers/ryan\">"));
    assert!(!prompt.contains("<subject \"maintainers/jean\">"));
}

#[test]
fn removing_the_glob_is_the_other_fix() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("ryan");
    d.keys("l1");
    // Removing the glob removes pre-loaded subjects: confirmed first.
    let Mode::Choice(confirm) = &d.h.app.mode else {
        panic!("expected a confirmation");
    };
    assert!(
        confirm.lines[0].contains("removes 2 pre-loaded subjects from the prompt"),
        "{:?}",
        confirm.lines
    );
    d.keys("\n");
    // The edit core drops the emptied array's line (and its comment).
    let text = d.config_text();
    assert!(!text.contains("maintainers/*"), "{text}");
    let prompt = d.h.app.model.as_ref().unwrap().full_prompt().unwrap();
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
    let Mode::Choice(choice) = &d.h.app.mode else {
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
    assert_eq!(d.h.app.topic_state().unwrap().id(), "archive");
    let disabled = d.config_text();
    d.keys("e");
    // Enabling is the default: the `enable = false` line goes, and no
    // `enable = true` is written in its place.
    assert!(
        !d.config_text().contains("enable = "),
        "{}",
        d.config_text()
    );
    assert!(d.h.app.topic_state().unwrap().enabled());
    // Disabling again writes the line back (at the end of the table),
    // once confirmed: a whole topic goes.
    d.keys("e\n");
    assert!(d.config_text().contains("enable = false\n"));
    assert_eq!(d.config_text().len(), disabled.len());
    assert!(!d.h.app.topic_state().unwrap().enabled());
}

#[test]
fn toggling_enable_off_and_on_leaves_the_file_as_it_was() {
    let mut d = Demo::new(120, 40);
    d.topic(1);
    let original = d.config_text();
    assert!(d.h.app.topic_state().unwrap().enabled());
    d.keys("e");
    // Turning a whole topic off asks first; Esc keeps it.
    assert!(matches!(d.h.app.mode, Mode::Choice(_)));
    d.keys("\u{1b}");
    assert_eq!(d.config_text(), original);
    d.keys("e\n");
    assert!(!d.h.app.topic_state().unwrap().enabled());
    assert_ne!(d.config_text(), original);
    d.keys("e");
    assert!(d.h.app.topic_state().unwrap().enabled());
    assert_eq!(d.config_text(), original);
}

#[test]
fn learning_a_disabled_subject_is_refused_with_the_reason() {
    let mut d = Demo::new(120, 40);
    let before = d.config_text();
    d.keys("\t");
    d.select("roadmap");
    d.keys("l");
    assert!(d.h.app.status.error);
    assert!(d.h.app.status.message.contains("disabled by `drafts/**`"));
    assert_eq!(d.config_text(), before);
}

#[test]
fn pattern_tester_shows_learn_output_live_and_adds_the_pattern() {
    let mut d = Demo::new(120, 40);
    d.keys("gonboarding/**");
    assert_eq!(d.h.app.preview.tab, Tab::Learn);
    let screen = d.screen();
    assert!(screen.contains("selects 2 subjects "), "{screen}");
    assert!(
        screen.contains("<subject \"onboarding/first-week\">"),
        "{screen}"
    );
    // Tab switches the destination to `disabled`, and back.
    d.keys("\t\t\n");
    assert!(d.config_text().contains("\"onboarding/**\"]"));
    assert!(matches!(d.h.app.mode, Mode::Normal));
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
    let Mode::Form(form) = &d.h.app.mode else {
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
    let Mode::Form(form) = &d.h.app.mode else {
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
    assert!(matches!(d.h.app.mode, Mode::Normal));
    let text = d.config_text();
    assert!(
        text.ends_with("[kb.topic.notes]\ntitle = \"Notes\"\nsubjects = \".jp/kb/archive\"\n"),
        "{text}"
    );
    assert_eq!(d.h.app.topic_state().unwrap().id(), "notes");
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
        d.h.app
            .status
            .message
            .contains("set kb.topic.project.title to \"Project\""),
        "{}",
        d.h.app.status.message
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
    let err = d.h.app.load_error.clone().expect("load error");
    assert!(err.contains(".jp/kb.toml:32:12: invalid TOML"), "{err}");
    assert!(!err.contains(&d.root().display().to_string()), "{err}");
    // The last good state stays on screen; edits are refused.
    assert!(d.h.app.model.is_some());
    let screen = d.screen();
    assert!(screen.contains("READ-ONLY"), "{screen}");
    assert!(screen.contains("General Project"), "{screen}");
    d.keys("\t");
    d.select("release");
    d.keys("l");
    assert!(d.h.app.status.message.contains("read-only"));
    assert!(d.config_text().ends_with("[kb.topic.x\n"));
    // Fixed outside: editable again.
    std::fs::write(d.config(), &good).unwrap();
    d.h.action(Event::FilesChanged(vec![
        d.config(),
        d.root().join(".jp/kb"),
    ]));
    assert!(d.h.app.load_error.is_none());
    d.keys("l");
    assert!(d.config_text().contains("\"release\""));
}

#[test]
fn subject_files_added_outside_appear_and_previews_refresh() {
    let mut d = Demo::new(120, 40);
    let file = d.root().join(".jp/kb/project/release.md");
    d.keys("\t");
    d.select("release");
    assert!(d.screen().contains("1. Bump the version."));
    std::fs::write(&file, "# Releasing\n\nShip it on Fridays.\n").unwrap();
    let zeta = d.root().join(".jp/kb/project/zeta.md");
    std::fs::write(&zeta, "new\n").unwrap();
    // As the watcher reports them: every path that changed.
    d.h.action(Event::FilesChanged(vec![file, zeta]));
    assert!(d.screen().contains("Ship it on Fridays."));
    d.keys("/\u{1b}");
    assert!(d.screen().contains("zeta.md"));
}

/// Token counts are kept by (path, size, modification time): after a
/// change reported for a whole directory, the file that changed shows
/// its new count and the others the count made for their stamp.
#[test]
fn token_counts_follow_file_stamps_not_directory_events() {
    let mut d = Demo::new(120, 40);
    let dir = d.root().join(".jp/kb/project");
    d.keys("\t");
    d.select("release");
    let _ = d.screen();
    let counted = |d: &Demo, name: &str| {
        let path = dir.join(name);
        let app = &d.h.app;
        let res = app.resolution().unwrap();
        let s = res.subjects().iter().find(|s| s.path() == path).unwrap();
        (
            app.cache.tokens.get(&path).map(|(stamp, _)| *stamp),
            app.cache.tokens_of(s).and_then(|t| t.tokens),
        )
    };
    let (release_stamp, release_before) = counted(&d, "release.md");
    let (quality_stamp, quality_before) = counted(&d, "code-quality.md");
    assert!(release_before.is_some() && quality_before.is_some());

    std::fs::write(dir.join("release.md"), "# Releasing\n\nShip it.\n").unwrap();
    // Reported as a change of the whole directory: it is walked again.
    d.h.action(Event::FilesChanged(vec![dir.clone()]));
    let _ = d.screen();
    let (release_now, release_after) = counted(&d, "release.md");
    assert_ne!(release_now, release_stamp, "recounted for its new stamp");
    let root = dir.canonicalize().unwrap();
    let formatted = jp_kb::content::read_formatted(
        &jp_kb::content::Root::new(&root),
        "release",
        Some("md"),
        &root.join("release.md"),
    );
    assert_eq!(release_after, jp_kb::tokens::count_tokens(&formatted));
    assert_ne!(release_after, release_before);
    // The unchanged file keeps the count made for its stamp.
    assert_eq!(
        counted(&d, "code-quality.md"),
        (quality_stamp, quality_before)
    );
}

#[test]
fn huge_files_are_previewed_truncated_and_odd_names_are_escaped() {
    let mut d = Demo::new(120, 40);
    let dir = d.root().join(".jp/kb/formats");
    std::fs::write(dir.join("huge.md"), "word ".repeat(100_000)).unwrap();
    std::fs::write(dir.join("evil\u{1b}[31m.md"), "x\n").unwrap();
    d.h.action(Command::Reload);
    d.topic(2);
    d.keys("\t");
    d.select("huge");
    let screen = d.screen();
    assert!(
        screen.contains("truncated: showing the first 256 KiB of 500000 bytes"),
        "{screen}"
    );
    d.keys("/\u{1b}");
    let screen = d.screen();
    assert!(screen.contains("evil^[[31m.md"), "{screen}");
    assert!(!screen.contains('\u{1b}'));
}

#[test]
fn editor_and_quit_are_left_to_the_terminal() {
    let mut d = Demo::new(120, 40);
    d.keys("\t");
    d.select("release");
    d.keys("o");
    let path = d.root().join(".jp/kb/project/release.md");
    assert!(
        d.h.outside.iter().any(
            |e| matches!(e, Effect::OpenEditor(p) if p.canonicalize().ok() == Some(path.clone()))
        ),
        "{:?}",
        d.h.outside
    );
    d.keys("q");
    assert_eq!(d.h.outside.last(), Some(&Effect::Quit));
}

#[test]
fn the_edit_file_can_be_switched() {
    let mut d = Demo::new(120, 40);
    std::fs::write(
        d.root().join(".jp.toml"),
        "[kb.topic.project]\nlearned = []\n",
    )
    .unwrap();
    d.h.action(Command::Reload);
    d.pick_layer(".jp.toml");
    assert!(
        d.h.app.status.message.contains(".jp.toml"),
        "{}",
        d.h.app.status.message
    );
    d.keys("\t");
    d.select("release");
    d.keys("l");
    assert_eq!(
        std::fs::read_to_string(d.root().join(".jp.toml")).unwrap(),
        "[kb.topic.project]\nlearned = [\"release\"]\n"
    );
}

#[test]
fn an_empty_workspace_opens() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".jp")).unwrap();
    let h = jp_kb::tui::harness::Harness::open(dir.path(), 80, 24, false);
    let screen = h.screen();
    assert!(screen.contains("(no topics; n creates one)"), "{screen}");
}

#[test]
fn mouse_clicks_select_topics_rows_and_tabs_and_the_wheel_scrolls() {
    use jp_kb::tui::app::Focus;
    let mut d = Demo::new(120, 40);
    // The topics pane's border is row 0, its first topic row 1.
    d.h.click(5, 2);
    assert_eq!(d.h.app.topic_state().unwrap().id(), "skills");
    assert_eq!(d.h.app.focus, Focus::Topics);
    // The Prompt tab label, on the preview's first inner row.
    let screen = d.screen();
    let tab_row = screen.lines().position(|l| l.contains("2 Prompt")).unwrap();
    let line = screen.lines().nth(tab_row).unwrap();
    let x = line[..line.find("2 Prompt").unwrap()].chars().count();
    d.h.click(u16::try_from(x).unwrap(), u16::try_from(tab_row).unwrap());
    assert_eq!(d.h.app.preview.tab, Tab::Prompt);
    assert_eq!(d.h.app.focus, Focus::Preview);
    d.h.mouse(
        ratatui::crossterm::event::MouseEventKind::ScrollDown,
        u16::try_from(x).unwrap(),
        20,
    );
    assert_eq!(d.h.app.preview.scroll, 3);
    // A click on a row selects it; a click on the selected directory
    // row closes it.
    let screen = d.screen();
    let y =
        |name: &str| u16::try_from(screen.lines().position(|l| l.contains(name)).unwrap()).unwrap();
    d.h.click(4, y("git.md"));
    assert_eq!(d.h.app.focus, Focus::Subjects);
    let git = d.h.app.selected_subject().unwrap();
    assert_eq!(d.h.app.subject(git).unwrap().slug(), "git");
    d.h.click(4, y("ast-grep/"));
    assert!(d.screen().contains("▾ ast-grep/"));
    d.h.click(4, y("ast-grep/"));
    assert!(d.screen().contains("▸ ast-grep/"));
}

#[test]
fn a_frame_reads_only_the_subjects_on_screen() {
    let mut d = Demo::new(100, 30);
    let dir = d.root().join(".jp/kb/formats/many");
    std::fs::create_dir_all(&dir).unwrap();
    for n in 0..300 {
        std::fs::write(dir.join(format!("page-{n:03}.md")), "text\n").unwrap();
    }
    d.h.action(Command::Reload);
    d.topic(2);
    let read_in = |d: &Demo| {
        d.h.app
            .cache
            .tokens
            .keys()
            .filter(|p| p.starts_with(&dir))
            .count()
    };
    let read = read_in(&d);
    assert!(read > 0 && read < 30, "{read} subjects read for one screen");
    // Moving down reads the rows that come into view, not the whole topic.
    d.keys("\t");
    for _ in 0..40 {
        d.keys("j");
    }
    let read = read_in(&d);
    assert!(read < 80, "{read}");
    assert!(d.screen().contains("5 tok"));
}

/// The Prompt tab's laid-out section (the TUI holds no copy of it) reads
/// back byte for byte as the library renders it, its token count is the
/// whole text's, and scrolling reads only the pieces the view needs.
#[test]
fn the_laid_out_prompt_is_the_library_section_and_is_read_as_scrolled() {
    let mut d = Demo::new(100, 30);
    // Pre-load everything, with long subjects: the section is longer
    // than any view shows at once.
    d.keys("\t");
    for i in 0..40 {
        let long = (0..30)
            .map(|l| format!("line {l} of long {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let path = d.root().join(format!(".jp/kb/project/long/l{i:02}.md"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, long).unwrap();
    }
    let text = d.config_text().replace(
        ORIGINAL_LEARNED,
        "learned = [\"**\"] # a glob: pre-loads every maintainer\n",
    );
    std::fs::write(d.config(), text).unwrap();
    d.h.action(Event::FilesChanged(vec![
        d.config(),
        d.root().join(".jp/kb"),
    ]));
    let model = d.h.app.model.as_ref().unwrap();
    let expected = model.kb.knowledge_section().unwrap();
    assert_eq!(model.full_prompt().unwrap(), expected);
    assert_eq!(
        model.prompt_tokens,
        jp_kb::tokens::count_tokens(&expected),
        "the tally in pieces counts what the whole counts"
    );
    let layout = model.prompt.clone().unwrap();
    assert!(layout.pieces.len() > 10, "{}", layout.pieces.len());
    assert_eq!(layout.bytes, expected.len());
    assert_eq!(layout.newlines, expected.matches('\n').count());
    // Nothing read before the Prompt tab is shown.
    assert_eq!(model.prompt_head.pieces, 0);

    d.keys("2");
    let head = &d.h.app.model.as_ref().unwrap().prompt_head;
    assert!(head.pieces > 0 && head.pieces < layout.pieces.len());
    assert!(expected.starts_with(&head.text));
    assert!(
        head.text.matches('\n').count() >= 256,
        "a view reads at least 256 lines"
    );
    // Scrolling down reads the following pieces, and only those.
    let before = head.pieces;
    let screen = d.screen();
    assert!(screen.contains("<knowledge>"), "{screen}");
    d.keys("\t");
    assert_eq!(d.h.app.focus, jp_kb::tui::app::Focus::Preview);
    for _ in 0..400 {
        d.keys("j");
    }
    let head = &d.h.app.model.as_ref().unwrap().prompt_head;
    assert!(head.pieces > before, "{} <= {before}", head.pieces);
    assert!(expected.starts_with(&head.text));
    let screen = d.screen();
    assert!(!screen.contains("<knowledge>"), "{screen}");
    assert!(screen.contains("line "), "{screen}");
}

/// With reloads in the background (as the terminal runs them), a file
/// change answers at once and its reload arrives later; a reload that an
/// edit's load overtook is dropped when it arrives, and the screen shows
/// the edit and the change.
#[test]
fn background_reloads_arrive_later_and_overtaken_ones_are_dropped() {
    let mut d = Demo::new(120, 40);
    let (tx, rx) = std::sync::mpsc::channel();
    d.h.driver
        .reload_in_background(&jp_kb::tui::worker::outbox(tx))
        .unwrap();
    let recv = |rx: &std::sync::mpsc::Receiver<Event>| {
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("the background reload")
    };
    let dir = d.root().join(".jp/kb/project");
    d.keys("\t");

    // A new file: nothing changes until the reload arrives.
    std::fs::write(dir.join("zeta.md"), "new\n").unwrap();
    d.h.action(Event::FilesChanged(vec![dir.join("zeta.md")]));
    assert!(!d.screen().contains("zeta.md"));
    let loaded = recv(&rx);
    d.h.action(loaded);
    assert!(d.screen().contains("zeta.md"), "{}", d.screen());

    // A change, then an edit before its reload arrives: the edit's load
    // (started later) already shows both; the older reload is dropped.
    std::fs::write(dir.join("omega.md"), "newer\n").unwrap();
    d.h.action(Event::FilesChanged(vec![dir.join("omega.md")]));
    d.select("code-q");
    d.keys("l");
    assert!(d.config_text().contains("\"code-quality\""));
    let generation = d.h.app.model.as_ref().unwrap().generation;
    d.keys("/\u{1b}");
    let screen = d.screen();
    assert!(screen.contains("omega.md"), "{screen}");
    let stale = recv(&rx);
    d.h.action(stale);
    assert_eq!(d.h.app.model.as_ref().unwrap().generation, generation);
    assert!(d.screen().contains("omega.md"));
}

#[test]
fn the_prompt_view_key_cycles_the_clients_and_back_to_the_rfd_section() {
    let mut d = Demo::new(120, 40);
    // From another tab, the key first shows the Prompt tab as it was.
    d.keys("c");
    assert_eq!(d.h.app.preview.tab, Tab::Prompt);
    assert_eq!(d.h.app.preview.prompt_client, None);
    let rfd = d.screen();
    assert!(rfd.contains("┌ Preview ─"), "{rfd}");
    let mut titles = Vec::new();
    for _ in 0..3 {
        d.keys("c");
        let screen = d.screen();
        let title = screen
            .lines()
            .next()
            .and_then(|l| l.split("prompt as ").nth(1))
            .map(|t| t.split(" ─").next().unwrap().to_owned())
            .expect("the title names the client");
        // Each view shows its channels, computed for this load.
        assert!(screen.contains("==> "), "{screen}");
        titles.push(title);
    }
    assert_eq!(
        titles,
        [
            "JP main@4c1c39f1",
            "Claude Code 2.1.197",
            "Codex CLI 0.169.0"
        ]
    );
    d.keys("c");
    assert_eq!(d.h.app.preview.prompt_client, None);
    assert_eq!(d.screen(), rfd);
    // Other tabs ignore the view; the help lists the key.
    d.keys("cc1");
    assert!(!d.screen().contains("prompt as"));
    let help = jp_kb::tui::keymap::help_rows(
        &jp_kb::tui::keymap::bindings(),
        jp_kb::tui::keymap::Scope::Normal,
    );
    assert!(
        help.iter()
            .any(|(k, h)| k == "c" && h.starts_with("prompt as: RFD / JP"))
    );
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
        d.h.app.status.message.starts_with("undid:"),
        "{}",
        d.h.app.status.message
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
    let message = d.h.app.status.message.clone();
    assert!(
        message.contains(".jp.toml") && message.contains("dropped the undo history of this file"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), by_hand);
    // Said once: the next undo is the other file's, and it still works.
    d.keys("u");
    assert!(
        d.h.app.status.message.starts_with("undid:"),
        "{}",
        d.h.app.status.message
    );
    assert_eq!(d.config_text(), original);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), by_hand);
    d.keys("u");
    assert!(
        d.h.app.status.message.contains("nothing to undo"),
        "{}",
        d.h.app.status.message
    );
}

/// Indices of the subjects of the selected topic whose slug contains `part`.
fn subjects_named(d: &Demo, part: &str) -> Vec<usize> {
    let res = d.h.app.resolution().unwrap();
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
    let Mode::Choice(choice) = &d.h.app.mode else {
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
    let res = d.h.app.resolution().unwrap();
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
    let before = d.h.app.resolution().unwrap().counts().disabled;
    d.keys("d");
    let Mode::Choice(choice) = &d.h.app.mode else {
        panic!("expected a choice");
    };
    let text = choice.lines.join("\n");
    assert!(!text.contains("skips hidden"), "{text}");
    let expected = format!(
        "disables {} (1 hidden); removes from the prompt: ast-grep/rules",
        jp_kb::plural::count(under.len(), "subject", "subjects")
    );
    assert!(text.contains(&expected), "{text}");
    // Its cost is shown with the option; a pre-loaded subject leaves, so
    // the choice is confirmed.
    assert!(
        choice.options[0].1.effect.leaving == ["skills/ast-grep/rules"],
        "{:?}",
        choice.options[0].1.effect
    );
    d.keys("1");
    assert!(matches!(d.h.app.mode, Mode::Choice(_)));
    d.keys("\n");
    // The count shown is the count the edit makes.
    let after = d.h.app.resolution().unwrap().counts().disabled;
    assert_eq!(after - before, under.len(), "{}", d.config_text());
}

#[test]
fn pattern_tester_in_disabled_mode_counts_what_enter_disables() {
    let mut d = Demo::new(120, 40);
    let counts = d.h.app.resolution().unwrap().counts();
    let newly = counts.total - counts.disabled;
    d.keys("g**\t");
    let screen = d.screen();
    let hidden = {
        let res = d.h.app.resolution().unwrap();
        (0..res.subjects().len())
            .filter(|&i| res.subjects()[i].hidden && !res.is_disabled(i))
            .count()
    };
    let expected = format!(
        "disables {newly} subjects ({hidden} hidden); {} already disabled",
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
    assert!(matches!(d.h.app.mode, Mode::Choice(_)));
    d.keys("\n");
    let after = d.h.app.resolution().unwrap().counts().disabled;
    assert_eq!(after - counts.disabled, newly);
}
