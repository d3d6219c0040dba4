#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The TUI's search mode (issue 17 item 3), driven through the real key
//! map, `update`, the driver (searching inline, on an index in memory)
//! and the views, on the bundled demo: hits across every enabled topic,
//! hidden ones marked, disabled ones never; `Enter` goes to the subject;
//! `l`/`d` act on the hit through the planner as on a row; `Esc` leaves.

use super::tui_support;

use insta::assert_snapshot;
use jp_kb::tui::app::Mode;
use jp_kb::tui::event::Event;
use jp_kb::tui::pane::{Focus, Tab};
use jp_kb::tui::search::state::Found;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use tui_support::Demo;

fn demo() -> Demo {
    Demo::new(100, 30)
}

/// `topic/slug` of every hit shown, best first.
fn hits(d: &Demo) -> Vec<String> {
    d.h.search()
        .hits
        .iter()
        .map(|h| format!("{}/{}", h.topic, h.slug))
        .collect()
}

fn selected_slug(d: &Demo) -> Option<String> {
    let i = d.h.selected_subject()?;
    Some(d.h.subject(i)?.slug().to_owned())
}

fn topic_id(d: &Demo) -> String {
    d.h.topic_state().unwrap().id().to_owned()
}

#[test]
fn s_opens_a_query_line_whose_hits_follow_the_typing() {
    let mut d = demo();
    d.keys("S");
    assert!(matches!(d.h.mode(), Mode::Search(false)));
    assert!(d.screen().contains("Search:"), "{}", d.screen());
    d.keys("releas");
    // A word still being typed matches by its prefix.
    assert!(
        hits(&d).contains(&"project/release".to_owned()),
        "{:?}",
        hits(&d)
    );
    d.keys("e");
    let found = hits(&d);
    assert_eq!(found.first().map(String::as_str), Some("project/release"));
    // The hidden subject that mentions the word is listed, and marked.
    assert!(
        found.contains(&"project/internal-notes".to_owned()),
        "{found:?}"
    );
    let screen = d.screen();
    assert!(screen.contains("internal-notes (hidden)"), "{screen}");
    // `l` on the query line is a letter of the query, not a toggle.
    let before = d.config_text();
    d.keys(" l");
    assert_eq!(d.h.search().query(), "release l");
    assert_eq!(d.config_text(), before);
}

#[test]
fn disabled_subjects_and_topics_never_appear() {
    let mut d = demo();
    // `drafts/roadmap` (a disabled glob), `skills/obsolete` (a disabled
    // slug) and the disabled topic `archive` all hold these words.
    for query in ["roadmap draft", "obsolete", "old notes enable"] {
        d.keys("S");
        d.h.clear_search_query();
        d.keys(query);
        let found = hits(&d);
        assert!(
            !found.iter().any(|h| h.contains("roadmap")
                || h == "skills/obsolete"
                || h.starts_with("archive/")),
            "{query}: {found:?}"
        );
        d.keys("\u{1b}");
    }
}

#[test]
fn enter_goes_to_the_subject_in_its_topic_on_the_subject_tab() {
    let mut d = demo();
    d.keys("S");
    d.keys("commit messages");
    assert_eq!(hits(&d).first().map(String::as_str), Some("skills/git"));
    d.keys("\n");
    assert!(matches!(d.h.mode(), Mode::Normal));
    assert_eq!(topic_id(&d), "skills");
    assert_eq!(selected_slug(&d).as_deref(), Some("git"));
    assert_eq!(d.h.focused(), Focus::Subjects);
    assert_eq!(d.h.preview_tab(), Tab::Subject);
    assert!(d.screen().contains("Commit often"), "{}", d.screen());
}

#[test]
fn enter_on_a_hidden_hit_shows_hidden_subjects_to_select_its_row() {
    let mut d = demo();
    // Hidden and disabled subjects are not shown in the subjects pane.
    d.keys("\t.");
    assert!(!d.h.shows_hidden());
    d.keys("S");
    d.keys("release key");
    assert_eq!(
        hits(&d).first().map(String::as_str),
        Some("project/internal-notes")
    );
    d.keys("\n");
    assert!(d.h.shows_hidden());
    assert_eq!(topic_id(&d), "project");
    assert_eq!(selected_slug(&d).as_deref(), Some("internal-notes"));
}

#[test]
fn l_and_d_on_a_hit_edit_through_the_planner_as_on_a_row_and_u_undoes() {
    let mut d = demo();
    d.keys("S");
    d.keys("releasing");
    assert_eq!(
        hits(&d).first().map(String::as_str),
        Some("project/release")
    );
    // Tab gives the keys to the hit list; `l` learns the hit's subject.
    d.keys("\tl");
    assert!(matches!(d.h.mode(), Mode::Search(true)));
    let text = d.config_text();
    assert!(
        text.contains(r#"learned = ["maintainers/*", "release"]"#),
        "{text}"
    );
    // The reload searched again: the hit now shows as learned.
    let hit = d.h.search().hits.first().unwrap();
    assert!(hit.learned, "{hit:?}");
    assert!(d.screen().contains("● project/release"), "{}", d.screen());
    // `u` undoes, still in the mode.
    d.keys("u");
    assert!(d.config_text().contains(r#"learned = ["maintainers/*"]"#));
    assert!(!d.h.search().hits.first().unwrap().learned);
    // `d` disables it: it leaves the hits (disabled never appear).
    d.keys("d");
    assert!(
        d.config_text()
            .contains(r#"disabled = ["drafts/**", "release"]"#),
        "{}",
        d.config_text()
    );
    assert!(
        !hits(&d).contains(&"project/release".to_owned()),
        "{:?}",
        hits(&d)
    );
}

#[test]
fn esc_leaves_and_s_comes_back_to_the_same_query() {
    let mut d = demo();
    d.keys("S");
    d.keys("git");
    d.keys("\u{1b}");
    assert!(matches!(d.h.mode(), Mode::Normal));
    assert!(!d.screen().contains("Search:"));
    d.keys("S");
    assert_eq!(d.h.search().query(), "git");
    assert!(hits(&d).contains(&"skills/git".to_owned()));
    // Ctrl-c still quits from the query line.
    d.ctrl('c');
    assert!(d.h.quits());
}

#[test]
fn a_query_without_words_says_why_and_searches_nothing() {
    let mut d = demo();
    d.keys("S");
    d.keys("*.[");
    assert!(d.h.search().hits.is_empty());
    let screen = d.screen();
    assert!(screen.contains("has no letters or digits"), "{screen}");
    // Backspace to empty: the hint, no error.
    for _ in 0..3 {
        d.h.press(KeyCode::Backspace, KeyModifiers::NONE);
    }
    assert!(d.h.search().error.is_none());
    assert!(d.screen().contains("Type words to search"));
}

#[test]
fn an_answer_to_an_older_query_is_dropped() {
    let mut d = demo();
    d.keys("S");
    d.keys("git");
    let shown = hits(&d);
    let asked = d.h.search().asked;
    // A worker's late answer to the query before: not shown.
    d.h.action(Event::Searched(Box::new(Found {
        generation: asked - 1,
        result: Ok(Vec::new()),
        notes: Vec::new(),
        mode: "lexical",
    })));
    assert_eq!(hits(&d), shown);
}

#[test]
fn help_and_footer_name_the_search_keys_from_the_key_table() {
    let mut d = demo();
    d.keys("?");
    let help = d.screen();
    // By meaning too when a model is there (issue 37 item 5: it said
    // "by words" only).
    assert!(
        help.contains("search by words, and meaning with a model"),
        "{help}"
    );
    d.keys("\u{1b}S");
    let footer = d.screen();
    assert!(footer.contains("Enter go to"), "{footer}");
    assert!(footer.contains("Tab hits (l/d)"), "{footer}");
    d.keys("git\t");
    let footer = d.screen();
    assert!(footer.contains("l learn"), "{footer}");
    assert!(footer.contains("d disable"), "{footer}");
}

/// A workspace of two topics, `alpha` and `beta`, each holding a subject
/// `notes` that mentions cherries (`kb` is the `.jp/kb.toml`), and
/// alpha's `more`, which does too.
fn two_topics(kb: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(".jp/kb.toml", kb);
    write("alpha/notes.md", "# Notes\n\nApples and pears.\n");
    write("alpha/more.md", "# More\n\nPlums, and cherries in June.\n");
    write("beta/notes.md", "# Notes\n\nCherries grow here.\n");
    (dir, root)
}

const ALPHA_LEARNS_NOTES: &str = "[kb.topic.alpha]\ntitle = \"Alpha\"\nsubjects = \"alpha\"\n\
    learned = [\"notes\"]\n\n[kb.topic.beta]\ntitle = \"Beta\"\nsubjects = \"beta\"\n";

fn hit_names(h: &jp_kb::tui::harness::Harness) -> Vec<String> {
    h.search()
        .hits
        .iter()
        .map(|h| format!("{}/{}", h.topic, h.slug))
        .collect()
}

/// Two topics each holding a subject `notes` (alpha's learned): a hit is
/// its own topic's subject for its markers, `l` and `Enter`, never the
/// other topic's subject of the same slug.
#[test]
fn a_hit_is_its_own_topics_subject_when_two_topics_share_a_slug() {
    let (_dir, root) = two_topics(ALPHA_LEARNS_NOTES);
    let mut h = jp_kb::tui::harness::Harness::open(&root, 100, 30, false);
    h.keys("S");
    h.keys("grow");
    assert_eq!(hit_names(&h), ["beta/notes"]);
    // Its marker is beta's subject's (available), not alpha's (learned).
    let screen = h.screen();
    let line = screen
        .lines()
        .find(|l| l.contains("beta/notes"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(!line.contains('●'), "{line}");
    // `l` learns beta's `notes`; alpha keeps its own.
    h.keys("\tl");
    let text = std::fs::read_to_string(root.join(".jp/kb.toml")).unwrap();
    let (alpha, beta) = text.split_once("[kb.topic.beta]").unwrap();
    assert!(alpha.contains(r#"learned = ["notes"]"#), "{text}");
    assert!(beta.contains(r#"learned = ["notes"]"#), "{text}");
    // Enter goes to beta's subject.
    h.keys("\n");
    assert_eq!(h.topic_state().unwrap().id(), "beta");
    let i = h.selected_subject().unwrap();
    assert_eq!(h.subject(i).unwrap().path(), root.join("beta/notes.md"));
    assert!(h.screen().contains("Cherries grow here"), "{}", h.screen());
}

/// `Space` on hits marks their subjects in their topics (`+`, as on the
/// rows); `l` on a hit of a topic with marks acts on those marks as one
/// edit (one undo step) and clears them; on a hit of a topic without
/// marks, on the hit.
#[test]
fn space_marks_hits_and_l_acts_on_the_marks_of_the_hits_topic() {
    let (_dir, root) = two_topics(
        "[kb.topic.alpha]\ntitle = \"Alpha\"\nsubjects = \"alpha\"\n\n\
         [kb.topic.beta]\ntitle = \"Beta\"\nsubjects = \"beta\"\n",
    );
    let config = root.join(".jp/kb.toml");
    let mut h = jp_kb::tui::harness::Harness::open(&root, 100, 30, false);
    h.keys("S");
    h.keys("cherries pears");
    h.keys("\t");
    let found = hit_names(&h);
    assert_eq!(found.len(), 3, "{found:?}");
    let at = |name: &str| found.iter().position(|f| f == name).unwrap();
    let go = |h: &mut jp_kb::tui::harness::Harness, n: usize| {
        h.press(KeyCode::Home, KeyModifiers::NONE);
        for _ in 0..n {
            h.keys("j");
        }
    };
    for name in ["alpha/notes", "alpha/more"] {
        go(&mut h, at(name));
        h.keys(" ");
    }
    assert_eq!(h.marks().of("alpha"), ["more", "notes"]);
    let screen = h.screen();
    for name in ["alpha/notes", "alpha/more"] {
        let line = screen.lines().find(|l| l.contains(name)).unwrap();
        assert!(line.contains(&format!("+{name}")), "{line}");
    }
    // beta has no marks: `l` learns the hit alone.
    go(&mut h, at("beta/notes"));
    h.keys("l");
    let text = std::fs::read_to_string(&config).unwrap();
    let (alpha, beta) = text.split_once("[kb.topic.beta]").unwrap();
    assert!(!alpha.contains("learned"), "{text}");
    assert!(beta.contains(r#"learned = ["notes"]"#), "{text}");
    // On an alpha hit: both marked subjects, one edit; the marks go.
    go(&mut h, at("alpha/notes"));
    h.keys("l");
    let text = std::fs::read_to_string(&config).unwrap();
    let (alpha, _) = text.split_once("[kb.topic.beta]").unwrap();
    assert!(alpha.contains(r#"learned = ["more", "notes"]"#), "{text}");
    assert_eq!(h.marks().count("alpha"), 0);
    // One undo step takes both out.
    h.keys("u");
    let text = std::fs::read_to_string(&config).unwrap();
    let (alpha, beta) = text.split_once("[kb.topic.beta]").unwrap();
    assert!(!alpha.contains("learned"), "{text}");
    assert!(beta.contains(r#"learned = ["notes"]"#), "{text}");
}

/// The search screen with its styles: markers with glyph and color (the
/// hidden hit, the learned one), the selected hit, the matched words
/// highlighted in the snippets, the footer's keys.
#[test]
fn styled_search_screen() {
    let mut d = demo();
    d.keys("S");
    d.keys("release jean");
    d.keys("\t");
    assert_snapshot!(d.styled_screen());
}
