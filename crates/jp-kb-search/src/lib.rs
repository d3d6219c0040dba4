//! A small lexical search index: BM25F over three fields of each document
//! (its name, a summary, the body), with weaker matches for names that
//! begin, end or abbreviate query words, and a prior for documents others
//! mention in code. The index is a cache saved in a directory the caller
//! chooses and **read in parts**: opening reads a header and a few small
//! tables, a query the dictionary blocks and postings of its own terms,
//! each part checked against its CRC-32 when read (see [`segment`]).
//!
//! It knows files, not topics: the caller lists the files that belong in
//! the index ([`FileStamp`]: a key, a slug, a size and a time) and reads
//! the text of those the index asks for ([`Document`]).
//!
//! ```
//! use jp_kb_search::{Document, FileStamp, Lexical, Scoring, Tokenizer};
//!
//! let files = [
//!     FileStamp::new("tar.md".into(), "tar", 40, 1),
//!     FileStamp::new("zip.md".into(), "zip", 30, 1),
//! ];
//! let texts = ["# tar\n\n> Archiving utility.", "# zip\n\n> Compress files."];
//! let mut index = Lexical::open(None); // memory only
//! let read = index.refresh(&files, 1_000_000_000_000, &|| |i: usize| {
//!     Document::markdown(texts[i].to_owned())
//! });
//! assert_eq!(read, Some(2));
//! let terms = Tokenizer::new().query_terms("archives");
//! let ranked = index.ranked(&terms, None, &Scoring::default())?;
//! assert_eq!(index.key(ranked[0].0)?, "tar.md");
//! # Ok::<(), jp_kb_search::CacheError>(())
//! ```

pub mod abbrev;
pub mod cache_file;
pub mod codec;
mod document;
pub mod hash;
mod index;
mod indexer;
mod lexical;
pub mod memo;
pub mod rank;
pub mod segment;
pub mod snippet;
mod store;
pub mod tokenize;

pub use cache_file::{CacheError, is_absent, open_regular};
pub use document::{Document, FileStamp};
pub use index::{Change, DocRef, Index};
pub use lexical::Lexical;
pub use memo::Memo;
pub use rank::Scoring;
pub use snippet::{Snippet, snippet};
pub use store::write_atomic;
pub use tokenize::Tokenizer;
