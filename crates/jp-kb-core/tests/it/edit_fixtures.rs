//! Golden fixtures: for every `tests/edit/NAME.edit`, applying the edit to
//! `NAME.before.toml` must give exactly `NAME.after.toml` (byte for byte)
//! or fail with exactly the message in `NAME.error`; the summary must be
//! the `=> ` line of the spec; and applying the edit again to the result
//! must change nothing.
//!
//! `JP_KB_BLESS=1 cargo test --test edit_fixtures` (re)writes the expected
//! files from the current code — review every diff before committing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "edit_spec/mod.rs"]
mod edit_spec;

use std::fs;
use std::path::{Path, PathBuf};

use jp_kb_core::internal::edit::{Edit, EditError, apply_edit as apply};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/edit")
}

fn read(path: &Path) -> Option<String> {
    fs::read(path)
        .ok()
        .map(|b| String::from_utf8(b).expect("fixtures are UTF-8"))
}

/// The error a second application may give instead of "no change".
fn repeat_is_noop(
    edit: &Edit,
    again: &Result<jp_kb_core::internal::edit::Applied, EditError>,
    after: &str,
) -> bool {
    match (edit, again) {
        (_, Ok(a)) => !a.changed && a.text == after,
        (Edit::AddTopic { .. }, Err(EditError::TopicExists { .. }))
        | (Edit::RemoveTopic { .. }, Err(EditError::TopicNotFound { .. })) => true,
        _ => false,
    }
}

#[test]
fn every_fixture_gives_its_golden_output() {
    let bless = std::env::var_os("JP_KB_BLESS").is_some();
    let mut names: Vec<String> = fs::read_dir(fixture_dir())
        .expect("tests/edit exists")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".edit").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 40, "only {} fixtures found", names.len());
    let mut failures = Vec::new();
    for name in &names {
        let dir = fixture_dir();
        let spec_path = dir.join(format!("{name}.edit"));
        let spec_text = read(&spec_path).expect("spec readable");
        let spec = edit_spec::parse_spec(&spec_text).unwrap_or_else(|e| panic!("{name}.edit: {e}"));
        let before = read(&dir.join(format!("{name}.before.toml")))
            .unwrap_or_else(|| panic!("{name}.before.toml missing"));
        let after_path = dir.join(format!("{name}.after.toml"));
        let error_path = dir.join(format!("{name}.error"));
        let result = apply(&before, &spec.edit);
        if bless {
            match &result {
                Ok(a) => {
                    fs::write(&after_path, &a.text).expect("write after");
                    let _ = fs::remove_file(&error_path);
                }
                Err(e) => {
                    fs::write(&error_path, format!("{e}\n")).expect("write error");
                    let _ = fs::remove_file(&after_path);
                }
            }
            let summary = result.as_ref().map(|a| a.summary.clone()).ok();
            let kept: Vec<&str> = spec_text
                .lines()
                .filter(|l| !l.starts_with("=> "))
                .collect();
            let mut new_spec = kept.join("\n");
            new_spec.push('\n');
            if let Some(s) = summary {
                new_spec.push_str("=> ");
                new_spec.push_str(&s);
                new_spec.push('\n');
            }
            fs::write(&spec_path, new_spec).expect("write spec");
            continue;
        }
        match (result, read(&after_path), read(&error_path)) {
            (Ok(a), Some(after), None) => {
                if a.text != after {
                    failures.push(format!(
                        "{name}: output differs\n--- got ---\n{}\n--- want ---\n{after}",
                        a.text
                    ));
                    continue;
                }
                if a.changed != (before != after) {
                    failures.push(format!(
                        "{name}: changed = {} but files {} equal",
                        a.changed,
                        if before == after { "are" } else { "are not" }
                    ));
                }
                if spec.summary.as_deref() != Some(a.summary.as_str()) {
                    failures.push(format!(
                        "{name}: summary {:?}, want {:?}",
                        a.summary, spec.summary
                    ));
                }
                let again = apply(&after, &spec.edit);
                if !repeat_is_noop(&spec.edit, &again, &after) {
                    failures.push(format!(
                        "{name}: applying the edit again changed something: {again:?}"
                    ));
                }
            }
            (Err(e), None, Some(want)) => {
                if e.to_string() != want.trim_end_matches('\n') {
                    failures.push(format!("{name}: error {e}, want {want}"));
                }
            }
            (Ok(a), None, Some(want)) => failures.push(format!(
                "{name}: succeeded ({}) but expected error {want}",
                a.summary
            )),
            (Err(e), Some(_), None) => failures.push(format!("{name}: failed with {e}")),
            (_, a, e) => failures.push(format!(
                "{name}: needs exactly one of .after.toml ({}) and .error ({})",
                a.is_some(),
                e.is_some()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
