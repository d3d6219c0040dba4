//! The façade as an adopter meets it: `examples/facade.rs`, a program that
//! uses only what the core's README documents. As JP does, it hands in the
//! topics its own loader merged and computes the section, the tool and a
//! `learn` answer (issue 38); as a curator does, it loads the files and
//! applies a plan (issue 25, "A door"). Compiled into this test binary, it
//! sees the core as any outside crate does.

#[path = "../../examples/facade.rs"]
mod facade;

#[test]
fn a_program_using_only_the_facade_reads_learns_and_applies() {
    let mut out = Vec::new();
    let result = facade::run(None, &mut out);
    let stdout = String::from_utf8_lossy(&out);
    assert!(result.is_ok(), "{result:?}\n{stdout}");
    assert!(
        stdout.contains("<subject \"style\">\nTabs, not spaces."),
        "{stdout}"
    );
    assert!(stdout.contains("- people"), "the listing: {stdout}");
    assert!(
        stdout.contains("\"description\": \"Learn about knowledge base topics and subjects.\\n\\nTopics:\\n- project (Project)\""),
        "the tool: {stdout}"
    );
    assert!(
        stdout.contains("== learn project people\nAsk Ada."),
        "{stdout}"
    );
    assert!(stdout.contains("added `people`"), "{stdout}");
    assert!(stdout.contains("pre-loads people: true"), "{stdout}");
    assert!(stdout.contains("== undone"), "{stdout}");
}

/// The example is the README's promise: nothing but documented items.
#[test]
fn the_example_reaches_nothing_behind_the_facade() {
    let source = include_str!("../../examples/facade.rs");
    assert!(
        !source.contains("internal"),
        "the example uses jp_kb_core::internal"
    );
}
