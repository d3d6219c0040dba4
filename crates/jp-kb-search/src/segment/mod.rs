//! One immutable piece of the index and its file format: [`Builder`]
//! makes one, [`encode_parts`] writes it, [`Segment`] reads it.
//!
//! A segment is **read in parts**, never whole: opening reads the header
//! and the small sections every query needs (each document's field
//! lengths, the names, the two block tables); a query then reads the
//! dictionary block of each of its terms and those terms' postings, and
//! the documents' paths of the hits it shows. Each part carries its own
//! CRC-32, checked when it is read, so damage anywhere is still found
//! when that part is used, and [`Segment::check_all`] reads every part.
//! Every offset and count is checked; a damaged file is an error, never
//! a panic.
//!
//! A segment is a cache file ([`crate::cache_file`], kind
//! [`Kind::Segment`](crate::cache_file::Kind)) of these sections:
//!
//! | section | what |
//! | --- | --- |
//! | head | id, base id, digest, document and term counts, total field lengths |
//! | norms | per document: its three field lengths and how many documents of the segment mention its name (4 × u32) |
//! | masked | for a delta: the main segment's documents it replaces or removes (varints) |
//! | names | the distinct short names ([`crate::abbrev::candidate`]) with their documents |
//! | doc table | per block of [`DOCS_PER_BLOCK`] documents: offset, length, CRC |
//! | term table | per block of [`TERMS_PER_BLOCK`] terms: its first term, offset, length, CRC |
//! | docs | blocks of `(path, bytes, modified)` |
//! | terms | blocks of `(term, postings offset, length, df, CRC)` |
//! | postings | per term, varint `(doc delta, tf per field)` tuples |
//!
//! The first six are read whole at open, each checked against its CRC;
//! the last three part by part, each part against the CRC its table
//! gives.

mod builder;
mod encode;
mod reader;
mod tables;
#[cfg(test)]
mod tests;

pub use builder::Builder;
pub use encode::{Head, encode_parts};
pub use reader::Segment;

pub(crate) const DOCS_PER_BLOCK: usize = 64;
pub(crate) const TERMS_PER_BLOCK: usize = 64;
/// Bytes of one document's norms: three field lengths and a mention count.
pub(crate) const NORM_LEN: usize = 16;

/// The sections, in file order.
pub(crate) mod section {
    pub const HEAD: usize = 0;
    pub const NORMS: usize = 1;
    pub const MASKED: usize = 2;
    pub const NAMES: usize = 3;
    pub const DOC_TABLE: usize = 4;
    pub const TERM_TABLE: usize = 5;
    pub const DOCS: usize = 6;
    pub const TERMS: usize = 7;
    pub const POSTINGS: usize = 8;
    pub const COUNT: usize = 9;
}
/// The head section's length: id, base, digest, two counts, the total
/// field lengths.
pub(crate) const HEAD_LEN: usize = 8 * 3 + 4 * 2 + 8 * FIELDS;

/// What the index remembers of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocMeta {
    /// The file's key (its path relative to the workspace root).
    pub path: String,
    pub bytes: u64,
    /// Nanoseconds since the epoch; 0 when the file changed so recently
    /// that a later change could keep the same time (re-read next time).
    pub modified: i64,
    /// Number of terms in each field (the BM25F field lengths).
    pub lens: Tfs,
}

/// The fields of a document, scored apart (BM25F).
pub const FIELDS: usize = 3;
/// What names the subject: the last part of its slug, its title
/// (`# name`), front-matter `name` and `title`.
pub const NAME: usize = 0;
/// What summarises it: its first paragraph (tldr's `> description`), its
/// other headings, front-matter `description` and `tags`, and the
/// directories of its slug (`linux` in `linux/df`).
pub const SUMMARY: usize = 1;
/// The rest of the text.
pub const BODY: usize = 2;
/// Not a field: a mention of another subject (see [`crate::rank`]),
/// stored as a body count and counted in no field's length.
pub const MENTION: usize = FIELDS;
/// A count per field.
pub type Tfs = [u32; FIELDS];

/// A term's postings: `(document, count per field)` in document order.
pub type Postings = Vec<(u32, Tfs)>;

/// One document's norms: its field lengths, and how many documents of
/// its segment mention its name in code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Norms {
    pub lens: Tfs,
    pub mentions: u32,
}

/// The name of an indexed file: its file name without its last
/// extension (the last part of its slug).
pub(crate) fn doc_name(path: &str) -> &str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    }
}
