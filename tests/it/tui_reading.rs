#![allow(clippy::unwrap_used, clippy::expect_used)]
//! What the TUI reads and shows as the workspace changes, end to end
//! without a terminal: files added or changed outside, token counts kept
//! by file stamps, huge and oddly named files, the frame reading only
//! what is on screen, the laid-out prompt, background reloads, the mouse
//! and the prompt's client views. (Split from `tui_behaviour.rs`, which
//! keeps the edits.)

use super::tui_support;

use jp_kb::tui::command::Command;
use jp_kb::tui::effect::Effect;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::Tab;
use tui_support::Demo;

const ORIGINAL_LEARNED: &str =
    "learned = [\"maintainers/*\"] # a glob: pre-loads every maintainer\n";

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
        let app = &d.h;
        let res = app.resolution().unwrap();
        let s = res.subjects().iter().find(|s| s.path() == path).unwrap();
        (
            app.cache().tokens.get(&path).map(|(stamp, _)| *stamp),
            app.cache().tokens_of(s).and_then(|t| t.tokens),
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
    let formatted = jp_kb_core::internal::content::read_formatted(
        &jp_kb_core::internal::content::Root::new(&root),
        "release",
        Some("md"),
        &root.join("release.md"),
    );
    assert_eq!(
        release_after,
        jp_kb_core::internal::tokens::count_tokens(&formatted)
    );
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
        d.h.status_line().contains(".jp.toml"),
        "{}",
        d.h.status_line()
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
    use jp_kb::tui::pane::Focus;
    let mut d = Demo::new(120, 40);
    // The topics pane's border is row 0, its first topic row 1.
    d.h.click(5, 2);
    assert_eq!(d.h.topic_state().unwrap().id(), "skills");
    assert_eq!(d.h.focused(), Focus::Topics);
    // The Prompt tab label, on the preview's first inner row.
    let screen = d.screen();
    let tab_row = screen.lines().position(|l| l.contains("2 Prompt")).unwrap();
    let line = screen.lines().nth(tab_row).unwrap();
    let x = line[..line.find("2 Prompt").unwrap()].chars().count();
    d.h.click(u16::try_from(x).unwrap(), u16::try_from(tab_row).unwrap());
    assert_eq!(d.h.preview_tab(), Tab::Prompt);
    assert_eq!(d.h.focused(), Focus::Preview);
    d.h.mouse(
        ratatui::crossterm::event::MouseEventKind::ScrollDown,
        u16::try_from(x).unwrap(),
        20,
    );
    assert_eq!(d.h.preview_scroll(), 3);
    // A click on a row selects it; a click on the selected directory
    // row closes it.
    let screen = d.screen();
    let y =
        |name: &str| u16::try_from(screen.lines().position(|l| l.contains(name)).unwrap()).unwrap();
    d.h.click(4, y("git.md"));
    assert_eq!(d.h.focused(), Focus::Subjects);
    let git = d.h.selected_subject().unwrap();
    assert_eq!(d.h.subject(git).unwrap().slug(), "git");
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
        d.h.cache()
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
    let model = d.h.model().unwrap();
    let expected = model.kb.knowledge_section().unwrap();
    assert_eq!(model.full_prompt().unwrap(), expected);
    assert_eq!(
        model.prompt_tokens,
        jp_kb_core::internal::tokens::count_tokens(&expected),
        "the tally in pieces counts what the whole counts"
    );
    let layout = model.prompt.clone().unwrap();
    assert!(layout.pieces.len() > 10, "{}", layout.pieces.len());
    assert_eq!(layout.bytes, expected.len());
    assert_eq!(layout.newlines, expected.matches('\n').count());
    // Nothing read before the Prompt tab is shown.
    assert_eq!(model.prompt_head.pieces, 0);

    d.keys("2");
    let head = &d.h.model().unwrap().prompt_head;
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
    assert_eq!(d.h.focused(), jp_kb::tui::pane::Focus::Preview);
    for _ in 0..400 {
        d.keys("j");
    }
    let head = &d.h.model().unwrap().prompt_head;
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
    let generation = d.h.model().unwrap().generation;
    d.keys("/\u{1b}");
    let screen = d.screen();
    assert!(screen.contains("omega.md"), "{screen}");
    let stale = recv(&rx);
    d.h.action(stale);
    assert_eq!(d.h.model().unwrap().generation, generation);
    assert!(d.screen().contains("omega.md"));
}

#[test]
fn the_prompt_view_key_cycles_the_clients_and_back_to_the_rfd_section() {
    let mut d = Demo::new(120, 40);
    // From another tab, the key first shows the Prompt tab as it was.
    d.keys("c");
    assert_eq!(d.h.preview_tab(), Tab::Prompt);
    assert_eq!(d.h.prompt_client(), None);
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
    assert_eq!(d.h.prompt_client(), None);
    assert_eq!(d.screen(), rfd);
    // Other tabs ignore the view; the help lists the key.
    d.keys("cc1");
    assert!(!d.screen().contains("prompt as"));
    let help = jp_kb::tui::keymap::help_rows(
        &jp_kb::tui::keymap::table::bindings(),
        jp_kb::tui::keymap::scope::Scope::Normal,
    );
    assert!(
        help.iter()
            .any(|(k, h)| k == "c" && h.starts_with("prompt as: RFD / JP"))
    );
}

/// Issue 26 item 8: `o` with no subject selected (the Topics pane) on the
/// Learn tab says what it opens instead of opening the config file; on
/// the Config tab it opens the config file.
#[test]
fn o_on_the_learn_tab_opens_no_config_file() {
    let mut d = Demo::new(120, 40);
    d.keys("3o");
    assert!(d.h.outside.is_empty(), "{:?}", d.h.outside);
    assert!(d.screen().contains("no subject selected"), "{}", d.screen());
    d.keys("5o");
    assert!(
        d.h.outside
            .iter()
            .any(|e| matches!(e, Effect::OpenEditor(p) if p.ends_with("kb.toml"))),
        "{:?}",
        d.h.outside
    );
}

/// Issue 26 item 8: an autolink shows its address once in the markdown
/// preview (it showed `https://x (https://x)` on every tldr page).
#[test]
fn an_autolink_shows_its_address_once() {
    let mut d = Demo::new(120, 40);
    std::fs::write(
        d.root().join(".jp/kb/project/release.md"),
        "# Release\n\nMore information: <https://example.org/release>.\n",
    )
    .unwrap();
    d.h.action(jp_kb::tui::command::Command::Reload);
    d.keys("\t");
    d.select("release");
    let screen = d.screen();
    assert_eq!(
        screen.matches("https://example.org/release").count(),
        1,
        "{screen}"
    );
}

/// Issue 26 item 8: with the tester on `disabled`, the Learn tab does not
/// show `learn` called with the pattern (what it would take away reads as
/// what the assistant gets); it shows the plain listing and says why.
#[test]
fn the_learn_tab_in_disabled_mode_shows_no_learn_of_the_pattern() {
    let mut d = Demo::new(140, 40);
    d.keys("3gmaint*");
    assert!(
        d.screen().contains("subjects: [\"maint*\"]"),
        "{}",
        d.screen()
    );
    d.keys("\t");
    let screen = d.screen();
    assert!(!screen.contains("subjects: [\"maint*\"]"), "{screen}");
    assert!(screen.contains("learn never serves these"), "{screen}");
}
