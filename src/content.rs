//! Reading a subject file and formatting it the way the assistant sees it
//! (contract §4): pass-through or fenced by extension; binary, non-UTF-8
//! and unreadable files are skipped with a reason, never inlined.

use std::io::Read as _;
use std::path::Path;

/// How many leading bytes are searched for a NUL byte.
pub const BINARY_SNIFF_LEN: usize = 8192;

/// Why a subject's content is not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    Binary,
    NotUtf8,
    Unreadable(String),
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::Binary => f.write_str("binary file (NUL byte in the first 8192 bytes)"),
            SkipReason::NotUtf8 => f.write_str("not valid UTF-8"),
            SkipReason::Unreadable(why) => write!(f, "unreadable: {why}"),
        }
    }
}

/// A subject's content as read from disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// The text, trailing line breaks removed.
    Text(String),
    Skipped(SkipReason),
}

/// True when `bytes` has a NUL byte in its first 8192 bytes.
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_LEN)].contains(&0)
}

/// Reads a subject file.
pub fn read_content(path: &Path) -> Content {
    match std::fs::read(path) {
        Ok(bytes) => decode_content(bytes),
        Err(err) => Content::Skipped(SkipReason::Unreadable(os_reason(&err))),
    }
}

/// Reads a subject and formats it: what the assistant gets for it.
pub fn read_formatted(slug: &str, extension: Option<&str>, path: &Path) -> String {
    format_subject_owned(slug, extension, read_content(path))
}

/// Reads at most `limit` bytes of a subject file (for previews of huge
/// files). Returns the content and whether the file was cut; a cut never
/// splits a UTF-8 character (the incomplete tail is dropped).
pub fn read_content_prefix(path: &Path, limit: usize) -> (Content, bool) {
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| {
        let mut taken = f.take(limit as u64 + 1);
        taken.read_to_end(&mut bytes)
    });
    if let Err(err) = read {
        return (
            Content::Skipped(SkipReason::Unreadable(os_reason(&err))),
            false,
        );
    }
    let truncated = bytes.len() > limit;
    if truncated {
        bytes.truncate(limit);
        if let Err(e) = std::str::from_utf8(&bytes)
            && e.error_len().is_none()
        {
            bytes.truncate(e.valid_up_to());
        }
    }
    (decode_content(bytes), truncated)
}

/// Classifies raw bytes as text, binary or invalid UTF-8.
pub fn decode_content(bytes: Vec<u8>) -> Content {
    if looks_binary(&bytes) {
        return Content::Skipped(SkipReason::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            let kept = text.trim_end_matches(['\n', '\r']).len();
            text.truncate(kept);
            Content::Text(text)
        }
        Err(_) => Content::Skipped(SkipReason::NotUtf8),
    }
}

/// The OS's reason without Rust's "(os error 13)" suffix.
fn os_reason(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The fence language for an extension, or `None` for pass-through formats
/// (`md`, `txt`, `text`, no extension). Matching is case-insensitive.
pub fn fence_language(extension: Option<&str>) -> Option<String> {
    let ext = extension.filter(|e| !e.is_empty())?;
    let lang = match ext.to_ascii_lowercase().as_str() {
        "md" | "txt" | "text" => return None,
        "toml" => "toml",
        "json" => "json",
        "yaml" | "yml" => "yaml",
        "rs" => "rust",
        "py" => "python",
        "js" => "javascript",
        "ts" => "typescript",
        _ => return Some(ext.to_owned()),
    };
    Some(lang.to_owned())
}

/// The text the assistant gets for a subject: pass-through text, a fenced
/// block, or a one-line skip notice naming the slug.
pub fn format_subject(slug: &str, extension: Option<&str>, content: &Content) -> String {
    format_subject_owned(slug, extension, content.clone())
}

/// [`format_subject`] taking the content by value: pass-through text is
/// returned without a copy (pre-loading 10k subjects moves ~100 MB).
pub fn format_subject_owned(slug: &str, extension: Option<&str>, content: Content) -> String {
    match content {
        Content::Text(text) => match fence_language(extension) {
            None => text,
            Some(lang) => {
                let mut out = String::with_capacity(text.len() + lang.len() + 8);
                out.push_str("```");
                out.push_str(&lang);
                out.push('\n');
                out.push_str(&text);
                out.push_str("\n```");
                out
            }
        },
        Content::Skipped(reason) => format!("[skipped subject \"{slug}\": {reason}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let t = Content::Text("a = 1".into());
        assert_eq!(format_subject("x", Some("toml"), &t), "```toml\na = 1\n```");
        assert_eq!(format_subject("x", Some("md"), &t), "a = 1");
        assert_eq!(format_subject("x", None, &t), "a = 1");
        assert_eq!(format_subject("x", Some("yml"), &t), "```yaml\na = 1\n```");
        assert_eq!(format_subject("x", Some("sh"), &t), "```sh\na = 1\n```");
        assert_eq!(format_subject("x", Some("MD"), &t), "a = 1");
    }

    #[test]
    fn trailing_breaks_removed_and_binary_detected() {
        assert_eq!(
            decode_content(b"a\n\n\r\n".to_vec()),
            Content::Text("a".into())
        );
        assert_eq!(
            decode_content(b"a\0b".to_vec()),
            Content::Skipped(SkipReason::Binary)
        );
        let mut late = vec![b'a'; BINARY_SNIFF_LEN];
        late.push(0);
        assert!(matches!(decode_content(late), Content::Text(_)));
        assert_eq!(
            decode_content(vec![0xE9, b'a']),
            Content::Skipped(SkipReason::NotUtf8)
        );
    }

    #[test]
    fn prefix_read_is_bounded_and_keeps_whole_characters() {
        let dir = std::env::temp_dir().join(format!("jp-kb-prefix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.md");
        std::fs::write(&path, "ab\u{e9}cd").unwrap();
        // "ab" + 2-byte é: a 3-byte limit cuts é in half; it is dropped.
        assert_eq!(
            read_content_prefix(&path, 3),
            (Content::Text("ab".into()), true)
        );
        assert_eq!(
            read_content_prefix(&path, 100),
            (Content::Text("ab\u{e9}cd".into()), false)
        );
        assert!(matches!(
            read_content_prefix(&dir.join("missing"), 10),
            (Content::Skipped(SkipReason::Unreadable(_)), false)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn skip_notice_names_slug() {
        let c = Content::Skipped(SkipReason::Binary);
        assert_eq!(
            format_subject("logo", Some("png"), &c),
            "[skipped subject \"logo\": binary file (NUL byte in the first 8192 bytes)]"
        );
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    #[test]
    fn unreadable_files_give_the_os_reason() {
        let dir = std::env::temp_dir();
        // A directory cannot be read as a file, for any user (root too).
        match read_content(&dir) {
            Content::Skipped(SkipReason::Unreadable(why)) => {
                assert!(why.contains("directory"), "{why}");
                assert!(!why.contains("os error"), "{why}");
            }
            other => panic!("expected unreadable, got {other:?}"),
        }
        assert!(matches!(
            read_content(Path::new("/nonexistent/x.md")),
            Content::Skipped(SkipReason::Unreadable(_))
        ));
    }
}
