//! The segment format: round trips, parts built apart, and damage (any
//! cut or flipped bits is an error when the damaged part is read, never a
//! panic nor a different answer).

use std::fmt::Write as _;

use super::*;
use crate::cache_file::{self, CacheError, Kind};

pub(crate) fn meta(path: &str) -> DocMeta {
    DocMeta {
        path: path.into(),
        bytes: 1,
        modified: 2,
        lens: [0; FIELDS],
    }
}

fn head(id: u64, base: u64) -> Head {
    Head {
        id,
        base,
        digest: 0,
    }
}

pub(crate) fn sample() -> Builder {
    let mut b = Builder::default();
    b.add(meta("a/tar.md"), |add| {
        add("tar", NAME);
        add("archiv", BODY);
        add("tar", BODY);
        add("tar", BODY);
    });
    b.add(meta("b/zip.md"), |add| {
        add("zip", SUMMARY);
        add("`tar", MENTION);
    });
    b.add(meta("c.md"), |add| add("tar", BODY));
    b.masked = vec![3, 9];
    b
}

/// Everything a query can ask of a segment, as one value to compare.
fn answers(seg: &Segment) -> Result<String, CacheError> {
    let mut out = format!(
        "{} {} {:?} {:?} {:?} {:?} {:?}",
        seg.id,
        seg.base,
        seg.total_lens,
        seg.norms,
        seg.masked,
        seg.names,
        seg.docs()?
    );
    for term in ["", "a", "archiv", "tar", "zip", "`tar", "zz"] {
        let _ = write!(
            out,
            " {:?} {} {:?}",
            seg.postings(term)?,
            seg.df(term)?,
            seg.with_prefix(term, usize::MAX)?
        );
    }
    seg.each_term(|t, p| {
        let _ = write!(out, " {t}{p:?}");
    })?;
    Ok(out)
}

#[test]
fn round_trips_and_finds_postings() {
    let seg = Segment::from_bytes(sample().encode(head(7, 3))).unwrap();
    assert_eq!((seg.id, seg.base), (7, 3));
    assert_eq!(seg.doc_count(), 3);
    assert_eq!(seg.norms[0].lens, [1, 0, 3]);
    // `b/zip.md` holds the one mention of `tar`, the name of `a/tar.md`.
    assert_eq!(seg.norms[0].mentions, 1);
    assert_eq!(seg.masked, [3, 9]);
    assert_eq!(seg.doc(2).unwrap().path, "c.md");
    assert_eq!(
        seg.postings("tar").unwrap(),
        [(0, [1, 0, 2]), (2, [0, 0, 1])]
    );
    assert_eq!(seg.postings("zip").unwrap(), [(1, [0, 1, 0])]);
    assert!(seg.postings("nope").unwrap().is_empty());
    assert_eq!(
        seg.names,
        [("tar".to_owned(), vec![0]), ("zip".to_owned(), vec![1])]
    );
    let prefixed = seg.with_prefix("ta", 10).unwrap();
    assert_eq!(prefixed.len(), 1);
    assert_eq!(prefixed[0].0, "tar");
}

/// Many terms and documents: lookups across block boundaries.
#[test]
fn lookups_cross_blocks() {
    let mut b = Builder::default();
    for n in 0..300 {
        b.add(meta(&format!("d{n:03}.md")), |add| {
            add(&format!("w{n:03}"), BODY);
            add("all", BODY);
        });
    }
    let seg = Segment::from_bytes(b.encode(head(1, 0))).unwrap();
    for n in [0, 63, 64, 65, 127, 128, 299] {
        assert_eq!(seg.postings(&format!("w{n:03}")).unwrap().len(), 1, "{n}");
        assert_eq!(seg.doc(n).unwrap().path, format!("d{n:03}.md"));
    }
    assert_eq!(seg.postings("all").unwrap().len(), 300);
    assert_eq!(seg.with_prefix("w1", 1000).unwrap().len(), 100);
    assert_eq!(seg.with_prefix("w", 7).unwrap().len(), 7);
    assert_eq!(seg.docs().unwrap().len(), 300);
    seg.check_all().unwrap();
}

#[test]
fn absorb_drops_documents_and_renumbers() {
    let seg = Segment::from_bytes(sample().encode(head(1, 0))).unwrap();
    let mut b = Builder::default();
    b.absorb(&seg, |_, d| d.path != "a/tar.md").unwrap();
    let merged = Segment::from_bytes(b.encode(head(2, 0))).unwrap();
    assert_eq!(merged.doc_count(), 2);
    assert_eq!(merged.postings("tar").unwrap(), [(1, [0, 0, 1])]);
    assert!(merged.postings("archiv").unwrap().is_empty());
}

/// Parts built apart and encoded as one are, byte for byte, the
/// segment of one builder given the same documents in the same order.
#[test]
fn parts_encode_as_one_builder_would() {
    let words = ["tar", "archiv", "zip", "gzip", "ü", "a", "ab", "b"];
    let doc = |n: usize| -> Vec<(&str, usize)> {
        (0..=(n % 7))
            .map(|k| (words[(n * 3 + k * 5) % words.len()], (n + k) % FIELDS))
            .collect()
    };
    let add = |b: &mut Builder, n: usize| {
        b.add(meta(&format!("d{n}.md")), |add| {
            for (term, field) in doc(n) {
                add(term, field);
            }
        });
    };
    let mut parts = vec![Builder::default(), Builder::default(), Builder::default()];
    parts[0].masked = vec![4];
    let mut one = Builder::default();
    one.masked = vec![4];
    // Part 1 stays empty, as a thread given no file would.
    for n in 0..40 {
        add(&mut parts[if n < 15 { 0 } else { 2 }], n);
        add(&mut one, n);
    }
    assert_eq!(encode_parts(&parts, head(9, 4)), one.encode(head(9, 4)));
    let seg = Segment::from_bytes(encode_parts(&parts, head(9, 4))).unwrap();
    assert_eq!(seg.doc_count(), 40);
    assert_eq!(
        encode_parts(&[], head(1, 0)),
        Builder::default().encode(head(1, 0))
    );
    Segment::from_bytes(Builder::default().encode(head(1, 0)))
        .unwrap()
        .check_all()
        .unwrap();
}

/// Opens `bytes` and asks everything of it: `Err` or exactly `good`'s
/// answers, never a third thing.
fn error_or_same(bytes: Vec<u8>, good: &str) -> Result<(), String> {
    let Ok(seg) = Segment::from_bytes(bytes) else {
        return Ok(());
    };
    match answers(&seg) {
        Ok(a) if a != good => Err(format!("a different answer: {a}")),
        _ => Ok(()),
    }
}

#[test]
fn damage_is_an_error_never_a_panic() {
    let good = sample().encode(head(1, 0));
    let good_answers = answers(&Segment::from_bytes(good.clone()).unwrap()).unwrap();
    assert_eq!(
        Segment::from_bytes(b"hello".to_vec()).unwrap_err(),
        CacheError::Foreign("search index")
    );
    let mut other = good.clone();
    other[8] = 99;
    assert_eq!(
        Segment::from_bytes(other).unwrap_err(),
        CacheError::OtherVersion(99)
    );
    for cut in 0..good.len() {
        assert!(Segment::from_bytes(good[..cut].to_vec()).is_err(), "{cut}");
    }
    for i in 12..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x55;
        let seg = Segment::from_bytes(bad);
        assert!(
            seg.is_err() || seg.is_ok_and(|s| s.check_all().is_err()),
            "byte {i}"
        );
    }
    // Damage to the sections read at open behind CRCs that match it: an
    // error, or a segment whose every lookup is safe.
    let sections = cache_file::sections_of(&good, Kind::Segment);
    for i in 0..section::DOCS {
        for byte in 0..sections[i].len() {
            for flip in [0x01, 0x80, 0xFF] {
                let mut damaged = sections.clone();
                damaged[i][byte] ^= flip;
                let parts: Vec<&[u8]> = damaged.iter().map(Vec::as_slice).collect();
                if let Ok(seg) = Segment::from_bytes(cache_file::encode(Kind::Segment, &parts)) {
                    let _ = answers(&seg);
                }
            }
        }
    }
    assert!(error_or_same(good, &good_answers).is_ok());
}

proptest::proptest! {
    /// Up to three flipped bits anywhere, or a cut anywhere: opening or
    /// reading the damaged part is an error (CRC-32 detects every error
    /// of up to three bits in parts this size, the header states the
    /// file's length), and no lookup ever answers differently.
    #[test]
    fn any_small_damage_is_an_error(
        bits in proptest::collection::vec(0usize..1_000_000, 1..=3),
        cut in 0usize..1_000_000,
    ) {
        let mut b = sample();
        for n in 0..80 {
            b.add(meta(&format!("x/n{n}.md")), |add| {
                add(&format!("t{}", n % 70), BODY);
                add("tar", NAME);
            });
        }
        let good = b.encode(head(7, 0));
        let good_answers = answers(&Segment::from_bytes(good.clone()).unwrap()).unwrap();
        let mut bad = good.clone();
        let mut flipped = std::collections::BTreeSet::new();
        for bit in bits {
            let bit = bit % (good.len() * 8);
            if flipped.insert(bit) {
                bad[bit / 8] ^= 1 << (bit % 8);
            }
        }
        let damaged = Segment::from_bytes(bad.clone());
        proptest::prop_assert!(damaged.is_err() || damaged.is_ok_and(|s| s.check_all().is_err()));
        proptest::prop_assert_eq!(error_or_same(bad, &good_answers), Ok(()));
        let cut = cut % good.len();
        proptest::prop_assert!(Segment::from_bytes(good[..cut].to_vec()).is_err());
    }
}
