//! Reading a subject file and formatting it the way the assistant sees it
//! (contract §4): pass-through or fenced by extension; binary, non-UTF-8
//! and unreadable files are skipped with a reason, never inlined. Every
//! read goes through the guarded open of [`open`] and is bounded.

use std::io::Read as _;
use std::path::Path;

/// How many leading bytes are searched for a NUL byte.
pub const BINARY_SNIFF_LEN: usize = 8192;

pub mod open;

pub use open::{MAX_RESOURCE_BYTES, MAX_SUBJECT_BYTES, Root};

/// Why a subject's content is not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    Binary,
    NotUtf8,
    Unreadable(String),
    /// Larger than the limit it was read with (see
    /// [`MAX_SUBJECT_BYTES`]): never read whole.
    TooLarge {
        bytes: u64,
        limit: u64,
    },
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::Binary => f.write_str("binary file (NUL byte in the first 8192 bytes)"),
            SkipReason::NotUtf8 => f.write_str("not valid UTF-8"),
            SkipReason::Unreadable(why) => write!(f, "unreadable: {why}"),
            SkipReason::TooLarge { bytes, limit } => write!(
                f,
                "too large: {bytes} bytes, above the limit of {limit} bytes"
            ),
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

/// Reads a subject file through the guarded open ([`Root::open`]): a
/// file that now resolves outside `root` (the canonical workspace root),
/// or is no regular file, is skipped as unreadable. Reads 8 KiB to tell a
/// binary file, and no more than [`MAX_SUBJECT_BYTES`] in all.
pub fn read_content(root: &Root<'_>, path: &Path) -> Content {
    read_content_limited(root, path, MAX_SUBJECT_BYTES)
}

/// [`read_content`] with another size limit.
pub fn read_content_limited(root: &Root<'_>, path: &Path, limit: u64) -> Content {
    match read_bytes(root, path, limit) {
        Ok(bytes) => decode_content(bytes),
        Err(reason) => Content::Skipped(reason),
    }
}

/// The bytes of a subject, at most `limit` of them: a binary file (by its
/// first 8 KiB) or one above the limit is a [`SkipReason`], as is any
/// file the guarded open refuses.
pub fn read_bytes(root: &Root<'_>, path: &Path, limit: u64) -> Result<Vec<u8>, SkipReason> {
    let unreadable = |e: &dyn std::fmt::Display| SkipReason::Unreadable(e.to_string());
    let opened = root.open(path).map_err(|e| unreadable(&e))?;
    let mut file = opened.file;
    // The size `fstat` gave, plus one byte to see the end: one allocation
    // for most files, never more than the limit allows.
    let expected = opened.size.min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    let sniff = limit.min(BINARY_SNIFF_LEN as u64);
    read_up_to(&mut file, sniff, &mut bytes).map_err(|e| unreadable(&open::os_reason(&e)))?;
    if looks_binary(&bytes) {
        return Err(SkipReason::Binary);
    }
    let too_large = |bytes: u64| SkipReason::TooLarge { bytes, limit };
    if opened.size > limit {
        return Err(too_large(opened.size));
    }
    if (bytes.len() as u64) < sniff {
        // The end came before the sniff was full.
        return Ok(bytes);
    }
    // One byte more than the limit tells a file that grew since `fstat`.
    let rest = (limit + 1).saturating_sub(bytes.len() as u64);
    read_up_to(&mut file, rest, &mut bytes).map_err(|e| unreadable(&open::os_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(opened.size.max(bytes.len() as u64)));
    }
    Ok(bytes)
}

/// Appends up to `count` more bytes of `file` to `bytes`.
fn read_up_to(file: &mut std::fs::File, count: u64, bytes: &mut Vec<u8>) -> std::io::Result<()> {
    file.by_ref().take(count).read_to_end(bytes).map(|_| ())
}

/// Reads a subject and formats it: what the assistant gets for it.
pub fn read_formatted(root: &Root<'_>, slug: &str, extension: Option<&str>, path: &Path) -> String {
    format_subject_owned(slug, extension, read_content(root, path))
}

/// Reads at most `limit` bytes of a subject file (for previews of huge
/// files), through the guarded open. Returns the content and whether the
/// file was cut; a cut never splits a UTF-8 character (the incomplete tail
/// is dropped).
pub fn read_content_prefix(root: &Root<'_>, path: &Path, limit: usize) -> (Content, bool) {
    let mut bytes = Vec::new();
    let read = root
        .open(path)
        .map_err(|e| e.to_string())
        .and_then(|opened| {
            let mut file = opened.file;
            read_up_to(&mut file, limit as u64 + 1, &mut bytes).map_err(|e| open::os_reason(&e))
        });
    if let Err(why) = read {
        return (Content::Skipped(SkipReason::Unreadable(why)), false);
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
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().canonicalize().unwrap();
        let path = dir.join("big.md");
        std::fs::write(&path, "ab\u{e9}cd").unwrap();
        // "ab" + 2-byte é: a 3-byte limit cuts é in half; it is dropped.
        assert_eq!(
            read_content_prefix(&Root::new(&dir), &path, 3),
            (Content::Text("ab".into()), true)
        );
        assert_eq!(
            read_content_prefix(&Root::new(&dir), &path, 100),
            (Content::Text("ab\u{e9}cd".into()), false)
        );
        assert!(matches!(
            read_content_prefix(&Root::new(&dir), &dir.join("missing"), 10),
            (Content::Skipped(SkipReason::Unreadable(_)), false)
        ));
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
    fn reads_stop_at_the_limit_and_binary_wins_over_size() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let text = "x".repeat(BINARY_SNIFF_LEN + 100);
        std::fs::write(root.join("t.md"), &text).unwrap();
        let path = root.join("t.md");
        let len = text.len() as u64;
        assert_eq!(
            read_content_limited(&Root::new(&root), &path, len),
            Content::Text(text.clone())
        );
        assert_eq!(
            read_content_limited(&Root::new(&root), &path, len - 1),
            Content::Skipped(SkipReason::TooLarge {
                bytes: len,
                limit: len - 1
            })
        );
        // Within the sniff, too.
        assert_eq!(
            read_content_limited(&Root::new(&root), &path, 10),
            Content::Skipped(SkipReason::TooLarge {
                bytes: len,
                limit: 10
            })
        );
        let mut binary = vec![b'a'; 100];
        binary.push(0);
        binary.resize(BINARY_SNIFF_LEN * 4, b'a');
        std::fs::write(root.join("b.bin"), &binary).unwrap();
        assert_eq!(
            read_content_limited(&Root::new(&root), &root.join("b.bin"), 1000),
            Content::Skipped(SkipReason::Binary)
        );
        assert_eq!(
            format_subject(
                "t",
                None,
                &read_content_limited(&Root::new(&root), &path, 10)
            ),
            format!("[skipped subject \"t\": too large: {len} bytes, above the limit of 10 bytes]")
        );
    }

    #[test]
    fn unreadable_files_give_the_os_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("dir.md")).unwrap();
        // A directory cannot be read as a file, for any user (root too).
        match read_content(&Root::new(&root), &root.join("dir.md")) {
            Content::Skipped(SkipReason::Unreadable(why)) => {
                assert!(why.contains("directory"), "{why}");
                assert!(!why.contains("os error"), "{why}");
            }
            other => panic!("expected unreadable, got {other:?}"),
        }
        assert!(matches!(
            read_content(&Root::new(&root), &root.join("missing/x.md")),
            Content::Skipped(SkipReason::Unreadable(_))
        ));
        // Not a subject of this workspace at all.
        assert_eq!(
            read_content(&Root::new(&root), Path::new("/etc/hostname")),
            Content::Skipped(SkipReason::Unreadable(
                "resolves outside the workspace".into()
            ))
        );
    }
}
