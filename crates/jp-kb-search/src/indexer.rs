//! Reading files into segment builders, on every core when there are
//! many: the caller's reader gives each file's text, [`file_terms`]
//! splits it into the fields the ranking weighs.

use crate::document::{Document, FileStamp, file_terms};
use crate::segment::{Builder, DocMeta, FIELDS};
use crate::tokenize::Tokenizer;

/// A file changed less than this before it was read may change again
/// within the same timestamp; its stamp is not trusted (read again).
const UNSURE_NANOS: i64 = 2_000_000_000;
/// Below this many files one thread indexes; above, one per core.
const PARALLEL_FROM: usize = 512;

/// Reads and indexes `files` (positions in the caller's list, with their
/// stamps) after what `builder` holds: the parts of one segment, in
/// order (see [`crate::segment::encode_parts`]). `readers` makes one
/// reader per thread (a reader may keep state, such as an open
/// directory, that is not shared between threads).
pub(crate) fn index_files<R, F>(
    mut builder: Builder,
    files: &[(usize, &FileStamp<'_>)],
    now: i64,
    readers: &R,
) -> Vec<Builder>
where
    R: Fn() -> F + Sync,
    F: FnMut(usize) -> Document,
{
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if files.len() < PARALLEL_FROM || threads < 2 {
        let mut tokenizer = Tokenizer::new();
        let mut read = readers();
        for &(i, f) in files {
            index_file(&mut builder, &mut tokenizer, &read(i), f, now);
        }
        return vec![builder];
    }
    let chunk = files.len().div_ceil(threads.min(8));
    let parts: Vec<Builder> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut b = Builder::default();
                    let mut tokenizer = Tokenizer::new();
                    let mut read = readers();
                    for &(i, f) in part {
                        index_file(&mut b, &mut tokenizer, &read(i), f, now);
                    }
                    b
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all = Vec::with_capacity(parts.len() + 1);
    all.push(builder);
    all.extend(parts);
    all
}

/// Indexes one file.
fn index_file(
    builder: &mut Builder,
    tokenizer: &mut Tokenizer,
    doc: &Document,
    file: &FileStamp<'_>,
    now: i64,
) {
    let (bytes, modified) = file.stamp();
    let modified = if now.saturating_sub(modified) < UNSURE_NANOS {
        0
    } else {
        modified
    };
    let meta = DocMeta {
        path: file.key().to_owned(),
        bytes,
        modified,
        lens: [0; FIELDS],
    };
    builder.add(meta, |add| {
        file_terms(tokenizer, file.slug(), doc, add);
    });
}
