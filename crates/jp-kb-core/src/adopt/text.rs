//! The `.jp/kb.toml` an adoption writes: one table per planned topic, its
//! `learned` slugs each with the file it comes from. Deterministic (no
//! date, no counts), so that running `init` again on the same files
//! finds exactly this text and changes nothing.

use std::fmt::Write as _;

use jp_kb_toml::strings::{Style, basic, encode};

use crate::display::escape_name;

use super::plan::{Plan, State};

const HEADER: &str = "\
# Written by `jp-kb init`: the knowledge this repository already had for
# other assistants, adopted in place (see docs/adopt.md). Nothing was
# copied: each subject is a symbolic link in .jp/kb/ to the file the other
# assistant reads, so an edit there is what JP gets too. `jp-kb init
# --dry-run` shows what was found and why each file is pre-loaded
# (`learned`) or learnable.
";

/// The configuration file for `plan`.
pub fn kb_toml(plan: &Plan) -> String {
    let mut out = String::from(HEADER);
    for topic in &plan.topics {
        let _ = write!(
            out,
            "\n[kb.topic.{}]\ntitle = {}\nintroduction = {}\n",
            topic.id,
            basic(topic.title),
            basic(topic.introduction)
        );
        if let Some(description) = &topic.description {
            let _ = writeln!(
                out,
                "description = {}",
                encode(description, Style::MlBasic, "\n", "\n")
            );
        }
        let _ = writeln!(out, "subjects = {}", basic(&topic.dir));
        let learned: Vec<_> = plan.entries_in(topic.kind, State::Learned).collect();
        if !learned.is_empty() {
            out.push_str(
                "# Shown in every session by the assistant each was written for.\nlearned = [\n",
            );
            for entry in learned {
                let _ = writeln!(
                    out,
                    "    {}, # {}",
                    basic(&glob_literal(&entry.slug)),
                    escape_name(&entry.rel)
                );
            }
            out.push_str("]\n");
        }
    }
    out
}

/// `slug` as a pattern that selects only itself: glob metacharacters in
/// a character class (`a*b` → `a[*]b`), so `learned` never reaches a
/// neighbour.
pub fn glob_literal(slug: &str) -> String {
    let mut out = String::with_capacity(slug.len());
    for c in slug.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}') {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn metacharacters_are_literal() {
        assert_eq!(glob_literal("a*b/c?[d]{e}"), "a[*]b/c[?][[]d[]][{]e[}]");
        assert_eq!(glob_literal("claude/web"), "claude/web");
        for slug in ["a*b", "x[1]", "{a,b}", "q?"] {
            let glob = globset::GlobBuilder::new(&glob_literal(slug))
                .literal_separator(true)
                .build()
                .unwrap()
                .compile_matcher();
            assert!(glob.is_match(slug), "{slug}");
            assert!(!glob.is_match("ab"), "{slug}");
        }
    }
}
