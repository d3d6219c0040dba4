//! What of a subject is embedded: its sections by Markdown heading, each
//! at most [`MAX_CHUNK_BYTES`] long (cut at a paragraph, a line, then a
//! character), each led by the subject's slug and title so that a section
//! deep in a page still says what the page is about.
//!
//! Bounded: at most [`MAX_CHUNKS`] chunks a subject (the first ones; a
//! page's opening says most about it), so a huge file costs a bounded
//! number of forward passes and bytes in the cache.

/// The longest chunk body, in bytes: about the 256 word pieces
/// all-MiniLM-L6-v2 reads (English runs ~4 bytes a piece), so what the
/// model would cut off becomes the next chunk instead.
pub const MAX_CHUNK_BYTES: usize = 1000;
/// The most chunks of one subject.
pub const MAX_CHUNKS: usize = 32;
/// The longest lead (slug and title) in bytes: a 60,000-word heading
/// would otherwise lead every chunk of its page.
const MAX_LEAD_BYTES: usize = 200;

/// The chunks of a subject with slug `slug`, text `text`.
pub fn chunks(slug: &str, text: &str, markdown: bool) -> Vec<String> {
    let lead = lead(slug, text, markdown);
    let mut out = Vec::new();
    for section in sections(text, markdown) {
        for body in pieces(section) {
            if out.len() == MAX_CHUNKS {
                return out;
            }
            out.push(format!("{lead}\n{body}"));
        }
    }
    if out.is_empty() {
        // An empty subject is still found by its name.
        out.push(lead);
    }
    out
}

/// The slug's words and, for Markdown, the first heading: what the page
/// is.
fn lead(slug: &str, text: &str, markdown: bool) -> String {
    let words: String = slug
        .chars()
        .map(|c| {
            if matches!(c, '/' | '-' | '_' | '.') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let title = markdown
        .then(|| {
            text.lines()
                .find_map(|l| heading(l).map(str::trim))
                .filter(|t| !t.is_empty())
        })
        .flatten();
    let mut lead = match title {
        Some(title) => format!("{words}: {title}"),
        None => words,
    };
    if lead.len() > MAX_LEAD_BYTES {
        let mut end = MAX_LEAD_BYTES;
        while !lead.is_char_boundary(end) {
            end -= 1;
        }
        lead.truncate(end);
    }
    lead
}

/// The text of an ATX heading line (`# Title`), if the line is one.
fn heading(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('#');
    let level = line.len() - rest.len();
    ((1..=6).contains(&level) && (rest.is_empty() || rest.starts_with(' '))).then_some(rest)
}

/// The text cut before each heading outside a code fence.
fn sections(text: &str, markdown: bool) -> Vec<&str> {
    if !markdown {
        return vec![text];
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut fenced = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        } else if !fenced && at > start && heading(line.trim_end()).is_some() {
            out.push(&text[start..at]);
            start = at;
        }
        at += line.len();
    }
    out.push(&text[start..]);
    out
}

/// `section` in pieces of at most [`MAX_CHUNK_BYTES`] (blank ones
/// dropped), cut at the last paragraph break, else line break, else
/// space, else character boundary before the bound.
fn pieces(section: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = section.trim();
    while !rest.is_empty() {
        if rest.len() <= MAX_CHUNK_BYTES {
            out.push(rest);
            break;
        }
        let mut end = MAX_CHUNK_BYTES;
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let window = &rest[..end];
        let cut = ["\n\n", "\n", " "]
            .iter()
            .find_map(|sep| window.rfind(sep).filter(|&i| i > MAX_CHUNK_BYTES / 4))
            .unwrap_or(end);
        let cut = if cut == 0 { end.max(1) } else { cut };
        let (piece, tail) = rest.split_at(cut);
        let piece = piece.trim();
        if !piece.is_empty() {
            out.push(piece);
        }
        rest = tail.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sections_by_heading_with_the_title_in_front() {
        let text = "# tar\n\n> Archiving utility.\n\n## Extract\n\n`tar xf a.tar`\n";
        assert_eq!(
            chunks("common/tar", text, true),
            vec![
                "common tar: tar\n# tar\n\n> Archiving utility.",
                "common tar: tar\n## Extract\n\n`tar xf a.tar`",
            ]
        );
    }

    #[test]
    fn a_heading_inside_a_code_fence_is_not_a_section() {
        let text = "# a\n\n```sh\n# a comment\n```\n";
        assert_eq!(chunks("a", text, true).len(), 1);
    }

    #[test]
    fn plain_text_is_one_section_and_empty_text_is_its_name() {
        assert_eq!(chunks("notes/x.txt", "# not a heading", false).len(), 1);
        assert_eq!(chunks("notes/empty", "", true), vec!["notes empty"]);
    }

    #[test]
    fn a_huge_subject_is_bounded() {
        let text = "word ".repeat(1_000_000);
        let out = chunks("big", &text, true);
        assert_eq!(out.len(), MAX_CHUNKS);
    }

    #[test]
    fn a_huge_heading_leads_in_a_bounded_piece() {
        let text = format!("# {}\n\nbody\n", "wörd ".repeat(60_000));
        let out = chunks(&"s/".repeat(1000), &text, true);
        assert!(out.iter().all(|c| {
            c.split_once('\n')
                .is_some_and(|(lead, _)| lead.len() <= MAX_LEAD_BYTES)
        }));
        assert!(
            out.iter()
                .all(|c| c.len() <= MAX_LEAD_BYTES + 1 + MAX_CHUNK_BYTES)
        );
    }

    proptest! {
        #[test]
        fn chunks_are_bounded_and_lose_no_word(text in "(\\PC{0,40}[ \n#]{0,3}){0,200}") {
            let out = chunks("s", &text, true);
            prop_assert!(!out.is_empty() && out.len() <= MAX_CHUNKS);
            for c in &out {
                // The lead ("s" or "s: title") plus a newline plus the body.
                let body = c.split_once('\n').map_or("", |(_, b)| b);
                prop_assert!(body.len() <= MAX_CHUNK_BYTES);
            }
            if out.len() < MAX_CHUNKS {
                let kept: String = out.iter().filter_map(|c| c.split_once('\n')).map(|(_, b)| b).collect::<Vec<_>>().join(" ");
                for word in text.split_whitespace() {
                    prop_assert!(kept.contains(word), "{word:?} lost");
                }
            }
        }
    }
}
