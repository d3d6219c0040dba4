//! The MIME type of a subject resource, from its extension (matched
//! case-insensitively, like the format table of `content`). Text formats
//! the engine passes through are `text/markdown` and `text/plain`; an
//! unknown extension is `text/plain`, because the engine treats it as text
//! (it fences it with the extension as language). A file that turns out to be
//! binary is served as a blob, with [`BINARY`] unless the table names a
//! binary type for it. The table is documented in the README.
//!
//! Why a table of our own rather than `mime_guess` (not compiled in): the
//! table is part of what clients are shown and is documented byte for byte
//! in the README, so it must not move with a dependency's update; it
//! covers only the formats `content` knows, and it answers for source
//! files as text (`ts` is `text/x-typescript` here; `mime_guess`'s list has
//! `video/mp2t`, which a client would not read as text).

/// The type of a binary subject the table has no binary type for.
pub const BINARY: &str = "application/octet-stream";

/// Extension (lower case) → MIME type.
pub const TABLE: &[(&str, &str)] = &[
    ("md", "text/markdown"),
    ("markdown", "text/markdown"),
    ("txt", "text/plain"),
    ("text", "text/plain"),
    ("json", "application/json"),
    ("toml", "application/toml"),
    ("yaml", "application/yaml"),
    ("yml", "application/yaml"),
    ("rs", "text/x-rust"),
    ("py", "text/x-python"),
    ("js", "text/javascript"),
    ("mjs", "text/javascript"),
    ("ts", "text/x-typescript"),
    ("sh", "text/x-shellscript"),
    ("bash", "text/x-shellscript"),
    ("go", "text/x-go"),
    ("c", "text/x-c"),
    ("h", "text/x-c"),
    ("cpp", "text/x-c++"),
    ("java", "text/x-java"),
    ("rb", "text/x-ruby"),
    ("html", "text/html"),
    ("css", "text/css"),
    ("csv", "text/csv"),
    ("xml", "application/xml"),
    ("svg", "image/svg+xml"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("pdf", "application/pdf"),
];

/// The MIME type for a file extension (`None`: no extension).
pub fn mime_type(extension: Option<&str>) -> &'static str {
    let Some(ext) = extension.filter(|e| !e.is_empty()) else {
        return "text/plain";
    };
    let ext = ext.to_ascii_lowercase();
    TABLE
        .iter()
        .find(|(e, _)| *e == ext)
        .map_or("text/plain", |(_, m)| m)
}

/// The type to serve a subject's bytes with once read: the table's type for
/// text; for binary content, the table's type when it is a binary one, else
/// [`BINARY`].
pub fn served_type(extension: Option<&str>, is_text: bool) -> &'static str {
    let listed = mime_type(extension);
    let textual = listed.starts_with("text/")
        || listed.ends_with("json")
        || listed.ends_with("toml")
        || listed.ends_with("yaml")
        || listed.ends_with("xml");
    match (is_text, textual) {
        (false, true) => BINARY,
        _ => listed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        assert_eq!(mime_type(Some("md")), "text/markdown");
        assert_eq!(mime_type(Some("MD")), "text/markdown");
        assert_eq!(mime_type(Some("txt")), "text/plain");
        assert_eq!(mime_type(Some("text")), "text/plain");
        assert_eq!(mime_type(None), "text/plain");
        assert_eq!(mime_type(Some("")), "text/plain");
        assert_eq!(mime_type(Some("json")), "application/json");
        assert_eq!(mime_type(Some("toml")), "application/toml");
        assert_eq!(mime_type(Some("yml")), "application/yaml");
        assert_eq!(mime_type(Some("rs")), "text/x-rust");
        assert_eq!(mime_type(Some("weird")), "text/plain");
        assert_eq!(mime_type(Some("png")), "image/png");
    }

    #[test]
    fn binary_content() {
        assert_eq!(served_type(Some("png"), false), "image/png");
        assert_eq!(served_type(Some("md"), false), BINARY);
        assert_eq!(served_type(Some("json"), false), BINARY);
        assert_eq!(served_type(Some("md"), true), "text/markdown");
    }
}
