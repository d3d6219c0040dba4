//! The fact entries of a Facts YAML file's body, and where their fields
//! are. The body is Markdown with YAML list entries in it (`# Title`,
//! `## Section`, then `- id: …` items), so it is not read as one YAML
//! document: each top-level `- ` item (its line and the indented lines
//! after it) is one entry, parsed alone, and any other line at column 0
//! (a heading, prose) ends it. Field places are found on the entry's
//! lines: a key at the mapping's indentation (`  confidence: 0.95`), or a
//! member of a flow mapping (`- {id: a, fact: b}`).

use std::ops::Range;

use super::spans::FieldSpans;

/// The byte ranges of the body's top-level `- ` items (blank lines and
/// trailing comments after an item not included).
pub fn entry_ranges(text: &str, body_start: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut current: Option<Range<usize>> = None;
    let mut at = body_start;
    for line in text[body_start..].split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let end = at + bare.len();
        let starts_item = bare == "-" || bare.starts_with("- ") || bare.starts_with("-\t");
        if starts_item {
            out.extend(current.take());
            current = Some(at..end);
        } else if bare.trim().is_empty() {
            // A blank line inside or after an entry: decided by the next.
        } else if bare.starts_with([' ', '\t']) {
            if let Some(range) = &mut current {
                range.end = end;
            }
        } else {
            out.extend(current.take());
        }
        at += line.len();
    }
    out.extend(current);
    out
}

/// Where the fields of the entry at `range` of `text` are.
pub fn field_spans(text: &str, range: Range<usize>) -> FieldSpans {
    let block = &text[range.clone()];
    let first_len = block.find('\n').unwrap_or(block.len());
    let first_line = block[..first_len].trim_end_matches('\r');
    let mut spans = FieldSpans::new(range.start..range.start + first_line.len());
    // The mapping's keys start after `- ` and any further blanks.
    let key_col = 1 + first_line[1..].len() - first_line[1..].trim_start().len();
    if block[key_col..].starts_with('{') {
        flow_mapping(text, range.start + key_col, &mut spans);
        return spans;
    }
    let mut at = range.start;
    let mut lines = block.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let bare = line.trim_end_matches(['\n', '\r']);
        let line_start = at;
        at += line.len();
        let indent = bare.len() - bare.trim_start_matches([' ', '\t']).len();
        let content_at = if line_start == range.start {
            key_col
        } else if indent == key_col {
            indent
        } else {
            continue;
        };
        let Some((key, value)) = key_and_value(bare, content_at) else {
            continue;
        };
        let value_span = line_start + value.start..line_start + value.end;
        if value.is_empty() {
            // A block value on the lines below: its `- ` items.
            spans.set_value(&key, line_start + content_at..line_start + bare.len());
            let mut items = Vec::new();
            let mut item_at = at;
            while let Some(next) = lines.peek() {
                let next_bare = next.trim_end_matches(['\n', '\r']);
                let next_indent = next_bare.len() - next_bare.trim_start_matches([' ', '\t']).len();
                if !next_bare.trim().is_empty() && next_indent <= key_col {
                    break;
                }
                let rest = next_bare.trim_start();
                if let Some(item) = rest.strip_prefix("- ") {
                    let item_start =
                        item_at + next_indent + 2 + (item.len() - item.trim_start().len());
                    let item_text = without_comment(item.trim_start());
                    items.push(item_start..item_start + item_text.len());
                }
                item_at += next.len();
                at += next.len();
                lines.next();
            }
            spans.set_items(&key, items);
        } else {
            spans.set_value(&key, value_span.clone());
            if text[value_span.clone()].starts_with('[') {
                let items = flow_elements(text, value_span.start);
                spans.set_items(&key, items);
            }
        }
    }
    spans
}

/// The key at byte `at` of `line` and its value's range in the line
/// (empty when the value is on the lines below).
fn key_and_value(line: &str, at: usize) -> Option<(String, Range<usize>)> {
    let rest = line.get(at..)?;
    let (key, after_key) = if let q @ (b'"' | b'\'') = rest.as_bytes().first()? {
        let close = rest[1..].find(char::from(*q))? + 1;
        (rest[1..close].to_owned(), close + 1)
    } else {
        let colon = rest
            .find(": ")
            .or_else(|| rest.ends_with(':').then(|| rest.len() - 1))?;
        (rest[..colon].trim_end().to_owned(), colon)
    };
    let after = &rest[after_key..];
    let after = after.trim_start_matches([' ', '\t']).strip_prefix(':')?;
    let value_rel = rest.len() - after.len();
    let value_text = after.trim_start();
    let value_start = at + value_rel + (after.len() - value_text.len());
    let value_text = without_comment(value_text);
    Some((key, value_start..value_start + value_text.len()))
}

/// `text` without a trailing ` # comment` (outside quotes) and blanks.
fn without_comment(text: &str) -> &str {
    let mut quote = None;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if b == q => quote = None,
            (None, b'#') if i > 0 && matches!(bytes[i - 1], b' ' | b'\t') => {
                return text[..i].trim_end();
            }
            _ => {}
        }
    }
    text.trim_end()
}

/// The elements of the flow collection (`[…]` or `{…}`) opening at
/// `open` of `text`, trimmed, as absolute ranges.
fn flow_elements(text: &str, open: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut start = open + 1;
    let mut i = open;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(b'"') if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'[' | b'{' => depth += 1,
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        push_trimmed(text, start..i, &mut out);
                        return out;
                    }
                }
                b',' if depth == 1 => {
                    push_trimmed(text, start..i, &mut out);
                    start = i + 1;
                }
                _ => {}
            },
        }
        i += 1;
    }
    out
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let Some(raw) = text.get(range.clone()) else {
        return;
    };
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return;
    }
    let start = range.start + (raw.len() - raw.trim_start().len());
    out.push(start..start + trimmed.len());
}

/// The members of a flow mapping opening at `open`.
fn flow_mapping(text: &str, open: usize, spans: &mut FieldSpans) {
    for member in flow_elements(text, open) {
        let member_text = &text[member.clone()];
        let Some((key, value)) = key_and_value(member_text, 0) else {
            continue;
        };
        let value = member.start + value.start..member.start + value.end;
        if text[value.clone()].starts_with('[') {
            spans.set_items(&key, flow_elements(text, value.start));
        }
        spans.set_value(&key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "---\ndomain: global\n---\n\n# Title\n\n## Section\n\n- id: global:fact:001\n  fact: \"a: b # c\"  # why\n  confidence: 0.95\n  tags: [x, \"y, z\"]\n\n  related:\n    - global:fact:002   # see\n    - 'global:fact:003'\n- {id: global:fact:002, related: [a, b], confidence: 2}\nProse ends it.\n  indented prose after prose\n- id: global:fact:003\n";

    fn texts(ranges: &[Range<usize>]) -> Vec<&str> {
        ranges.iter().map(|r| &BODY[r.clone()]).collect()
    }

    #[test]
    fn splits_the_body_into_entries() {
        let start = BODY.find("\n# Title").unwrap();
        let entries = entry_ranges(BODY, start);
        assert_eq!(entries.len(), 3);
        assert!(BODY[entries[0].clone()].ends_with("'global:fact:003'"));
        assert_eq!(
            &BODY[entries[1].clone()],
            "- {id: global:fact:002, related: [a, b], confidence: 2}"
        );
        assert_eq!(&BODY[entries[2].clone()], "- id: global:fact:003");
    }

    #[test]
    fn finds_values_and_items() {
        let start = BODY.find("\n# Title").unwrap();
        let entries = entry_ranges(BODY, start);
        let first = field_spans(BODY, entries[0].clone());
        assert_eq!(&BODY[first.value("id")], "global:fact:001");
        assert_eq!(&BODY[first.value("fact")], "\"a: b # c\"");
        assert_eq!(&BODY[first.value("confidence")], "0.95");
        assert_eq!(&BODY[first.item("tags", 1)], "\"y, z\"");
        assert_eq!(
            texts(&[first.item("related", 0), first.item("related", 1)]),
            ["global:fact:002", "'global:fact:003'"]
        );
        assert_eq!(&BODY[first.value("expires")], "- id: global:fact:001");

        let flow = field_spans(BODY, entries[1].clone());
        assert_eq!(&BODY[flow.value("confidence")], "2");
        assert_eq!(&BODY[flow.item("related", 1)], "b");
        assert_eq!(&BODY[flow.value("id")], "global:fact:002");
    }

    #[test]
    fn odd_lines_never_panic() {
        for text in [
            "-",
            "- :",
            "-  \"unclosed: x",
            "- é: ü\n  ö",
            "- {a: [",
            "- 'a'b: c",
        ] {
            for range in entry_ranges(text, 0) {
                let _ = field_spans(text, range);
            }
        }
    }
}
