//! Claude Code follows `@path` imports in project memory files (contract
//! §8, "No imports"): a word starting with `@` at the start of a line or
//! after white space, outside code spans and code blocks, names a file
//! whose contents are pulled into the model's context (`@~/.ssh/id_rsa`,
//! `@/etc/passwd`, `@../other-project/secrets.md`). A subject or a title
//! holding such a word must not make Claude Code read a file: the
//! generated memory file writes each one as a code span (`` `@path` ``),
//! which Claude Code shows as text and never follows.
//!
//! Code spans and blocks are found with a `CommonMark` parser (Claude Code
//! uses `marked`'s lexer, also `CommonMark`): a word already inside code is
//! left alone. Anything else that could be an import is quoted, whether
//! or not the file exists here: it may exist on the machine of whoever
//! runs Claude Code in this repository.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// `text` with every word Claude Code would take for an import written as
/// a code span, and those words (as they were) in order.
pub fn quote_imports(text: &str) -> (String, Vec<String>) {
    let code = code_ranges(text);
    let mut out = String::with_capacity(text.len());
    let mut quoted = Vec::new();
    let mut last = 0;
    for word in import_words(text) {
        if code.iter().any(|r| r.contains(&word.start)) {
            continue;
        }
        let found = &text[word.clone()];
        out.push_str(&text[last..word.start]);
        out.push_str(&code_span(found));
        quoted.push(found.to_owned());
        last = word.end;
    }
    out.push_str(&text[last..]);
    (out, quoted)
}

/// The paths Claude Code would import from `text`: each import word
/// outside code, without its `@`, escaped spaces unescaped, in order.
pub fn import_paths(text: &str) -> Vec<String> {
    let code = code_ranges(text);
    import_words(text)
        .into_iter()
        .filter(|w| !code.iter().any(|r| r.contains(&w.start)))
        .map(|w| text[w.start + 1..w.end].replace("\\ ", " "))
        .collect()
}

/// Byte ranges of the words Claude Code's import pattern matches
/// (`(?:^|\s)@((?:[^\s\\]|\\ )+)`): `@` after a line start or white
/// space, then non-space characters (a backslash escapes a space).
fn import_words(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].find('@') {
        let start = at + offset;
        let after_space = text[..start]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let mut end = start + 1;
        loop {
            match text[end..].chars().next() {
                Some('\\') if bytes.get(end + 1) == Some(&b' ') => end += 2,
                Some(c) if !c.is_whitespace() && c != '\\' => end += c.len_utf8(),
                _ => break,
            }
        }
        if after_space && end > start + 1 {
            words.push(start..end);
        }
        at = end.max(start + 1);
    }
    words
}

/// The byte ranges that are code: inline code spans and code blocks.
fn code_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut block: Option<usize> = None;
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        match event {
            Event::Code(_) => ranges.push(range),
            Event::Start(Tag::CodeBlock(_)) => block = Some(range.start),
            Event::End(TagEnd::CodeBlock) => {
                if let Some(start) = block.take() {
                    ranges.push(start..range.end);
                }
            }
            _ => {}
        }
    }
    ranges
}

/// `word` as a code span: fenced by one backtick more than the longest
/// run inside it, padded with a space where it starts or ends with one.
fn code_span(word: &str) -> String {
    let longest = word.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if word.starts_with('`') || word.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{word}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_claude_code_would_import_become_code_spans() {
        let (out, quoted) =
            quote_imports("See @~/.ssh/id_rsa, mail a@b.c\n@/etc/passwd\nand @../x.md or @ alone");
        assert_eq!(
            out,
            "See `@~/.ssh/id_rsa,` mail a@b.c\n`@/etc/passwd`\nand `@../x.md` or @ alone"
        );
        assert_eq!(quoted, ["@~/.ssh/id_rsa,", "@/etc/passwd", "@../x.md"]);
    }

    #[test]
    fn code_is_left_alone_and_backticks_inside_a_word_are_fenced() {
        let text = "`@kept` and\n\n```\n@dataclass\n```\n\n    @indented\n\nthen @a`b";
        let (out, quoted) = quote_imports(text);
        assert_eq!(
            out,
            "`@kept` and\n\n```\n@dataclass\n```\n\n    @indented\n\nthen ``@a`b``"
        );
        assert_eq!(quoted, ["@a`b"]);
        // A text without imports is returned unchanged.
        assert_eq!(quote_imports("no imports here").0, "no imports here");
    }

    #[test]
    fn import_paths_are_the_words_outside_code() {
        let text = "See @docs/a.md and `@not/this`\n\n```\n@nor/this\n```\n@my\\ file.md";
        assert_eq!(import_paths(text), ["docs/a.md", "my file.md"]);
    }

    #[test]
    fn an_escaped_space_stays_in_the_word() {
        let (out, _) = quote_imports("@my\\ file.md next");
        assert_eq!(out, "`@my\\ file.md` next");
    }
}
