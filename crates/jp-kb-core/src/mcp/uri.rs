//! `kb://{topic}/{slug}` resource URIs.
//!
//! Characters outside RFC 3986's unreserved set are percent-encoded (UTF-8
//! bytes, upper-case hex), except `/` between the slug's components. A
//! component made only of dots (the slug `.` of the tldr page `..md`) is
//! encoded too, so that no client's dot-segment normalization can turn
//! `kb://edge/.` into `kb://edge/`.

/// The RFC 6570 template clients see (`{+slug}`: the slug keeps its `/`).
pub const RESOURCE_TEMPLATE: &str = "kb://{topic}/{+slug}";

const SCHEME: &str = "kb://";

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// Everything but RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`).
const RESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn encode_segment(segment: &str, out: &mut String) {
    // A dots-only component is encoded whole (dots included).
    let only_dots = !segment.is_empty() && segment.bytes().all(|b| b == b'.');
    let set = if only_dots {
        NON_ALPHANUMERIC
    } else {
        RESERVED
    };
    out.extend(utf8_percent_encode(segment, set));
}

/// The resource URI of subject `slug` of topic `topic`.
pub fn subject_uri(topic: &str, slug: &str) -> String {
    let mut out = String::with_capacity(SCHEME.len() + topic.len() + slug.len() + 1);
    out.push_str(SCHEME);
    encode_segment(topic, &mut out);
    out.push('/');
    for (i, component) in slug.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        encode_segment(component, &mut out);
    }
    out
}

/// Splits a `kb://` URI into the topic id and the slug, percent-decoded.
/// `None` for anything else: another scheme, no slug, a bad `%` escape, or
/// bytes that are not UTF-8 once decoded.
pub fn parse_subject_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (topic, slug) = rest.split_once('/')?;
    let topic = decode(topic)?;
    let slug = decode(slug)?;
    (!topic.is_empty() && !slug.is_empty()).then_some((topic, slug))
}

/// Percent-decodes `text`; `None` for a `%` not followed by two hex
/// digits (`percent-encoding` would keep it literally) or for bytes that
/// are not UTF-8.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let well_formed = bytes.iter().enumerate().all(|(i, &b)| {
        b != b'%'
            || bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if !well_formed {
        return None;
    }
    percent_decode_str(text)
        .decode_utf8()
        .ok()
        .map(std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_outside_unreserved_and_keeps_slashes() {
        assert_eq!(
            subject_uri("project", "maintainers/jean"),
            "kb://project/maintainers/jean"
        );
        assert_eq!(subject_uri("edge", "gnu["), "kb://edge/gnu%5B");
        assert_eq!(subject_uri("edge", "notes.v2"), "kb://edge/notes.v2");
        assert_eq!(
            subject_uri("my topic", "a b/c?d#e"),
            "kb://my%20topic/a%20b/c%3Fd%23e"
        );
        assert_eq!(subject_uri("t/x", "é"), "kb://t%2Fx/%C3%A9");
        assert_eq!(subject_uri("tldr", "common/."), "kb://tldr/common/%2E");
        assert_eq!(subject_uri("tldr", ".."), "kb://tldr/%2E%2E");
        assert_eq!(subject_uri("t", "~a-b_c.d"), "kb://t/~a-b_c.d");
    }

    #[test]
    fn round_trips() {
        for (topic, slug) in [
            ("project", "maintainers/jean"),
            ("edge", "gnu["),
            ("my topic", "a b/c?d#e%"),
            ("t/x", "é/ü"),
            ("tldr", "common/."),
            ("tldr", "."),
        ] {
            let uri = subject_uri(topic, slug);
            assert_eq!(
                parse_subject_uri(&uri),
                Some((topic.to_owned(), slug.to_owned())),
                "{uri}"
            );
        }
    }

    /// A `%` must be followed by two hex digits: `from_str_radix` took
    /// `+F` as 15, so `%+F` decoded to a byte the encoder never writes.
    #[test]
    fn refuses_a_signed_percent_escape() {
        assert_eq!(parse_subject_uri("kb://t/%+F"), None);
        assert_eq!(parse_subject_uri("kb://t/a%-1"), None);
        assert_eq!(parse_subject_uri("kb://%+4/a"), None);
        assert_eq!(parse_subject_uri("kb://t/a%2"), None);
    }

    #[test]
    fn refuses_what_is_not_a_subject_uri() {
        assert_eq!(parse_subject_uri("file:///etc/passwd"), None);
        assert_eq!(parse_subject_uri("kb://project"), None);
        assert_eq!(parse_subject_uri("kb://project/"), None);
        assert_eq!(parse_subject_uri("kb:///x"), None);
        assert_eq!(parse_subject_uri("kb://p/%zz"), None);
        assert_eq!(parse_subject_uri("kb://p/%4"), None);
        assert_eq!(parse_subject_uri("kb://p/%FF"), None);
        // Decoding is all it does: `..` comes back as written, and the
        // reader only ever looks slugs up among walked subjects.
        assert_eq!(
            parse_subject_uri("kb://p/../x"),
            Some(("p".to_owned(), "../x".to_owned()))
        );
    }
}
